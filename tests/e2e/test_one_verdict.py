"""One verdict per run on the real page: a succeeded, a partial, a cancelled and a budget-spent
run each show one outcome chip (with what checked it) on the summary and the footer, say how
the run ended only when that adds to it, and leave every phase header and task card in a
final state. A failed task is never ✅ on the Judge card, a goal is shown without the
engine's stage names, task titles read as words, and Send waits while a run works."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from core import events as ev
from core.store.history import Store
from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import chip_of, click, count, js, submit, texts, wait_js
from tests.e2e.windowtools import open_conversation
from tests.e2e.scripted_runs import ANSWER_DRAFT, LEAP, LEAP_ASK, LEAP_STUB, LEAP_WRONG, \
    NO_DRAFT, ScriptedFactory, leap_analysis, port_move_replies
from tests.support.script import analysis, authored, phases, plan, reading, summary, task

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
IDLE = "document.body.dataset.state === 'idle'"
STUB, WRONG, ASK = LEAP_STUB, LEAP_WRONG, LEAP_ASK
PHASE_STATE = ("Array.from(document.querySelectorAll('.phase')).map(p => ["
               "p.querySelector('.phase-title .badge').textContent,"
               " p.querySelector('.phase-round').textContent])")
OPEN_CARDS = ("document.querySelectorAll('.task[data-status=\"pending\"],"
              " .task[data-status=\"running\"]').length")


def finish(qtbot: QtBot, make_window: WindowMaker, factory: ScriptedFactory,
           request: str = ASK) -> Any:
    window = make_window(factory)
    submit(qtbot, window, request)
    wait_js(qtbot, window, FINISHED, timeout=30000)
    wait_js(qtbot, window, IDLE)
    return window


def assert_one_verdict(qtbot: QtBot, window: Any, chip: str, ending: str = "") -> None:
    """The summary header and the footer each hold the one chip, and ``ending`` (or nothing)
    beside it; no second colour-coded status anywhere."""
    assert texts(qtbot, window, ".summarizer-header .badge, .summarizer-header .run-ending") == [
        chip, *([ending] if ending else [])]
    assert texts(qtbot, window, ".summarizer-header .badge") == [chip]
    assert texts(qtbot, window, ".run-footer .badge") == [chip]
    assert texts(qtbot, window, ".run-footer .run-ending") == ([ending] if ending else [])
    assert count(qtbot, window, ".run-status, .run-footer [class*='status-']") == 0


def assert_settled(qtbot: QtBot, window: Any) -> list[list[str]]:
    """No phase header still running or planning, no card still pending or running, and
    round counters that read as a cap; returns each phase's [badge, round line]."""
    state = js(qtbot, window, PHASE_STATE)
    assert state and all(badge != "running" and line != "Planning…" and " of " not in line
                         for badge, line in state), state
    assert js(qtbot, window, OPEN_CARDS) == 0
    return state


def test_a_succeeded_run_has_one_chip_and_a_settled_header(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "leap.py").write_text(STUB)
    factory = ScriptedFactory([leap_analysis(), authored(LEAP, "leap.py"),
                               summary("## Done\n\nis_leap follows the request's examples.")],
                              think_stage="never")
    window = finish(qtbot, make_window, factory)
    assert (workspace / "leap.py").read_text() == LEAP
    chip = "✅ Succeeded · 2 checks of the request's examples pass"
    assert chip_of(factory.last.of("run_finished")[0]) == chip
    assert_one_verdict(qtbot, window, chip)
    assert js(qtbot, window, "document.querySelector('.run').dataset.outcome") == "succeeded"
    assert [badge for badge, _ in assert_settled(qtbot, window)] == ["completed"]
    assert texts(qtbot, window, ".plan-title")[0].startswith("📋 Round 1 (at most ")
    assert window.sidebar.conversations.item(0).text().splitlines()[1].startswith("✓ Succeeded")
    assert js(qtbot, window, "document.getElementById('send').disabled") is False


def test_a_partial_run_has_one_chip_with_what_fails(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "leap.py").write_text(STUB)
    factory = ScriptedFactory([leap_analysis(), authored(WRONG, "leap.py"),
                               authored(WRONG, "leap.py"),  # the one candidate fails too
                               summary("## Partly\n\nis_leap misses the century rule.")],
                              think_stage="never", candidates=1)
    window = finish(qtbot, make_window, factory)
    chip = "◐ Partly done · 1 of 2 checks of the request's examples fails"
    assert chip_of(factory.last.of("run_finished")[0]) == chip
    assert_one_verdict(qtbot, window, chip)
    # the engine's verdict first, then the model's prose, marked as its own
    order = js(qtbot, window, "Array.from(document.querySelector('.message-summarizer')"
                              ".children).map(c => c.className)")
    assert order.index("summarizer-header") < order.index("summarizer-said") \
        == order.index("summarizer-content") - 1
    assert texts(qtbot, window, ".summarizer-said") == ["In the model's words"]
    assert [badge for badge, _ in assert_settled(qtbot, window)] == ["incomplete"]
    assert window.sidebar.conversations.item(0).text().splitlines()[1].startswith("◐ Partly done")


def test_a_stopped_run_says_so_beside_its_chip_and_settles_its_cards(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(port_move_replies(delay_judge_s=30))
    window = make_window(factory)
    submit(qtbot, window, "Move the server to port 8080")
    wait_js(qtbot, window, "document.querySelectorAll('.task[data-status=\"done\"]').length >= 2")
    wait_js(qtbot, window, "document.querySelector('.stage-live') !== null")
    assert js(qtbot, window, "document.getElementById('send').disabled") is True
    assert js(qtbot, window, "document.getElementById('send').title").startswith(
        "A run is working")
    click(qtbot, window, "#stop")
    wait_js(qtbot, window, FINISHED, timeout=15000)
    wait_js(qtbot, window, IDLE)
    finished = factory.last.of("run_finished")[0]
    assert finished.status == "cancelled"
    assert_one_verdict(qtbot, window, chip_of(finished), "stopped by you")
    state = assert_settled(qtbot, window)
    assert state[0][0] in ("stopped", "incomplete"), state
    assert js(qtbot, window, "document.getElementById('send').disabled") is False


def test_a_run_out_of_budget_says_so_beside_its_chip(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    replies = [analysis("Look at the config", complexity="complex"), phases((1, "Look", [])),
               ANSWER_DRAFT, plan(task(1, "read_file", path="config.py")),
               summary("## Out of budget")]  # phase plan, draft, plan: the budget of 3 spent
    factory = ScriptedFactory(replies, think_stage="never", max_iterations=3)
    window = finish(qtbot, make_window, factory, "Look at the config")
    finished = factory.last.of("run_finished")[0]
    assert finished.status == "budget_exhausted"
    assert_one_verdict(qtbot, window, chip_of(finished), "budget spent")
    assert_settled(qtbot, window)


MULTIPLY = r"def multiply\(a, b\):"


def test_a_failed_task_is_never_done_on_the_judge_card_and_titles_read_as_words(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    lenient = {"tool": "judge_tasks", "arguments": {
        "user_summary": "Both reads and the search went fine.", "phase_completed": True,
        "next_action": "end_phase", "quality_score": 9,
        "task_evaluation": [{"task_id": 2, "status": "done", "quality_score": 9,
                             "comment": "fine"}]}}
    searched = {**task(3, "search_code", pattern=MULTIPLY), "title": f"search_code {MULTIPLY}"}
    replies = [analysis("Look at the code", complexity="complex",
                        **reading("question", read=("config.py",))), phases((1, "Look", [])),
               NO_DRAFT, plan(task(1, "read_file", path="config.py"),
                              task(2, "read_file", path="missing.py"), searched),
               lenient, summary("## Looked\n\nconfig.py holds the port; missing.py is absent.")]
    factory = ScriptedFactory(replies, think_stage="never")
    window = finish(qtbot, make_window, factory, "Where does config.py set the port?")
    [verdict] = [v for v in factory.last.of("judged")[0].verdicts if v["task_id"] == 2]
    assert (verdict["status"], verdict["judge_said"]) == ("failed", "done")
    assert js(qtbot, window, "document.querySelector('.task[data-task-id=\"2\"]').dataset.status") \
        == "failed"
    item = ".judge .verdict:nth-child(2)"
    assert texts(qtbot, window, f"{item} .verdict-icon") == ["❌"]
    assert texts(qtbot, window, f"{item} .verdict-overruled") == [
        "The task failed; the judge called it done, which does not count."]
    assert "✅" not in texts(qtbot, window, ".judge .verdict-icon")[1:2]
    assert texts(qtbot, window, ".task[data-task-id='3'] .task-title") == [
        "Search the code for def multiply(a, b):"]
    assert texts(qtbot, window, ".task[data-task-id='3'] .task-title code") == [
        "def multiply(a, b):"]
    assert texts(qtbot, window, ".task[data-task-id='1'] .task-title") == ["Read config.py"]


STAGE_GOAL = ("Implement the is_leap function in leap.py and call request_analyser to analyse "
              "the person's request.")


def test_the_goal_line_shows_no_stage_names(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "leap.py").write_text(STUB)
    factory = ScriptedFactory([leap_analysis(STAGE_GOAL, requirements=[
                                   "Call request_analyser to analyse the person's request",
                                   {"requirement": "is_leap(2000) is True",
                                    "quote": "is_leap(2000) is True"}]),
                               authored(LEAP, "leap.py"),
                               summary("## Done\n\nis_leap follows the request's examples.")],
                              think_stage="never")
    window = finish(qtbot, make_window, factory)
    analysed = factory.last.of("request_analysed")[0]
    assert "request_analyser" in analysed.core_goal  # the engine kept the model's words
    shown = " ".join(texts(qtbot, window, ".analysis, .summarizer-checked"))
    assert "request_analyser" not in shown
    assert texts(qtbot, window, ".analysis-goal") == [ASK]  # the person's own words instead


def test_a_finished_but_unchecked_run_reads_done_not_verified_everywhere(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    with Store() as store:
        conversation = store.create_conversation("Add a docstring")
        run_id = store.start_run(conversation, "Add a docstring", "phase", "openai", "m", {})
        for event in (
            ev.RunStarted(run_id=run_id, engine="phase", request="Add a docstring",
                          provider="openai", model="m", workspace="/w", budget=30),
            ev.Summary(final_summary="calc.py now has a docstring.", phases_completed=1,
                       total_tasks_executed=1, total_rounds=1, highlights=[],
                       quality_assessment="", generated_by="model", outcome="unverified",
                       verification="unverified", verification_line="not verified"),
            ev.RunFinished(status="completed", llm_calls=4, prompt_tokens=100,
                           completion_tokens=20, elapsed_s=2.0, outcome="unverified",
                           verification="unverified", verification_line="not verified")):
            store.append_event(run_id, event)
    window = make_window(ScriptedFactory())
    assert window.sidebar.conversations.item(0).text().splitlines()[1].startswith(
        "○ Done · not verified · 1 run")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, FINISHED)
    assert_one_verdict(qtbot, window, "⚪ Done · not verified")
    assert js(qtbot, window, "document.querySelector('.summarizer-header .outcome')"
                             ".className") == "badge outcome badge-info"
