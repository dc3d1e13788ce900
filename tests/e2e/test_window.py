"""The window around the page: shortcuts, workspace, auto-scroll, long summaries, failures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core import config
from core.config import Settings
from core.llm.scripted import ScriptedModel
from tests.e2e.conftest import WindowMaker, close_window
from tests.e2e.pagetools import count, js, submit, texts, wait_js
from tests.e2e.scripted_runs import ANSWER_DRAFT, ScriptedFactory, two_phase_replies
from tests.e2e.windowtools import menu_action
from tests.support.log_guard import ExpectedWarning
from tests.support.script import analysis, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"


def test_ctrl_enter_sends_and_esc_stops(qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(two_phase_replies(delay_judge_s=30))
    window = make_window(factory)
    assert menu_action(window, "Send").shortcut().toString() == "Ctrl+Return"
    assert menu_action(window, "Stop").shortcut().toString() == "Esc"
    js(qtbot, window, "(() => { document.getElementById('input').value = 'from the keyboard';"
                      " return 1; })()")
    menu_action(window, "Send").trigger()
    wait_js(qtbot, window, "document.querySelectorAll('.task').length >= 3")
    assert texts(qtbot, window, ".bubble") == ["from the keyboard"]
    assert js(qtbot, window, "document.getElementById('input').value") == ""
    menu_action(window, "Stop").trigger()
    menu_action(window, "Stop").trigger()
    wait_js(qtbot, window, FINISHED, timeout=15000)
    assert count(qtbot, window, ".stopping-note") == 1
    assert factory.last.cancels == 1  # a repeated Esc does not skip the model's summary


def test_workspace_is_remembered_across_a_restart(qtbot: QtBot, make_window: WindowMaker,
                                                  tmp_path: Path) -> None:
    window = make_window(use_workspace=False)
    folder = tmp_path / "chosen"
    folder.mkdir()
    window.set_workspace(folder)
    wait_js(qtbot, window, f"document.getElementById('ctx-workspace').title === {str(folder)!r}")
    close_window(qtbot, window)
    again = make_window(use_workspace=False)
    assert again.settings.workspace == str(folder)
    assert again.sidebar.workspace_label.text() == str(folder)
    assert config.load()[0].workspace == str(folder)


def test_without_a_workspace_the_request_is_refused_visibly(qtbot: QtBot,
                                                            make_window: WindowMaker) -> None:
    factory = ScriptedFactory(two_phase_replies())
    window = make_window(factory, use_workspace=False)
    submit(qtbot, window, "hello")
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert "Choose a workspace folder" in message
    assert factory.engines == []


class BrokenFactory(ScriptedFactory):
    def make_model(self, settings: Settings) -> ScriptedModel:
        raise ValueError("the model file is missing")


def test_an_engine_that_cannot_start_shows_why(
        qtbot: QtBot, make_window: WindowMaker,
        expect_warning: Callable[..., ExpectedWarning]) -> None:
    expect_warning("could not start the run", count=1)
    window = make_window(BrokenFactory())
    submit(qtbot, window, "hello")
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert "Could not start the run: the model file is missing" in message
    assert js(qtbot, window, "[document.getElementById('stop').hidden, "
                             "document.getElementById('status').textContent]") == [True, ""]
    assert window.history.conversations() == []


def test_auto_scroll_follows_until_the_person_scrolls_up(qtbot: QtBot,
                                                         make_window: WindowMaker) -> None:
    window = make_window(ScriptedFactory(two_phase_replies()))
    submit(qtbot, window, "go")
    wait_js(qtbot, window, FINISHED)
    at_bottom = ("(() => { const t = document.getElementById('timeline');"
                 " return t.scrollHeight - t.scrollTop - t.clientHeight < 60; })()")
    wait_js(qtbot, window, at_bottom)
    js(qtbot, window, "(() => { const t = document.getElementById('timeline');"
                      " t.dispatchEvent(new WheelEvent('wheel', {deltaY: -5000}));"
                      " t.scrollTop = 0; return 1; })()")
    qtbot.wait(200)
    for i in range(30):
        window.bridge.send({"kind": "notice", "level": "info", "message": f"later {i}"})
    wait_js(qtbot, window, "document.getElementById('jump').hidden === false")
    assert js(qtbot, window, "document.getElementById('timeline').scrollTop") == 0
    js(qtbot, window, "(() => { document.getElementById('jump').click(); return 1; })()")
    wait_js(qtbot, window, at_bottom)


def test_a_long_summary_is_collapsed_and_expands(qtbot: QtBot, make_window: WindowMaker) -> None:
    long_md = "## Details\n\n" + "\n\n".join(f"Paragraph {i} of the report." for i in range(60))
    replies = [analysis("Report", complexity="complex"), phases((1, "Look", [])), ANSWER_DRAFT,
               plan(task(1, "list_files")), judge([1]), summary(long_md)]
    window = make_window(ScriptedFactory(replies))
    submit(qtbot, window, "report")
    wait_js(qtbot, window, FINISHED)
    assert js(qtbot, window, "document.querySelector('.message-summarizer')"
                             ".classList.contains('collapsed')") is True
    collapsed = js(qtbot, window, "document.querySelector('.summarizer-content').clientHeight")
    assert collapsed <= 360
    js(qtbot, window, "(() => { document.querySelector('.summarizer-toggle button').click();"
                      " return 1; })()")
    expanded = js(qtbot, window, "document.querySelector('.summarizer-content').clientHeight")
    assert expanded > 1000
    assert texts(qtbot, window, ".summarizer-toggle button") == ["Show less ▴"]


def test_pressing_stop_again_skips_the_model_summary(qtbot: QtBot,
                                                     make_window: WindowMaker) -> None:
    replies = two_phase_replies(delay_judge_s=30)
    replies.insert(4, {**replies[-1], "delay_s": 30})  # a slow summarizer right after the judge
    factory = ScriptedFactory(replies)
    window = make_window(factory)
    submit(qtbot, window, "go")
    wait_js(qtbot, window, "document.querySelectorAll('.task').length >= 3")
    js(qtbot, window, "(() => { document.getElementById('stop').click(); return 1; })()")
    wait_js(qtbot, window, "document.getElementById('stop').textContent === 'Skip model summary'")
    js(qtbot, window, "(() => { document.getElementById('stop').click(); return 1; })()")
    wait_js(qtbot, window, FINISHED, timeout=10000)
    assert factory.last.cancels == 2
    final = factory.last.of("summary")[0]
    assert final.generated_by == "fallback"
    assert js(qtbot, window, "document.querySelector('.summarizer-by').textContent") == \
        "composed without the model"


def test_the_header_names_the_offline_model_and_only_the_demo_gets_the_banner(
        qtbot: QtBot, make_window: WindowMaker, tmp_path: Path) -> None:
    from tests.unit.core.test_gguf_choice import write_gguf

    coder = write_gguf(tmp_path / "coder.gguf", 32768, "Qwen2.5 Coder 1.5B Instruct GGUF")
    config.save(config.from_mapping({"provider": "embedded", "gguf": str(coder)}))
    window = make_window()
    header = wait_js(qtbot, window, "document.getElementById('ctx-model').textContent")
    assert header == "Qwen2.5 Coder 1.5B Instruct · offline"
    assert js(qtbot, window, "document.getElementById('banner').hidden") is True
    config.save(config.from_mapping({"provider": "embedded"}))
    demo = make_window()
    assert wait_js(qtbot, demo, "document.getElementById('ctx-model').textContent") == \
        "Offline demo model"
    assert js(qtbot, demo, "document.getElementById('banner').hidden") is False


def test_the_page_warns_of_a_kind_it_does_not_know_and_keeps_working(
        qtbot: QtBot, make_window: WindowMaker,
        expect_warning: Callable[..., ExpectedWarning]) -> None:
    unknown = expect_warning("unknown event kind no_such_kind", count=1)
    window = make_window(ScriptedFactory(two_phase_replies()))
    window.bridge.send({"kind": "no_such_kind", "message": "ignored"})
    qtbot.waitUntil(lambda: len(unknown.records) == 1, timeout=5000)
    assert unknown.records[0].levelname == "WARNING" and unknown.records[0].name == "ui.main_window"
    submit(qtbot, window, "still works")
    wait_js(qtbot, window, FINISHED)
    assert texts(qtbot, window, ".bubble") == ["still works"]
