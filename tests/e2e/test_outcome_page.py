"""The outcome and the requirement checklist as a person sees them: page, footer, history list;
and the draft's round 1 (a request to change files starts with the one-shot draft's writes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from core.shapes.wording import outcome_text
from tests.e2e.pagetools import chip_of, count, js, settle, submit, texts, wait_js
from tests.e2e.scripted_runs import LEAP, LEAP_ASK, ScriptedFactory, leap_analysis
from tests.support.script import analysis, authored, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
HOSTILE = 'Port <img src=x onerror="document.title=\'owned\'"> 8080'


def _clean() -> list[dict]:
    """A grounded requirement whose text is hostile, an assumption, and a write the engine
    judges from the facts (no judge call); the model's own evidence is not shown. The write
    is the draft's: round 1 of a request to change files writes the file the one-shot draft
    gives (config.py, in the workspace), with no Plan call."""
    written = summary("## Port moved\n\nThe config now says 8080.")
    written["arguments"]["requirements"] = [
        {"requirement": HOSTILE, "status": "done", "evidence": "task 1 write_file <b>ok</b>"}]
    return [analysis("Move the port", requirements=[
                {"requirement": HOSTILE, "quote": "port to 8080"}, "Keep DEBUG as it is"]),
            authored("PORT = 8080\n", "config.py"),
            written]


def _failing() -> list[dict]:
    """The draft gives no file (there is no parser to fix), so round 1 is planned: a read of
    parser.py, which fails."""
    return [analysis("Fix the parser", requirements=["Fix parser.py"]),
            {"text": "There is no parser.py in the workspace to fix."},
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
    finished = factory.last.of("run_finished")[0]
    chip = chip_of(finished)
    header = texts(qtbot, window, ".summarizer-header > *")
    # one chip: the outcome with what checked it; "completed" adds nothing to it
    assert header == ["📝", "Summary", chip] and chip.endswith(" · not verified")
    assert texts(qtbot, window, ".summarizer-requirements .requirement-text") == [HOSTILE]
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.requirement'))"
                             ".map(r => r.dataset.status)") == ["done"]
    assert texts(qtbot, window, ".requirement-evidence .evidence-text") == [
        "config.py written by task 1 in round 1 (write_file config.py). Nothing checked the "
        "final files, so the change is not verified."]
    assert texts(qtbot, window, ".summarizer-checked .assumption") == ["Keep DEBUG as it is"]
    assert count(qtbot, window, ".message-summarizer img, .summarizer-requirements b") == 0
    assert js(qtbot, window, "document.title") != "owned"
    assert texts(qtbot, window, ".run-footer > *")[:2] == [chip, "LLM calls3"]
    assert window.sidebar.conversations.item(0).text().splitlines()[1].startswith(
        outcome_text(finished.outcome))
    assert [c.stage for c in factory.last.of("llm_call")] == [
        "request_analyser", "author", "summarizer"]  # the draft's write: no plan, no judge

    window.history_view.new()
    submit(qtbot, window, "Fix the parser")
    wait_js(qtbot, window, FINISHED)
    assert texts(qtbot, window, ".summarizer-header .outcome") == ["❌ Failed"]
    assert texts(qtbot, window, ".summarizer-header .badge") == ["❌ Failed"]
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.requirement'))"
                             ".map(r => r.dataset.status)") == ["failed"]
    assert js(qtbot, window, "document.querySelector('.run').dataset.outcome") == "failed"
    assert window.sidebar.conversations.item(0).text().splitlines()[1].startswith("✗ Failed")


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


def test_the_requests_own_examples_verify_the_run_on_the_page(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "leap.py").write_text("def is_leap(year):\n    raise NotImplementedError\n")
    window = make_window(ScriptedFactory([
        leap_analysis(),  # its examples, stated in words, quoted from the request
        authored(LEAP, "leap.py"),
        summary("## Done\n\nis_leap gives what the request's examples say.")],
        think_stage="never"))
    submit(qtbot, window, LEAP_ASK)
    wait_js(qtbot, window, FINISHED)
    assert (workspace / "leap.py").read_text() == LEAP
    assert texts(qtbot, window, ".summarizer-header .badge") == [
        "✅ Succeeded · 2 checks of the request's examples pass"]
    assert texts(qtbot, window, ".run-footer > *")[:1] == [
        "✅ Succeeded · 2 checks of the request's examples pass"]
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
        leap_analysis(phases=3),
        phases((1, "Prepare", []), (2, "Implement", [1]), (3, "Test", [2])),
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


def leap_run(qtbot: QtBot, make_window: WindowMaker, workspace: Path, *written: dict,
             candidates: int = 0) -> tuple[ScriptedFactory, Any]:
    """A finished run of ``LEAP_ASK`` on the stub leap.py: the analysis, the ``written``
    authoring replies (the draft, then ``candidates`` candidates), the summary."""
    (workspace / "leap.py").write_text("def is_leap(year):\n    raise NotImplementedError\n")
    factory = ScriptedFactory([leap_analysis(), *written,
                               summary("## Done\n\nis_leap is implemented.")],
                              think_stage="never", candidates=candidates)
    window = make_window(factory)
    submit(qtbot, window, LEAP_ASK)
    wait_js(qtbot, window, FINISHED)
    wait_js(qtbot, window, "document.body.dataset.state === 'idle'")
    return factory, window


def test_a_draft_that_passes_is_round_one_with_the_draft_badge(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    """A request to change a file it names: round 1 is the one-shot draft's write (no Plan
    call), its header carries the `draft` badge, the engine settles the round from the facts
    (its examples pass) and the summary follows."""
    factory, window = leap_run(qtbot, make_window, workspace, authored(LEAP, "leap.py"))
    assert (workspace / "leap.py").read_text() == LEAP
    assert [c.stage for c in factory.last.of("llm_call")] == [
        "request_analyser", "author", "summarizer"]  # no Plan call, no judge call
    assert [e.mode for e in factory.last.of("tasks_planned")] == ["draft"]
    assert count(qtbot, window, ".plan") == 1
    assert texts(qtbot, window, ".plan-head .badge-mode") == ["draft"]
    assert texts(qtbot, window, ".plan-head .plan-count") == ["1 task"]
    assert texts(qtbot, window, ".plan-reasoning") == [
        "💡 The draft first: the files the model writes for the request alone."]
    assert count(qtbot, window, ".task") == 1
    assert js(qtbot, window, "document.querySelector('.task').dataset.status") == "done"
    assert "write leap.py" in texts(qtbot, window, ".task")[0]
    assert count(qtbot, window, ".judge") == count(qtbot, window, ".judge.by-engine") == 1
    assert texts(qtbot, window, ".judge .judge-summary") == [
        "Decided from the facts: leap.py written; 2 checks of the request's examples pass."]
    assert count(qtbot, window, ".message-summarizer") == 1
    assert texts(qtbot, window, ".summarizer-header .badge") == [
        "✅ Succeeded · 2 checks of the request's examples pass"]
    assert texts(qtbot, window, ".run-footer > *")[:1] == [
        "✅ Succeeded · 2 checks of the request's examples pass"]
    window.resize(1200, 1100)
    js(qtbot, window, "document.querySelector('.phase').scrollIntoView(), true")
    settle(qtbot, window, top=None)  # the page's last frame reaches the widget
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-draft-round.png"))


WRONG_LEAP = "def is_leap(year):\n    return year % 4 == 0\n"
WRONG_CANDIDATE = "def is_leap(year):\n    return year % 4 == 0 or year % 400 == 0\n"


def test_a_draft_and_its_candidate_failing_the_examples_end_the_phase_on_the_facts(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    """The draft gets is_leap(1900) wrong and its one candidate does too: the engine decides
    the round (no judge call, no further round), its Judge card says why, and the run is
    partly done with the failing check on the summary and the footer."""
    factory, window = leap_run(qtbot, make_window, workspace, authored(WRONG_LEAP, "leap.py"),
                               authored(WRONG_CANDIDATE, "leap.py"), candidates=1)
    assert [c.stage for c in factory.last.of("llm_call")] == [
        "request_analyser", "author", "author", "summarizer"]  # draft, candidate: no judge
    assert texts(qtbot, window, ".task .candidates-line") == [
        "1 candidate tried: none passes more checks, draft 1 of 2 (kept)"]
    assert texts(qtbot, window, ".plan-head .badge-mode") == ["draft"]
    assert count(qtbot, window, ".plan") == count(qtbot, window, ".task") == 1
    assert count(qtbot, window, ".judge") == count(qtbot, window, ".judge.by-engine") == 1
    assert texts(qtbot, window, ".judge .judge-summary") == [
        "Decided from the facts: leap.py written; 1 of 2 checks of the request's examples "
        "fails. The draft fails it and no candidate did better; no further round is run on a "
        "guess."]
    assert [e.status for e in factory.last.of("phase_finished")] == ["incomplete"]
    failing = "◐ Partly done · 1 of 2 checks of the request's examples fails"
    assert texts(qtbot, window, ".summarizer-header .badge") == [failing]
    assert js(qtbot, window, "document.querySelector('.summarizer-header .outcome')"
                             ".dataset.verification") == "failing"
    assert texts(qtbot, window, ".run-footer > *")[:1] == [failing]
    assert js(qtbot, window, "document.querySelector('.run').dataset.outcome") == "partial"
    assert texts(qtbot, window, ".summarizer-checked .checked-text") == [
        "On the final files, 1 of 2 checks of the request's examples fails (run by the engine "
        "on leap.py)."]
