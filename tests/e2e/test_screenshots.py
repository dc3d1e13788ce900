"""Screenshots of the window for a person to look at (written to ``artifacts/``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import click, count, js, settle, submit, wait_js
from tests.e2e.scripted_runs import ANSWER_DRAFT, ScriptedFactory, port_move_replies
from tests.e2e.windowtools import open_conversation
from tests.support.script import analysis, authored, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
FINISHED = "document.querySelectorAll('.run-footer').length === {n}"
REQUESTS = ("Add a health check endpoint to the server",
            "Why does the test suite take so long on CI? Look at the slowest tests first",
            "Move the server to port 8080")


def short_run(goal: str) -> list[dict]:
    """A question: its draft answers in words (no file), one round of reads, judged by the
    model."""
    return [analysis(goal, complexity="complex"), phases((1, "Look around", [])), ANSWER_DRAFT,
            plan(task(1, "read_file", path="config.py"), task(2, "list_files")),
            judge([1, 2]), summary(f"## {goal}\n\n- looked at `config.py`\n- nothing else to do")]


def change_run(goal: str) -> list[dict]:
    """A request for a change: round 1 writes the file the one-shot draft gives, health.py
    (no Plan call): a clean write the engine settles from the facts."""
    return [analysis(goal, complexity="complex"), phases((1, "Add it", [])),
            authored("def health() -> dict[str, str]:\n    return {'status': 'ok'}\n",
                     "health.py"),
            summary(f"## {goal}\n\n- wrote `health.py`")]


def test_screenshots_of_the_inspector_and_the_conversation_list(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(change_run("Health check"), short_run("Slow tests"),
                              port_move_replies())
    window = make_window(factory)
    window.resize(1280, 860)
    for n, request in enumerate(REQUESTS):
        if n:
            window.sidebar.new_button.click()
            wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
        submit(qtbot, window, request)
        wait_js(qtbot, window, FINISHED.format(n=1))
    assert window.sidebar.conversations.count() == 3
    assert all(window.sidebar.conversations.item(i).text().split("\n")[1].startswith(
        ("✓ Succeeded", "○ Done · not verified")) for i in range(3))
    ARTIFACTS.mkdir(exist_ok=True)

    click(qtbot, window, ".calls-toggle")
    click(qtbot, window, ".call-head", 3)  # the Plan call, after the draft's
    assert count(qtbot, window, ".call.open .msg") >= 3
    js(qtbot, window, "(() => { document.querySelector('.call.open').scrollIntoView("
                      "{block: 'start'}); document.getElementById('timeline').scrollTop -= 60;"
                      " return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-inspector.png"))

    window.sidebar.conversations.setCurrentRow(2)
    open_conversation(qtbot, window, 2)
    wait_js(qtbot, window, "document.querySelector('.bubble') && document.querySelector("
                           "'.bubble').textContent === " + repr(REQUESTS[0]))
    wait_js(qtbot, window, FINISHED.format(n=1))
    settle(qtbot, window, ms=400, top=True)
    assert window.grab().save(str(ARTIFACTS / "window-conversations.png"))
    assert window.sidebar.grab().save(str(ARTIFACTS / "sidebar-conversations.png"))
