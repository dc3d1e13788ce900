"""The outcome and the requirement checklist as a person sees them: page, footer, history list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import count, js, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.support.script import analysis, authored, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
HOSTILE = 'Port <img src=x onerror="document.title=\'owned\'"> 8080'


def _clean() -> list[dict]:
    """A grounded requirement whose text is hostile, an assumption, and a write the engine
    judges from the facts (no judge call); the model's own evidence is not shown."""
    written = summary("## Port moved\n\nThe config now says 8080.")
    written["arguments"]["requirements"] = [
        {"requirement": HOSTILE, "status": "done", "evidence": "task 1 edit_file <b>ok</b>"}]
    return [analysis("Move the port", requirements=[
                {"requirement": HOSTILE, "quote": "port to 8080"}, "Keep DEBUG as it is"]),
            plan(task(1, "edit_file", path="config.py", old_text="PORT = 8000",
                      new_text="PORT = 8080")),
            written]


def _failing() -> list[dict]:
    return [analysis("Fix the parser", requirements=["Fix parser.py"]),
            plan(task(1, "read_file", path="parser.py")),
            judge([], [1], completed=False, action="end_phase", reason="no parser.py"),
            summary("## Nothing fixed\n\nparser.py does not exist.")]


def test_the_outcome_leads_the_summary_footer_and_history_list(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    factory = ScriptedFactory(_clean(), _failing(), think_stage="never")
    window = make_window(factory)
    submit(qtbot, window, "Move the port to 8080")
    wait_js(qtbot, window, FINISHED)

    assert (workspace / "config.py").read_text() == "PORT = 8080\n"
    header = texts(qtbot, window, ".summarizer-header > *")
    # "completed" adds nothing to the outcome; the verification chip says nothing checked it
    assert header == ["📝", "Summary", "✅ Succeeded", "🧪 not verified"]
    assert texts(qtbot, window, ".summarizer-requirements .requirement-text") == [HOSTILE]
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.requirement'))"
                             ".map(r => r.dataset.status)") == ["done"]
    assert texts(qtbot, window, ".requirement-evidence .evidence-text") == [
        "config.py written by task 1 in round 1 (edit_file config.py). Nothing checked the "
        "final files, so the change is not verified."]
    assert texts(qtbot, window, ".summarizer-checked .assumption") == ["Keep DEBUG as it is"]
    assert count(qtbot, window, ".message-summarizer img, .summarizer-requirements b") == 0
    assert js(qtbot, window, "document.title") != "owned"
    assert texts(qtbot, window, ".run-footer > *")[:2] == ["✅ Succeeded", "🧪 not verified"]
    assert window.sidebar.conversations.item(0).text().splitlines()[1].startswith("✓ succeeded")
    assert [c.stage for c in factory.last.of("llm_call")] == [
        "request_analyser", "plan", "summarizer"]  # the write settled the round: no judge

    window.history_view.new()
    submit(qtbot, window, "Fix the parser")
    wait_js(qtbot, window, FINISHED)
    assert texts(qtbot, window, ".summarizer-header .outcome") == ["❌ Failed"]
    assert texts(qtbot, window, ".summarizer-header .badge") == ["❌ Failed", "🧪 not verified"]
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


LEAP = "def is_leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"
LEAP_ASK = "Implement is_leap(year) in leap.py. is_leap(2000) is True, is_leap(1900) is False."


def test_the_requests_own_examples_verify_the_run_on_the_page(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "leap.py").write_text("def is_leap(year):\n    raise NotImplementedError\n")
    window = make_window(ScriptedFactory([
        analysis("Implement is_leap"),
        plan(task(1, "write_file", path="leap.py", instruction="implement is_leap")),
        authored(LEAP, "leap.py"),
        summary("## Done\n\nis_leap gives what the request's examples say.")],
        think_stage="never"))
    submit(qtbot, window, LEAP_ASK)
    wait_js(qtbot, window, FINISHED)
    assert (workspace / "leap.py").read_text() == LEAP
    assert texts(qtbot, window, ".summarizer-header .badge") == [
        "✅ Succeeded", "🧪 2 checks of the request's examples pass"]
    assert texts(qtbot, window, ".run-footer > *")[:2] == [
        "✅ Succeeded", "🧪 2 checks of the request's examples pass"]
    wait_js(qtbot, window, "document.body.dataset.state === 'idle'")  # Stop hidden again
    qtbot.wait(800)  # the page's last frame reaches the widget
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-examples-verified.png"))
    assert texts(qtbot, window, ".summarizer-checked .checked-text") == [
        "On the final files, 2 checks of the request's examples pass (run by the engine on "
        "leap.py)."]


def test_phases_the_draft_settled_show_as_not_run(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "leap.py").write_text("def is_leap(year):\n    raise NotImplementedError\n")
    window = make_window(ScriptedFactory([
        analysis("Implement is_leap", phases=3),
        phases((1, "Prepare", []), (2, "Implement", [1]), (3, "Test", [2])),
        plan(task(1, "write_file", path="leap.py", instruction="imports")),
        authored(LEAP, "leap.py"),
        summary("## Done\n\nis_leap is implemented.")], think_stage="never"))
    submit(qtbot, window, LEAP_ASK)
    wait_js(qtbot, window, FINISHED)
    wait_js(qtbot, window, "document.body.dataset.state === 'idle'")
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.phase.blocked'))"
                             ".map(p => p.querySelector('.badge').textContent)") == [
        "superseded", "superseded"]
    assert "Not run: the draft wrote leap.py" in " ".join(
        texts(qtbot, window, ".phase.blocked .phase-summary"))
    # the engine's verdict knows what the authoring stage's run of the examples found
    assert texts(qtbot, window, ".judge .judge-summary") == [
        "Decided from the facts: leap.py written; 2 checks of the request's examples pass."]
    js(qtbot, window, "document.querySelector('.phase').scrollIntoView(), true")
    qtbot.wait(800)  # the page's last frame reaches the widget
    assert window.grab().save(str(ARTIFACTS / "window-phases-not-run.png"))
