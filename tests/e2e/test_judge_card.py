"""The Judge card's numbers as the judge gave them, and model Markdown with its line breaks,
in the real page after a real engine run on a scripted model."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import count, js, settle, submit, texts, wait_js
from tests.e2e.scripted_runs import ANSWER_DRAFT, Reply, ScriptedFactory
from tests.support.script import analysis, phases, plan, summary, task, think

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
FINISHED = "document.querySelector('.run-footer') !== null"
SUMMARY = ("Phase 1 read the config\nPhase 2 listed the files\n\n```python\nPORT = 8000\n"
           "DEBUG = False\n```\n\nChecked:\n- config.py\n- the folder")


def two_of_three_scored() -> list[Reply]:
    """One round of three tasks; the judge scores tasks 1 and 2 and says nothing of 3."""
    verdict = {"tool": "judge_tasks", "arguments": {
        "next_action": "continue_phase", "phase_completed": False,
        "user_summary": "Read the config\nListed the files",
        "task_evaluation": [
            {"task_id": 1, "status": "done", "quality_score": 8, "comment": "read **all** of it"},
            {"task_id": 2, "status": "done", "quality_score": 7, "comment": "fine"}]}}
    return [analysis("Look at the config", complexity="complex"), phases((1, "Look", [])),
            ANSWER_DRAFT, plan(task(1, "read_file", path="config.py"), task(2, "list_files"),
                 task(3, "search_code", pattern="PORT")),
            verdict, think(True, False, "Nothing more:\n- config read\n- port found"),
            summary(SUMMARY)]


def test_a_task_the_judge_did_not_score_shows_not_scored_and_the_average_is_of_two(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(two_of_three_scored(), think_stage="always")
    window = make_window(factory)
    window.resize(1100, 1400)
    submit(qtbot, window, "look at the config")
    wait_js(qtbot, window, FINISHED)
    judged = factory.last.of("judged")[0]
    assert (judged.quality_average, judged.tasks_scored, judged.tasks_total) == (7.5, 2, 3)

    assert texts(qtbot, window, ".judge .verdict-quality") == [
        "quality 8.0/10", "quality 7.0/10", "not scored"]
    assert count(qtbot, window, ".judge .verdict:nth-child(3) .verdict-quality.unscored") == 1
    assert texts(qtbot, window, ".judge .metric-value") == ["100%", "100%", "7.5"]
    assert texts(qtbot, window, ".judge .metric-label")[2] == "Avg quality · 2 of 3 scored"
    stats = texts(qtbot, window, ".summarizer-stats .stat-item")
    assert "⚖️Avg quality: 7.5 (2 tasks scored)" in stats

    lines = js(qtbot, window, "document.querySelector('.judge-summary').innerHTML")
    assert lines == "<p>Read the config<br>\nListed the files</p>"
    assert js(qtbot, window, "document.querySelector('.verdict-comment strong').textContent") \
        == "all"
    assert texts(qtbot, window, ".think-text li") == ["config read", "port found"]
    assert factory.last.of("phase_finished")[0].summary == "Read the config\nListed the files"
    assert count(qtbot, window, ".phase-summary") == 0  # the judge's line, shown once above
    panel = ".message-summarizer .summarizer-content"
    assert js(qtbot, window, f"document.querySelector('{panel} p').innerText") == \
        "Phase 1 read the config\nPhase 2 listed the files"
    assert js(qtbot, window, f"document.querySelector('{panel} pre').innerHTML.includes('<br')") \
        is False
    assert js(qtbot, window, f"document.querySelector('{panel} pre').innerText") == \
        "PORT = 8000\nDEBUG = False\n"
    assert texts(qtbot, window, f"{panel} ul li") == ["config.py", "the folder"]

    ARTIFACTS.mkdir(exist_ok=True)
    js(qtbot, window, "(() => { document.querySelector('.phase').scrollIntoView({block: 'start'});"
                      " return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-judge-card.png"))


def test_a_round_with_no_task_scored_shows_no_average(qtbot: QtBot,
                                                      make_window: WindowMaker) -> None:
    replies = [analysis("Look", complexity="complex"), phases((1, "Look", [])), ANSWER_DRAFT,
               plan(task(1, "read_file", path="config.py")),
               {"tool": "judge_tasks", "arguments": {"next_action": "end_phase",
                                                     "user_summary": "Read the config file.",
                                                     "phase_completed": True,
                                                     "quality_score": 9}},
               summary()]
    window = make_window(ScriptedFactory(replies))
    submit(qtbot, window, "look")
    wait_js(qtbot, window, FINISHED)
    assert texts(qtbot, window, ".judge .verdict-quality") == ["not scored"]
    assert texts(qtbot, window, ".judge .metric-value")[2] == "—"
    assert texts(qtbot, window, ".judge .metric-label")[2] == "Avg quality · none scored"
    assert not any(s.startswith("Avg quality") for s in
                   texts(qtbot, window, ".summarizer-stats .stat-item"))
