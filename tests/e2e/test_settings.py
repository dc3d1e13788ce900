"""The settings dialog: generated from core.config, validated, saved, and remembered."""

from __future__ import annotations

import json
import re
import stat
import sys
import types
from pathlib import Path

import pytest
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QDoubleSpinBox,
    QLineEdit,
    QSpinBox,
)
from pytestqt.qtbot import QtBot

from core import appdirs, config, secrets
from core.llm.scripted import ScriptedModel
from tests.e2e.conftest import WindowMaker, close_window
from tests.e2e.pagetools import wait_js
from tests.e2e.windowtools import open_settings
from tests.support.fake_openai import FakeOpenAI, refused_url
from ui.settings_dialog import SettingsDialog

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def save(dialog: SettingsDialog) -> None:
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()


def test_dialog_has_one_widget_per_declared_setting(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    assert set(dialog.widgets) == {f.name for f in config.fields()}
    assert isinstance(dialog.widgets["use_phase_task"], QCheckBox)
    assert isinstance(dialog.widgets["provider"], QComboBox)
    assert isinstance(dialog.widgets["max_iterations"], QSpinBox)
    assert (dialog.widgets["max_iterations"].minimum(), dialog.widgets["max_iterations"].maximum()) \
        == (1, 500)
    assert isinstance(dialog.widgets["compaction_threshold"], QDoubleSpinBox)
    key = dialog.widgets["api_key"]
    assert isinstance(key, QLineEdit) and key.echoMode() == QLineEdit.EchoMode.Password
    assert secrets.describe_store() in dialog.key_store_label.text()
    dialog.reject()


def test_use_phase_task_persists_across_a_restart(qtbot: QtBot, make_window: WindowMaker,
                                                  isolated_home: Path) -> None:
    window = make_window()
    wait_js(qtbot, window, "document.getElementById('ctx-engine').textContent === 'Phase engine'")
    dialog = open_settings(window)
    dialog.widgets["use_phase_task"].setChecked(False)
    save(dialog)
    assert not dialog.isVisible()
    assert window.settings.use_phase_task is False
    wait_js(qtbot, window, "document.getElementById('ctx-engine').textContent === 'Classic loop'")
    assert json.loads(appdirs.config_path().read_text())["use_phase_task"] is False
    close_window(qtbot, window)

    again = make_window()
    assert again.settings.use_phase_task is False
    wait_js(qtbot, again, "document.getElementById('ctx-engine').textContent === 'Classic loop'")
    reopened = open_settings(again)
    assert reopened.widgets["use_phase_task"].isChecked() is False
    reopened.reject()


def test_invalid_value_is_refused_with_the_reason(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    dialog.widgets["base_url"].setText("ftp://example.com")
    save(dialog)
    assert dialog.isVisible()
    assert "must start with http" in dialog.error_label.text()
    assert not appdirs.config_path().exists() or \
        json.loads(appdirs.config_path().read_text())["base_url"] == ""
    dialog.widgets["base_url"].setText("http://127.0.0.1:9/v1")
    save(dialog)
    assert not dialog.isVisible()
    assert window.settings.base_url == "http://127.0.0.1:9/v1"


def test_api_key_goes_to_the_secret_store_and_the_page_says_where(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    dialog.widgets["api_key"].setText("sk-test-12345")
    save(dialog)
    key_file = Path(appdirs.app_home()[0]) / "api_key"
    assert key_file.read_text() == "sk-test-12345"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert "sk-test-12345" not in appdirs.config_path().read_text()
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert "file readable only by you" in message


@pytest.mark.parametrize("reply, expected", [
    ({"text": "pong"}, "replied “pong”"),
    ({"error": {"status": 0, "message": "connection refused"}}, "Connection failed"),
])
def test_test_connection_reports_without_freezing(qtbot: QtBot, make_window: WindowMaker,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  reply: dict, expected: str) -> None:
    factory = types.ModuleType("core.llm.factory")
    factory.make_model = lambda settings: ScriptedModel([{**reply, "delay_s": 0.3}])  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "core.llm.factory", factory)
    window = make_window()
    dialog = open_settings(window)
    dialog.test_button.click()
    assert "Testing" in dialog.test_label.text()
    assert not dialog.test_button.isEnabled()
    qtbot.waitUntil(lambda: expected in dialog.test_label.text(), timeout=5000)
    assert dialog.test_button.isEnabled()
    dialog.reject()


def test_test_connection_talks_to_an_openai_compatible_server(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    with FakeOpenAI([{"text": "pong"}]) as server:
        dialog.widgets["provider"].setCurrentText("openai")
        dialog.widgets["base_url"].setText(server.base_url)
        dialog.widgets["model"].setCurrentText("tiny-test-model")
        dialog.widgets["api_key"].setText("sk-connection-test-999")
        dialog.test_button.click()
        qtbot.waitUntil(lambda: "replied" in dialog.test_label.text()
                        or "failed" in dialog.test_label.text(), timeout=10000)
        qtbot.waitUntil(dialog.test_button.isEnabled, timeout=10000)
        assert re.fullmatch(
            "Connected to openai · tiny-test-model: replied “pong”.\n"
            r"Probe \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\): stage calls use 'named' "
            r"\(honoured: named ✓; answered right: named ✓\)\.\n"
            r"Models: this server does not list its models \(no /models route\); type the "
            r"model's name\.", dialog.test_label.text())
        assert server.gets == ["/v1/models"]
        assert dialog.widgets["model"].count() == 0  # nothing listed: the field stays free text
        assert dialog.values()["model"] == "tiny-test-model"
    stored = json.loads((appdirs.app_home()[1] / "endpoint_probes.json").read_text())
    assert stored[f"{server.base_url} tiny-test-model"]["chosen"] == "named"
    assert dialog.test_button.isEnabled()
    assert not appdirs.config_path().exists()  # testing does not save
    dialog.reject()


def test_test_connection_shows_the_error_of_an_unreachable_server(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    dialog.widgets["provider"].setCurrentText("openai")
    dialog.widgets["base_url"].setText(refused_url())
    dialog.widgets["max_retries"].setValue(0)
    dialog.test_button.click()
    qtbot.waitUntil(lambda: "Connection failed" in dialog.test_label.text(), timeout=15000)
    assert dialog.test_button.isEnabled()
    dialog.reject()


def test_the_offline_model_file_is_picked_saved_and_used(
        qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    from core.llm.embedded_load import model_path
    from PySide6.QtWidgets import QFileDialog, QPushButton

    bundled = model_path()
    asked: list[str] = []

    def pick(parent: object, title: str, start: str, file_filter: str) -> tuple[str, str]:
        asked.extend([title, start, file_filter])
        return str(bundled), file_filter

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(pick))
    window = make_window()
    dialog = open_settings(window)
    field = dialog.widgets["gguf"]
    assert isinstance(field, QLineEdit) and field.text() == ""
    dialog.findChild(QPushButton, "browse_gguf").click()
    assert asked == ["Offline model file", str(appdirs.models_dir()), "GGUF models (*.gguf)"]
    assert field.text() == str(bundled)
    dialog.widgets["provider"].setCurrentText("embedded")
    dialog.test_button.click()
    qtbot.waitUntil(lambda: "Connected" in dialog.test_label.text()
                    or "failed" in dialog.test_label.text(), timeout=60000)
    assert dialog.test_label.text().startswith("Connected to embedded · Smollm2 135M")
    save(dialog)
    assert json.loads(appdirs.config_path().read_text())["gguf"] == str(bundled)
    assert window.settings.gguf == str(bundled)


def test_a_missing_offline_model_file_is_reported_by_test_connection(
        qtbot: QtBot, make_window: WindowMaker, tmp_path: Path) -> None:
    window = make_window()
    dialog = open_settings(window)
    dialog.widgets["provider"].setCurrentText("embedded")
    dialog.widgets["gguf"].setText(str(tmp_path / "nowhere.gguf"))
    dialog.test_button.click()
    qtbot.waitUntil(lambda: "Connection failed" in dialog.test_label.text(), timeout=15000)
    assert "nowhere.gguf' does not exist" in dialog.test_label.text()
    dialog.reject()


def test_the_dialog_shows_the_stored_probe_of_the_configured_endpoint(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    from core.llm.probe import ProbeResult, store

    url = "http://127.0.0.1:9/v1"
    settings, _ = config.load()
    config.save(config.from_mapping({"provider": "openai", "base_url": url,
                                     "model": "probed-model"}, settings))
    kept = store(url, "probed-model", ProbeResult(
        chosen="named", honoured={"named": True}, answered={"named": False}))
    dialog = open_settings(make_window())
    assert dialog.test_label.text() == (
        f"Last probe of this endpoint, {kept.when()}: stage calls use 'named' "
        "(honoured: named ✓; answered right: named ✗).")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", kept.when())
    ARTIFACTS.mkdir(exist_ok=True)
    assert dialog.grab().save(str(ARTIFACTS / "settings-stored-probe.png"))
    dialog.reject()
    config.save(config.from_mapping({"model": "never-probed"}, config.load()[0]))
    dialog = open_settings(make_window())
    assert "has not been probed yet" in dialog.test_label.text()
    dialog.reject()


def test_test_connection_offers_the_listed_models_and_warns_of_an_unlisted_name(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    field = dialog.widgets["model"]
    assert isinstance(field, QComboBox) and field.isEditable() and field.count() == 0
    warning = dialog.model_list.warning
    with FakeOpenAI([{"text": "pong"}], models=["qwen2.5-coder-7b", "llama-3.1-8b"]) as server:
        dialog.widgets["provider"].setCurrentText("openai")
        dialog.widgets["base_url"].setText(server.base_url)
        field.setCurrentText("gpt-4o-mini")
        dialog.test_button.click()
        qtbot.waitUntil(lambda: "Models:" in dialog.test_label.text(), timeout=10000)
        qtbot.waitUntil(dialog.test_button.isEnabled, timeout=10000)
    assert dialog.test_label.text().endswith(
        "Models: the server lists 2 (llama-3.1-8b, qwen2.5-coder-7b); pick one in the Model "
        "field.")
    assert [field.itemText(i) for i in range(field.count())] == ["llama-3.1-8b",
                                                                 "qwen2.5-coder-7b"]
    assert field.currentText() == "gpt-4o-mini"
    assert not warning.isHidden()
    assert warning.text() == ("⚠ The server does not list “gpt-4o-mini”. It is kept as typed; "
                              "the server may still refuse it.")
    ARTIFACTS.mkdir(exist_ok=True)
    assert dialog.grab().save(str(ARTIFACTS / "settings-model-list.png"))
    field.setCurrentIndex(1)
    assert field.currentText() == "qwen2.5-coder-7b" and warning.isHidden()
    field.setCurrentText("my-alias")
    assert not warning.isHidden()
    save(dialog)  # a warning, not a refusal
    assert not dialog.isVisible() and window.settings.model == "my-alias"
    assert json.loads(appdirs.config_path().read_text())["model"] == "my-alias"

    again = open_settings(window)
    assert again.widgets["model"].currentText() == "my-alias"
    assert again.model_list.warning.isHidden()  # nothing listed yet in this dialog
    again.reject()


def test_a_listed_model_list_is_forgotten_when_the_endpoint_changes(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    dialog = open_settings(make_window())
    field = dialog.widgets["model"]
    with FakeOpenAI([{"text": "pong"}], models=["only-model"]) as server:
        dialog.widgets["provider"].setCurrentText("openai")
        dialog.widgets["base_url"].setText(server.base_url)
        field.setCurrentText("other")
        dialog.test_button.click()
        qtbot.waitUntil(dialog.test_button.isEnabled, timeout=10000)
        qtbot.waitUntil(lambda: "Models:" in dialog.test_label.text(), timeout=10000)
    assert field.count() == 1 and not dialog.model_list.warning.isHidden()
    dialog.widgets["base_url"].setText(server.base_url + "/other")
    assert field.count() == 0 and field.currentText() == "other"
    assert dialog.model_list.warning.isHidden()
    dialog.reject()
