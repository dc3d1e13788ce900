"""Whole runs of the real engine (scripted model) through the real window and page."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core import config
from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import chip_of, count, js, settle, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory, port_move_replies, two_phase_replies
from tests.support.script import analysis, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
FINISHED = "document.querySelector('.run-footer') !== null"
def test_two_phase_run_renders_cards_judges_and_one_summary(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    config.save(config.from_mapping({"provider": "openai", "model": "qwen2.5-coder-32b",
                                     "base_url": "http://127.0.0.1:8000/v1"}))
    factory = ScriptedFactory(port_move_replies())
    window = make_window(factory)
    submit(qtbot, window, "Move the server to port 8080")
    wait_js(qtbot, window, FINISHED)
    engine = factory.last

    assert (workspace / "config.py").read_text() == "PORT = 8080\n"
    assert texts(qtbot, window, ".bubble") == ["Move the server to port 8080"]
    assert texts(qtbot, window, ".analysis-goal") == ["Move the server to port 8080"]
    cards = js(qtbot, window, "Array.from(document.querySelectorAll('.task')).map(t => ["
                              "t.closest('.phase').dataset.phaseId, t.closest('.plan').dataset.round,"
                              " t.dataset.taskId, t.dataset.status].join(':'))")
    assert sorted(cards) == sorted(f"{e.phase_id}:{e.round}:{e.task_id}:{e.status}"
                                   for e in engine.of("task_finished"))
    assert [c.rsplit(":", 1)[1] for c in cards] == ["done", "failed", "done", "done", "done", "done"]
    assert count(qtbot, window, ".phase") == 2
    rounds = len(engine.of("judged"))
    assert rounds == 3 and count(qtbot, window, ".judge") == rounds
    assert js(qtbot, window, "getComputedStyle(document.querySelector('.judge'))"
                             ".borderLeftColor") == "rgb(240, 140, 0)"
    first = engine.of("judged")[0]
    assert texts(qtbot, window, ".judge .metric-value")[:3] == [
        f"{round(first.completion_rate * 100)}%", f"{round(first.success_rate * 100)}%",
        f"{first.quality_average:.1f}"]
    assert count(qtbot, window, ".think") == len(engine.of("thought")) == 1
    assert texts(qtbot, window, ".phase-count") == [
        f"{p.tasks_done}/{p.tasks_total} tasks done" for p in engine.of("phase_finished")]

    assert count(qtbot, window, ".message-summarizer") == 1
    panel = ".message-summarizer .summarizer-content"
    assert texts(qtbot, window, f"{panel} h1") == ["Port moved to 8080"]
    assert count(qtbot, window, f"{panel} ul li") == 2
    assert count(qtbot, window, f"{panel} .codehilite pre span.k") >= 1
    assert js(qtbot, window, f"getComputedStyle(document.querySelector('{panel} p')).marginTop") \
        == "6px"
    style = js(qtbot, window, "(() => { const s = getComputedStyle(document.querySelector("
                              "'.message-summarizer')); return [s.borderLeftColor, "
                              "s.borderLeftWidth, s.borderTopLeftRadius, s.lineHeight]; })()")
    assert style[:3] == ["rgb(102, 126, 234)", "4px", "8px"]
    final = engine.of("summary")[0]
    assert (final.quality_average, final.tasks_scored) == (2.0, 1)  # the failed read only
    assert texts(qtbot, window, ".summarizer-stats .stat-value") == [
        str(final.phases_completed), str(final.total_tasks_executed), str(final.total_rounds),
        "2.0 (1 task scored)", final.quality_assessment]
    assert texts(qtbot, window, ".summarizer-highlights li") == final.highlights
    done = engine.of("run_finished")[0]
    footer = texts(qtbot, window, ".run-footer .chip-value")
    assert footer[:3] == [f"{done.llm_calls:,}", f"{done.prompt_tokens:,}",
                          f"{done.completion_tokens:,}"]
    assert texts(qtbot, window, ".run-footer .outcome") == [chip_of(done)]  # one verdict
    assert count(qtbot, window, ".run-footer .run-ending") == 0  # "completed" adds nothing
    assert js(qtbot, window, "document.getElementById('stop').hidden") is True
    assert window.sidebar.conversations.count() == 1

    ARTIFACTS.mkdir(exist_ok=True)
    settle(qtbot, window)
    assert window.grab().save(str(ARTIFACTS / "window-after-run.png"))
    window.resize(1280, 2600)
    settle(qtbot, window, top=True)
    assert window.grab().save(str(ARTIFACTS / "window-run-overview.png"))


def test_task_card_expands_to_show_arguments_and_result(qtbot: QtBot,
                                                        make_window: WindowMaker) -> None:
    window = make_window(ScriptedFactory(two_phase_replies()))
    submit(qtbot, window, "go")
    wait_js(qtbot, window, FINISHED)
    js(qtbot, window, "(() => { document.querySelector('.task .task-head').click(); return 1; })()")
    assert js(qtbot, window, "document.querySelector('.task').classList.contains('open')") is True
    details = js(qtbot, window, "document.querySelector('.task .task-details').innerText")
    assert "config.py" in details and "PORT = 8000" in details
    failed = js(qtbot, window, "document.querySelector('.task.status-failed .task-details')"
                               ".textContent")
    assert "missing.py" in failed


def test_stop_during_a_round_shows_stopping_then_the_summary(qtbot: QtBot,
                                                            make_window: WindowMaker) -> None:
    factory = ScriptedFactory(port_move_replies(delay_judge_s=30))
    window = make_window(factory)
    submit(qtbot, window, "Move the server to port 8080")
    wait_js(qtbot, window, "document.querySelectorAll('.task.status-done').length >= 2")
    assert js(qtbot, window, "document.getElementById('stop').hidden") is False
    js(qtbot, window, "(() => { document.getElementById('stop').click(); return 1; })()")
    wait_js(qtbot, window, "document.querySelector('.stopping-note') !== null")
    wait_js(qtbot, window, FINISHED, timeout=15000)
    assert count(qtbot, window, ".message-summarizer") == 1
    assert js(qtbot, window, "document.querySelector('.message-summarizer').dataset.status") \
        == "cancelled"
    assert factory.last.of("run_finished")[0].status == "cancelled"
    assert js(qtbot, window, "document.getElementById('stop').hidden") is True


def test_second_submit_while_running_is_refused_visibly(qtbot: QtBot,
                                                       make_window: WindowMaker) -> None:
    factory = ScriptedFactory(port_move_replies(delay_judge_s=30))
    window = make_window(factory)
    submit(qtbot, window, "first")
    wait_js(qtbot, window, "document.querySelectorAll('.task').length >= 3")
    assert js(qtbot, window, "document.getElementById('send').disabled") is True
    submit(qtbot, window, "second")  # the disabled button does nothing
    window.send_input()  # Run → Send (Ctrl+Enter): the page says why it waits
    note = wait_js(qtbot, window, "document.getElementById('input-note').textContent")
    assert note.startswith("A run is working: send your next request when its summary")
    assert js(qtbot, window, "document.getElementById('input').value") == "second"
    assert window.submit("second") is False  # the window refuses too, visibly
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert "already going" in message
    assert len(factory.engines) == 1 and texts(qtbot, window, ".bubble") == ["first"]
    window.controller.cancel(force=False)
    wait_js(qtbot, window, FINISHED, timeout=15000)


def test_offline_demo_model_shows_the_banner(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedFactory(two_phase_replies(), provider="embedded"))
    submit(qtbot, window, "go")
    wait_js(qtbot, window, FINISHED)
    assert js(qtbot, window, "document.getElementById('banner').hidden") is False
    assert "connect a real model in Settings" in js(
        qtbot, window, "document.getElementById('banner').textContent")


def test_approval_prompt_answered_in_the_page(qtbot: QtBot, make_window: WindowMaker) -> None:
    replies = [analysis("Run the tests", complexity="complex"), phases((1, "Check", [])),
               {"text": "Run the tests to see whether they pass."},  # the draft: no file
               plan(task(1, "run_command", command="echo hello")), judge([1]), summary()]
    factory = ScriptedFactory(replies, command_approval="ask")
    window = make_window(factory)
    submit(qtbot, window, "run the tests")
    wait_js(qtbot, window, "document.querySelector('.approval button') !== null")
    assert "echo hello" in js(qtbot, window, "document.querySelector('.approval-detail').textContent")
    js(qtbot, window, "(() => { document.querySelector('.approval [data-decision=\"run\"]').click();"
                      " return 1; })()")
    wait_js(qtbot, window, FINISHED)
    assert texts(qtbot, window, ".approval-answer") == ["Approved for this run"]
    assert [e.decision for e in factory.last.of("approval_resolved")] == ["run"]
    assert js(qtbot, window, "document.querySelector('.task').dataset.status") == "done"


def test_clarification_answer_starts_the_next_run_with_the_analysis(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    first = [analysis("Improve it", questions=["Which file?", "Which port?"])]
    second = [analysis("Set the port in config.py", complexity="complex"), phases((1, "Change", [])),
              plan(task(1, "read_file", path="config.py")), judge([1]), summary()]
    factory = ScriptedFactory(first, second)
    window = make_window(factory)
    submit(qtbot, window, "improve it")
    wait_js(qtbot, window, "document.querySelector('.clarify textarea') !== null")
    assert texts(qtbot, window, ".clarify-questions li") == ["Which file?", "Which port?"]
    wait_js(qtbot, window, FINISHED)
    js(qtbot, window, "(() => { const c = document.querySelector('.clarify');"
                      " c.querySelector('textarea').value = 'config.py, port 8080';"
                      " c.querySelector('button').click(); return 1; })()")
    wait_js(qtbot, window, "document.querySelectorAll('.run-footer').length === 2")
    assert len(factory.engines) == 2
    assert factory.engines[1].previous_analysis is not None
    assert texts(qtbot, window, ".bubble") == ["improve it", "config.py, port 8080"]


def test_new_conversation_clears_the_page(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedFactory(two_phase_replies()))
    submit(qtbot, window, "go")
    wait_js(qtbot, window, FINISHED)
    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    assert js(qtbot, window, "document.getElementById('empty').hidden") is False


def test_a_blocked_phase_is_shown_greyed_and_not_run(qtbot: QtBot, make_window: WindowMaker,
                                                     workspace: Path) -> None:
    unknown = plan(task(1, "no_such_tool"))
    factory = ScriptedFactory([
        analysis("Ship the parser", phases=2, complexity="complex"),
        phases((1, "Build parser", []), (2, "Document parser", [1])),
        unknown, unknown, unknown, unknown, summary("## Parser\n\n- phase 1 failed")])
    window = make_window(factory)
    submit(qtbot, window, "Ship the parser")
    wait_js(qtbot, window, FINISHED)
    assert [(e.phase_id, e.status) for e in factory.last.of("phase_finished")] == [
        (1, "failed"), (2, "blocked")]
    phase = ".phase[data-phase-id='2']"
    assert texts(qtbot, window, f"{phase} .phase-index") == ["Phase 2/2"]
    assert texts(qtbot, window, f"{phase} .phase-name") == ["Document parser"]
    assert texts(qtbot, window, f"{phase} .badge") == ["blocked"]
    assert texts(qtbot, window, f"{phase} .phase-round") == ["Not run"]
    assert texts(qtbot, window, f"{phase} .phase-summary") == [
        "Not run: it depends on phase 1 (Build parser), which failed (no valid plan could be "
        "made)."]
    assert count(qtbot, window, f"{phase} .task") == 0
    assert js(qtbot, window, f"getComputedStyle(document.querySelector(\"{phase}\")).filter") \
        == "grayscale(1)"
    assert js(qtbot, window, "getComputedStyle(document.querySelector(\".phase[data-phase-id='1']"
                             "\")).filter") == "none"
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.phases-list li'))"
                             ".map(li => li.classList.contains('blocked'))") == [False, True]
    assert any("Phase 2 (Document parser) is blocked" in t
               for t in texts(qtbot, window, ".notice"))
    ARTIFACTS.mkdir(exist_ok=True)
    window.resize(1200, 1100)
    js(qtbot, window, "(() => { document.querySelector('.phases-plan').scrollIntoView("
                      "{block: 'start'}); return 1; })()")
    settle(qtbot, window, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-blocked-phase.png"))
