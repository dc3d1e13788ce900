"""The thinking model in the window: its settings, and the model of each call in the inspector."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialogButtonBox, QGroupBox, QLineEdit
from pytestqt.qtbot import QtBot

from core import appdirs
from core.config import Settings
from core.llm.scripted import ScriptedModel
from tests.e2e.conftest import WindowMaker, close_window
from tests.e2e.pagetools import click, count, js, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory, port_move_replies
from tests.e2e.windowtools import open_settings

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
THINKING_FIELDS = ("thinking_base_url", "thinking_model", "thinking_api_key")
THINKING_TOOLS = {"request_analyser", "phase_planner", "judge_tasks", "summarizer"}
KEY = "sk-thinking-test-3333333333"
def test_thinking_fields_appear_save_and_reload_with_the_key_kept_out_of_the_file(
        qtbot: QtBot, make_window: WindowMaker, isolated_home: Path) -> None:
    window = make_window()
    dialog = open_settings(window)
    box = next(b for b in dialog.findChildren(QGroupBox) if b.title() == "Thinking model")
    for name in THINKING_FIELDS:
        widget = dialog.widgets[name]
        assert isinstance(widget, QLineEdit) and box.isAncestorOf(widget)
        assert widget.text() == ""
    assert dialog.widgets["thinking_model"].placeholderText() == "same as the main model"
    assert dialog.widgets["thinking_base_url"].placeholderText() == "same as the main model"
    assert dialog.widgets["thinking_api_key"].echoMode() == QLineEdit.EchoMode.Password
    assert "thinking_api_key" in dialog.key_store_labels["thinking_api_key"].text()

    dialog.widgets["thinking_base_url"].setText("http://127.0.0.1:9/v1")
    dialog.widgets["thinking_model"].setText("judge-model")
    dialog.widgets["thinking_api_key"].setText(KEY)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert not dialog.isVisible()
    assert (window.settings.thinking_base_url, window.settings.thinking_model) == \
        ("http://127.0.0.1:9/v1", "judge-model")
    text = appdirs.config_path().read_text()
    assert json.loads(text)["thinking_model"] == "judge-model"
    assert KEY not in text and "thinking_api_key" not in json.loads(text)
    key_file = appdirs.app_home()[0] / "thinking_api_key"
    assert key_file.read_text() == KEY and stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert not (appdirs.app_home()[0] / "api_key").exists()  # the main key stays empty
    wait_js(qtbot, window, "document.getElementById('ctx-model').textContent"
                           ".endsWith(' · thinking: judge-model @ 127.0.0.1:9')")
    close_window(qtbot, window)

    again = make_window()
    reopened = open_settings(again)
    assert [reopened.widgets[name].text() for name in THINKING_FIELDS] == \
        ["http://127.0.0.1:9/v1", "judge-model", KEY]
    reopened.reject()


class RolesFactory(ScriptedFactory):
    """Plan, Think and the writing calls (a text reply) answered by the main script, the
    thinking stages by a second model."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        thinking = [r for r in replies if r.get("tool") in THINKING_TOOLS]
        super().__init__([r for r in replies if r.get("tool") not in THINKING_TOOLS])
        self.thinking = thinking

    def make_models(self, settings: Settings) -> tuple[Any, Any]:
        return self.make_model(settings), ScriptedModel(self.thinking, name="judge-model")


def test_the_inspector_shows_which_model_served_each_call(qtbot: QtBot,
                                                          make_window: WindowMaker) -> None:
    factory = RolesFactory(port_move_replies())  # a change: the draft (no file) comes first
    window = make_window(factory)
    submit(qtbot, window, "move the port")
    wait_js(qtbot, window, FINISHED)
    calls = factory.last.of("llm_call")
    # analyse, phases, the one-shot draft (no file, so round 1 is planned), plan, judge,
    # think, plan, judge, plan (a clean write: no judge), summary
    assert [c.stage for c in calls] == [
        "request_analyser", "phase_planner", "author", "plan", "judge", "think", "plan",
        "judge", "plan", "summarizer"]
    assert [c.model for c in calls] == [
        "judge-model (thinking)", "judge-model (thinking)", "scripted", "scripted",
        "judge-model (thinking)", "scripted", "scripted", "judge-model (thinking)", "scripted",
        "judge-model (thinking)"]

    click(qtbot, window, ".calls-toggle")
    assert count(qtbot, window, ".call") == 10
    assert texts(qtbot, window, ".call-stage") == [c.stage.replace("_", " ") for c in calls]
    assert texts(qtbot, window, ".call-head .call-model") == [c.model for c in calls]
    assert js(qtbot, window, "document.querySelectorAll('.call-model')[0].title") == \
        "served by judge-model (thinking)"
    assert factory.last.of("summary")[0].generated_by == "model"


def test_a_call_recorded_without_a_model_shows_none(qtbot: QtBot,
                                                    make_window: WindowMaker) -> None:
    """Runs recorded before calls named their model still open in the inspector."""
    window = make_window()
    window.bridge.send({"kind": "run_started", "run_id": "r", "engine": "phase", "request": "old",
                        "provider": "openai", "model": "m", "workspace": "/w", "budget": 30})
    window.bridge.send({"kind": "llm_call", "stage": "plan", "prompt_tokens": 10,
                        "completion_tokens": 5, "counted_in_budget": True, "calls_used": 1,
                        "budget": 30, "context_tokens": 10, "ok": True})
    wait_js(qtbot, window, "document.querySelector('.calls-toggle') !== null")
    click(qtbot, window, ".calls-toggle")
    assert texts(qtbot, window, ".call-stage") == ["plan"]
    assert count(qtbot, window, ".call-model") == 0
