"""What the settings dialog tells a newcomer: the offline model it names is the one the
header names (in the Model field too, when it is the model in use), each field's meaning under
it, long values (the allowed commands) whole; a key notice only when a key changed, and a
``--workspace`` of the session saved only when entered in the dialog."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialogButtonBox, QLabel, QScrollArea
from pytestqt.qtbot import QtBot

from core import config
from core.appdirs import models_dir
from tests.e2e.conftest import WindowMaker, close_window
from tests.e2e.pagetools import wait_js
from tests.e2e.windowtools import open_settings
from tests.unit.core.test_gguf_choice import write_gguf
from ui.main_window import MainWindow
from ui.settings_fields import WrappedText

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
QWEN = "Qwen2.5 Coder 1.5B Instruct"


def test_the_offline_model_field_names_the_model_the_header_names(
        qtbot: QtBot, make_window: WindowMaker, tmp_path: Path) -> None:
    models_dir().mkdir(parents=True, exist_ok=True)
    write_gguf(models_dir() / "qwen2.5-coder-1.5b.gguf", 32768, f"{QWEN} GGUF")
    window = make_window()
    wait_js(qtbot, window, "document.getElementById('ctx-model').textContent === "
                           f"{QWEN + ' · offline'!r}")
    dialog = open_settings(window)
    field = dialog.widgets["gguf"]
    line = dialog.findChild(QLabel, "offlineModelInUse")
    assert field.text() == "" and field.placeholderText() == f"Empty: {QWEN}"
    assert line.text() == f"In use: {QWEN}"
    assert "bundled default" not in field.placeholderText()
    qtbot.wait(200)
    ARTIFACTS.mkdir(exist_ok=True)
    assert dialog.grab().save(str(ARTIFACTS / "settings-offline-model.png"))

    other = write_gguf(tmp_path / "tiny.gguf", 4096, "Tiny Test Model")
    field.setText(str(other))
    assert line.text() == "In use: Tiny Test Model"
    field.setText(str(tmp_path / "nowhere.gguf"))
    assert line.text().startswith("No model file found there")
    field.setText("")
    dialog.widgets["base_url"].setText("http://127.0.0.1:9/v1")
    assert line.text() == (f"Offline model: {QWEN} (not in use: the provider is an "
                           "OpenAI-compatible endpoint)")
    dialog.reject()


def test_the_allowed_commands_are_shown_whole_and_saved_as_typed(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    field = dialog.widgets["command_allowlist"]
    assert isinstance(field, WrappedText)
    default = config.Settings().command_allowlist
    assert field.text() == default and len(default) > 60
    field.ensureCursorVisible()
    scroll = dialog.findChild(QScrollArea)
    scroll.ensureWidgetVisible(field)
    qtbot.waitUntil(lambda: field.isVisible() and field.viewport().width() > 100)
    assert field.horizontalScrollBar().maximum() == 0
    assert field.verticalScrollBar().maximum() == 0  # every line of it in view
    assert field.width() >= 250

    field.setText("ls,\n cat ,  pytest")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert window.settings.command_allowlist == "ls, cat , pytest"

    again = open_settings(window)
    again.findChild(QScrollArea).ensureWidgetVisible(again.widgets["command_allowlist"])
    again.widgets["command_allowlist"].setText(default)
    qtbot.wait(200)
    ARTIFACTS.mkdir(exist_ok=True)
    assert again.grab().save(str(ARTIFACTS / "settings-allowed-commands.png"))
    again.reject()


def test_every_field_says_what_it_means_and_the_model_field_names_the_offline_model(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    models_dir().mkdir(parents=True, exist_ok=True)
    write_gguf(models_dir() / "qwen2.5-coder-1.5b.gguf", 32768, f"{QWEN} GGUF")
    window = make_window()
    dialog = open_settings(window)
    for f in config.fields():
        line = dialog.findChild(QLabel, f"description_{f.name}")
        assert line is not None and line.text(), f.name
        assert f.metadata["description"].startswith(line.text().rstrip(".")), f.name
    model = dialog.widgets["model"]
    assert model.currentText() == ""  # nothing is stored in the field
    assert model.lineEdit().placeholderText() == f"{QWEN} · offline, in use"
    dialog.widgets["base_url"].setText("http://127.0.0.1:9/v1")
    assert model.lineEdit().placeholderText() == ""  # the endpoint's model is asked for
    dialog.reject()


def last_message(qtbot: QtBot, window: MainWindow) -> str:
    return wait_js(qtbot, window, "(() => { const m = document.querySelectorAll('.ui-message');"
                                  " return m.length ? m[m.length - 1].textContent : ''; })()")


def test_saving_without_a_new_key_says_nothing_of_keys(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert last_message(qtbot, window).endswith("Settings saved.")  # after its ℹ️ icon


def test_a_command_line_workspace_is_not_saved_unless_entered_in_the_dialog(
        qtbot: QtBot, qloop: object, tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    session = tmp_path / "session"
    saved.mkdir()
    session.mkdir()
    config.save(config.from_mapping({"workspace": str(saved)}, config.Settings()))
    settings = config.from_mapping({"workspace": str(session)}, config.load()[0])
    window = MainWindow(settings, saved_workspace=str(saved))
    window.show()
    try:
        qtbot.waitUntil(lambda: window.bridge.is_ready, timeout=20000)
        dialog = open_settings(window)
        assert dialog.widgets["workspace"].text() == str(saved)
        note = dialog.findChild(QLabel, "sessionWorkspace")
        assert note is not None and str(session) in note.text() and "not saved" in note.text()
        dialog.widgets["max_iterations"].setValue(12)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
        stored = config.load()[0]
        assert (stored.workspace, stored.max_iterations) == (str(saved), 12)
        assert window.settings.workspace == str(session)  # this session keeps working there

        again = open_settings(window)
        again.widgets["workspace"].setText(str(session))
        again.buttons.button(QDialogButtonBox.StandardButton.Save).click()
        assert config.load()[0].workspace == str(session)
        assert window.settings.workspace == str(session)
    finally:
        close_window(qtbot, window)
