"""The outcome and the requirement checklist as a person sees them: page, footer, history list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import count, js, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.support.script import analysis, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
HOSTILE = 'Port <img src=x onerror="document.title=\'owned\'"> 8080'


def _clean() -> list[dict]:
    written = summary("## Port moved\n\nThe config now says 8080.")
    written["arguments"]["requirements"] = [
        {"requirement": HOSTILE, "status": "done", "evidence": "task 1 edit_file <b>ok</b>"}]
    return [analysis("Move the port", requirements=[HOSTILE, "Keep DEBUG as it is"]),
            phases((1, "Edit", [])),
            plan(task(1, "edit_file", path="config.py", old_text="PORT = 8000",
                      new_text="PORT = 8080")),
            judge([1]), written]


def _failing() -> list[dict]:
    return [analysis("Fix the parser", requirements=["Fix parser.py"]),
            phases((1, "Fix", [])),
            plan(task(1, "read_file", path="parser.py")),
            judge([], [1], completed=False, action="end_phase", reason="no parser.py"),
            summary("## Nothing fixed\n\nparser.py does not exist.")]


def test_the_outcome_leads_the_summary_footer_and_history_list(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedFactory(_clean(), _failing(), think_stage="never"))
    submit(qtbot, window, "Move the port to 8080")
    wait_js(qtbot, window, FINISHED)

    header = texts(qtbot, window, ".summarizer-header > *")
    assert header == ["📝", "Summary", "✅ Succeeded"]  # "completed" adds nothing to it
    assert texts(qtbot, window, ".summarizer-requirements .requirement-text") == [
        HOSTILE, "Keep DEBUG as it is"]
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.requirement'))"
                             ".map(r => r.dataset.status)") == ["done", "done"]
    assert texts(qtbot, window, ".requirement-evidence")[0] == "Evidence: task 1 edit_file <b>ok</b>"
    assert texts(qtbot, window, ".requirement-evidence .evidence-text")[0] == \
        "task 1 edit_file <b>ok</b>"
    assert count(qtbot, window, ".message-summarizer img, .summarizer-requirements b") == 0
    assert js(qtbot, window, "document.title") != "owned"
    assert texts(qtbot, window, ".run-footer > *")[0] == "✅ Succeeded"
    assert window.sidebar.conversations.item(0).text().splitlines()[1].startswith("✓ succeeded")

    window.history_view.new()
    submit(qtbot, window, "Fix the parser")
    wait_js(qtbot, window, FINISHED)
    assert texts(qtbot, window, ".summarizer-header .outcome") == ["❌ Failed"]
    assert texts(qtbot, window, ".summarizer-header .badge") == ["❌ Failed"]
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.requirement'))"
                             ".map(r => r.dataset.status)") == ["failed"]
    assert js(qtbot, window, "document.querySelector('.run').dataset.outcome") == "failed"
    assert window.sidebar.conversations.item(0).text().splitlines()[1].startswith("✗ failed")


def test_a_replayed_run_shows_the_same_outcome_and_checklist(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedFactory(_clean(), think_stage="never"))
    submit(qtbot, window, "Move the port to 8080")
    wait_js(qtbot, window, FINISHED)
    live = texts(qtbot, window, ".summarizer-requirements li, .run-footer .outcome")
    assert live
    conversation = window.history_view.current
    window.history_view.new()
    wait_js(qtbot, window, "document.querySelector('.run-footer') === null")
    window.history_view.open(conversation)
    wait_js(qtbot, window, FINISHED)
    shown = ("JSON.stringify(Array.from(document.querySelectorAll("
             "'.summarizer-requirements li, .run-footer .outcome')).map(e => e.textContent))")
    expected = json.dumps(live, ensure_ascii=False, separators=(",", ":"))
    wait_js(qtbot, window, f"{shown} === {json.dumps(expected)}")
