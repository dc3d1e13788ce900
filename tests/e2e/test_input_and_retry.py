"""The window's input as a person meets it: an empty request says why nothing happened, a
refused one stays in the box (and the header says the folder is missing), and a finished run
can be retried or edited and sent again, in the same conversation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import click, heard_requests, js, settle, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.e2e.windowtools import open_conversation
from tests.support.script import analysis, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
REQUEST = "Tell me the port in config.py"
INPUT = "document.getElementById('input').value"
NOTE = "(() => { const n = document.getElementById('input-note');" \
       " return n.hidden ? '' : n.textContent; })()"


def runs_finished(n: int) -> str:
    return f"document.querySelectorAll('.run-footer').length === {n}"


def one_read(goal: str = "Tell the port", judge_delay_s: float = 0.0) -> list[dict]:
    verdict = judge([1], summary="config.py says PORT = 8000.")
    if judge_delay_s:
        verdict["delay_s"] = judge_delay_s
    return [analysis(goal, complexity="complex"), phases((1, "Read", [])),
            plan(task(1, "read_file", path="config.py")), verdict,
            summary("## The port\n\nconfig.py sets `PORT = 8000`.")]


def test_an_empty_request_says_why_nothing_was_sent(qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory()
    window = make_window(factory)
    heard = heard_requests(window)
    submit(qtbot, window, "   \n  ")
    note = wait_js(qtbot, window, NOTE)
    assert note.startswith("Nothing was sent: the request is empty.")
    assert js(qtbot, window, "document.querySelectorAll('.ui-message, .run').length") == 0
    assert js(qtbot, window, "document.activeElement.id") == "input"
    js(qtbot, window, "(() => { const i = document.getElementById('input'); i.value = 'x';"
                      " i.dispatchEvent(new Event('input')); return 1; })()")
    assert js(qtbot, window, NOTE) == ""
    assert heard == [] and factory.engines == []


def test_a_refused_request_stays_in_the_box_and_the_header_says_the_folder_is_missing(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    factory = ScriptedFactory(one_read())
    window = make_window(factory)
    header = "document.getElementById('ctx-workspace').textContent"
    wait_js(qtbot, window, f"{header} === {str(f'📁 {workspace}')!r}")  # set once loaded
    shutil.rmtree(workspace)

    submit(qtbot, window, REQUEST)
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert f"The workspace folder {workspace} no longer exists" in message
    assert wait_js(qtbot, window, NOTE).startswith("Not sent")
    wait_js(qtbot, window, f"{INPUT} === {REQUEST!r}")  # the refused text stays in the box
    wait_js(qtbot, window, f"{header} === {str(f'⚠ Folder missing: {workspace}')!r}")
    assert js(qtbot, window, "document.getElementById('ctx-workspace').classList"
                             ".contains('missing')") is True
    assert window.sidebar.workspace_label.text() == f"{workspace}\n⚠ This folder no longer exists."
    assert factory.engines == [] and window.history.conversations() == []
    window.resize(1100, 520)
    settle(qtbot, window, ms=300)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-refused-request.png"))

    workspace.mkdir()
    (workspace / "config.py").write_text("PORT = 8000\n", encoding="utf-8")
    click(qtbot, window, "#send")
    wait_js(qtbot, window, runs_finished(1))
    wait_js(qtbot, window, f"{INPUT} === '' && {NOTE} === ''")
    assert js(qtbot, window, header) == f"📁 {workspace}"
    assert texts(qtbot, window, ".bubble") == [REQUEST]


def test_a_missing_folder_is_named_missing_when_the_window_opens(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    shutil.rmtree(workspace)
    window = make_window(ScriptedFactory())
    wait_js(qtbot, window, "document.getElementById('ctx-workspace').textContent === "
                           f"{str(f'⚠ Folder missing: {workspace}')!r}")


def test_retry_starts_the_same_request_again_in_the_same_conversation(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(one_read(), one_read(judge_delay_s=1.5), one_read(),
                              think_stage="never")
    window = make_window(factory)
    window.resize(1100, 760)
    submit(qtbot, window, REQUEST)
    wait_js(qtbot, window, runs_finished(1))
    assert texts(qtbot, window, ".run-footer .run-again button") == ["↻ Retry", "✎ Edit"]
    conversation = window.history_view.current
    heard = heard_requests(window)

    click(qtbot, window, ".retry-btn")
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 2")
    hidden = ("Array.from(document.querySelectorAll('.run-again'))"
              ".map(a => getComputedStyle(a).display)")
    assert js(qtbot, window, hidden) == ["none"]  # not while a run is going
    wait_js(qtbot, window, runs_finished(2))
    assert heard == ["retry_requested"]
    assert len(factory.engines) == 2
    runs = window.history.store.runs(conversation)
    assert [r["request"] for r in runs] == [REQUEST, REQUEST]
    assert window.history_view.current == conversation
    assert [c["id"] for c in window.history.conversations()] == [conversation]
    assert texts(qtbot, window, ".bubble") == [REQUEST, REQUEST]
    assert js(qtbot, window, hidden) == ["flex", "flex"]

    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, runs_finished(2))
    click(qtbot, window, ".retry-btn", 0)  # a replayed run retries too
    wait_js(qtbot, window, runs_finished(3))
    assert [r["request"] for r in window.history.store.runs(conversation)] == [REQUEST] * 3
    assert len(window.history.conversations()) == 1


def test_edit_puts_the_request_back_in_the_input_and_resends_it_in_the_conversation(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(one_read(), one_read(), think_stage="never")
    window = make_window(factory)
    window.resize(1100, 760)
    submit(qtbot, window, REQUEST)
    wait_js(qtbot, window, runs_finished(1))
    conversation = window.history_view.current
    js(qtbot, window, "(() => { document.querySelector('.run-footer').scrollIntoView("
                      "{block: 'center'}); return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-retry-edit.png"))

    heard = heard_requests(window)
    click(qtbot, window, ".edit-btn")
    assert js(qtbot, window, INPUT) == REQUEST
    assert js(qtbot, window, "document.activeElement.id") == "input"
    assert heard == [] and len(factory.engines) == 1  # editing starts nothing
    js(qtbot, window, "(() => { const i = document.getElementById('input');"
                      " i.value += ' and the host'; document.getElementById('send').click();"
                      " return 1; })()")
    wait_js(qtbot, window, runs_finished(2))
    assert [r["request"] for r in window.history.store.runs(conversation)] == [
        REQUEST, REQUEST + " and the host"]
    assert js(qtbot, window, INPUT) == ""
