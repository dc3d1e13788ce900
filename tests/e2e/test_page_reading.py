"""What a newcomer reads on the page: priorities as priorities, approvals where they happened
(live and replayed), the judge's line once, one outcome chip that says what checked the run,
evidence under a label."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import (chip_of, click, count, js, run_dom, run_text, settle, submit,
                                  texts, wait_js)
from tests.e2e.scripted_runs import ANSWER_DRAFT, ScriptedFactory
from tests.e2e.windowtools import open_conversation
from tests.support.script import analysis, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
FINISHED = "document.querySelector('.run-footer') !== null"
JUDGE_LINE = "Read config.py and listed the folder; PORT is 8000."


def _prioritised() -> list[dict]:
    return [analysis("Look at the config", complexity="complex"),
            phases((1, "Look around", [])), ANSWER_DRAFT,
            plan(task(1, "read_file", priority=10, path="config.py"),
                 task(2, "list_files", priority=7),
                 task(3, "search_code", priority=5, pattern="PORT"),
                 task(4, "search_code", priority=2, pattern="HOST"),
                 reasoning="Read first, then look around."),
            judge([1, 2, 3, 4], summary=JUDGE_LINE),
            summary("## Looked\n\nPORT is 8000.")]


def test_task_priority_reads_as_a_priority_and_the_judge_line_shows_once(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(_prioritised(), think_stage="never")
    window = make_window(factory)
    window.resize(1100, 900)
    submit(qtbot, window, "Look at the config")
    wait_js(qtbot, window, FINISHED)

    assert count(qtbot, window, ".notice-warning") == 0
    assert texts(qtbot, window, ".task .meta.priority") == [
        "P1 · highest", "P2 · high", "P3 · normal", "P4 · low"]
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.meta.priority'))"
                             ".map(m => m.dataset.priority)") == ["10", "7", "5", "2"]
    assert js(qtbot, window, "document.querySelector('.meta.priority').title").startswith(
        "Priority 10 of 10 in the plan (10 is the most important)")
    cards = " ".join(texts(qtbot, window, ".task"))
    assert "⭐" not in cards and "/10" not in cards
    text = run_text(qtbot, window)
    assert factory.last.of("phase_finished")[0].summary == JUDGE_LINE  # the engine repeats it
    assert text.count(JUDGE_LINE) == 1
    assert count(qtbot, window, ".judge .judge-summary") == 1
    assert count(qtbot, window, ".phase-summary") == 0

    # One outcome chip that says what checked it, no "completed" beside it.
    chip = chip_of(factory.last.of("run_finished")[0])
    assert texts(qtbot, window, ".summarizer-header .badge") == [chip]
    assert texts(qtbot, window, ".summarizer-header .outcome") == [chip]
    assert count(qtbot, window, ".run-ending") == 0
    js(qtbot, window, "(() => { document.querySelector('.plan').scrollIntoView({block: 'start'});"
                      " document.getElementById('timeline').scrollTop -= 150; return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-task-cards.png"))


def test_a_run_that_ran_out_of_budget_says_so_beside_its_outcome(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    replies = [analysis("Look at the config", complexity="complex"), phases((1, "Look", [])),
               ANSWER_DRAFT, plan(task(1, "read_file", path="config.py")),
               summary("## Out of budget")]  # phase plan, draft, plan: the budget of 3 spent
    factory = ScriptedFactory(replies, think_stage="never", max_iterations=3)
    window = make_window(factory)
    submit(qtbot, window, "Look at the config")
    wait_js(qtbot, window, FINISHED)
    assert factory.last.of("run_finished")[0].status == "budget_exhausted"
    chip = chip_of(factory.last.of("run_finished")[0])
    assert texts(qtbot, window, ".summarizer-header .badge") == [chip]
    assert texts(qtbot, window, ".summarizer-header .run-ending") == ["budget spent"]
    assert texts(qtbot, window, ".run-footer .run-ending") == ["budget spent"]


def _approved_command() -> list[dict]:
    return [analysis("Run the tests", complexity="complex"), phases((1, "Check", [])),
            {"text": "Run the tests to see whether they pass."},
            plan(task(1, "read_file", path="config.py"),
                 task(2, "run_command", [1], command="echo hello")),
            judge([1, 2]), summary("## Ran\n\nThe command said hello.")]


ORDER = ("(() => { const card = document.querySelector('.task[data-task-id=\"2\"]');"
         " const approval = document.querySelector('.approval');"
         " const result = card.querySelector('.detail.outcome');"
         " return { inCard: card.contains(approval),"
         " beforeResult: Boolean(result && (approval.compareDocumentPosition(result)"
         " & Node.DOCUMENT_POSITION_FOLLOWING)),"
         " approvals: document.querySelectorAll('.approval').length,"
         " after: Array.from(card.children).map(c => c.className) }; })()")


def test_the_approval_card_precedes_its_commands_result_live_and_replayed(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(_approved_command(), think_stage="never", command_approval="ask")
    window = make_window(factory)
    submit(qtbot, window, "Run the tests")
    wait_js(qtbot, window, "document.querySelector('.approval button') !== null")
    live_waiting = js(qtbot, window, "(() => { const a = document.querySelector('.approval');"
                                     " return a.closest('.task').dataset.taskId; })()")
    assert live_waiting == "2"
    js(qtbot, window, "(() => { document.querySelector('.approval [data-decision=\"once\"]')"
                      ".click(); return 1; })()")
    wait_js(qtbot, window, FINISHED)
    kinds = [e.kind for e in factory.last.events]
    assert kinds.index("approval_requested") < kinds.index("approval_resolved") < max(
        i for i, k in enumerate(kinds) if k == "task_finished")
    live = js(qtbot, window, ORDER)
    assert live["inCard"] and live["beforeResult"] and live["approvals"] == 1
    assert live["after"][-2:] == ["approval resolved", "task-details"]
    live_dom = run_dom(qtbot, window)

    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, FINISHED)
    assert js(qtbot, window, ORDER) == live
    assert run_dom(qtbot, window) == live_dom
    click(qtbot, window, ".task[data-task-id=\"2\"] .task-head")
    js(qtbot, window, "(() => { document.querySelector('.task[data-task-id=\"2\"]')"
                      ".scrollIntoView({block: 'center'}); return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-approval-replayed.png"))
