"""Keep a run in the conversation's memory from its footer, with the real page and engine."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.store.history import Store
from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import click, count, heard_requests, js, settle, submit, wait_js
from tests.e2e.scripted_runs import ANSWER_DRAFT, Reply, ScriptedFactory
from tests.e2e.windowtools import open_conversation
from tests.support.log_guard import ExpectedWarning
from tests.support.script import analysis, judge, phases, plan, summary, task
from ui.main_window import MainWindow

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
KEEP = "☆ Keep in memory"
KEPT = "★ Kept in memory"


def runs_finished(n: int) -> str:
    return f"document.querySelectorAll('.run-footer').length === {n}"


def toggle(qtbot: QtBot, window: MainWindow, index: int = 0) -> dict | None:
    """The ``index``-th run's footer toggle: its text, state, tooltip and whether it waits."""
    return js(qtbot, window, f"(() => {{ const b = document.querySelectorAll('.run')[{index}]"
                             ".querySelector('.run-footer .mark-btn'); return b && {text: "
                             "b.textContent, pressed: b.getAttribute('aria-pressed'), "
                             "disabled: b.disabled, title: b.title}; })()")


def wait_toggle(qtbot: QtBot, window: MainWindow, text: str, index: int = 0) -> dict:
    """Wait until the toggle shows ``text`` and takes clicks again (the window answered)."""
    wait_js(qtbot, window, f"(() => {{ const b = document.querySelectorAll('.run')[{index}]"
                           ".querySelector('.mark-btn'); return b && !b.disabled && "
                           f"b.textContent === {json.dumps(text)}; }})()")
    found = toggle(qtbot, window, index)
    assert found is not None
    return found


def stored_marks() -> list[bool]:
    with Store() as store:
        [conversation] = store.list_conversations()
        return [run["marked"] for run in store.runs(conversation["id"])]


def one_phase(goal: str, summary_md: str) -> list[Reply]:
    """A one-phase run whose draft is an answer in words (no file), then a planned read."""
    return [analysis(goal, complexity="complex"), phases((1, "Look", [])), ANSWER_DRAFT,
            plan(task(1, "read_file", path="config.py")), judge([1]), summary(summary_md)]


def test_the_footer_toggle_marks_unmarks_and_replays_the_stored_state(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(one_phase("Find the port", "## Port found\n\n- PORT is 8000"))
    window = make_window(factory)
    submit(qtbot, window, "where is the port set?")
    wait_js(qtbot, window, runs_finished(1))
    first = toggle(qtbot, window)
    assert first is not None
    assert {k: first[k] for k in ("text", "pressed", "disabled")} == {
        "text": KEEP, "pressed": "false", "disabled": False}
    assert first["title"].startswith("Later requests in this conversation will see this run's "
                                     "summary")
    assert stored_marks() == [False]

    heard = heard_requests(window)
    click(qtbot, window, ".mark-btn")
    assert wait_toggle(qtbot, window, KEPT)["pressed"] == "true"
    assert stored_marks() == [True]
    assert js(qtbot, window, "document.querySelector('.run').dataset.status") == "completed"
    js(qtbot, window, "(() => { document.querySelector('.run-footer').scrollIntoView("
                      "{block: 'center'}); return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-marked-run.png"))

    click(qtbot, window, ".mark-btn")
    assert wait_toggle(qtbot, window, KEEP)["pressed"] == "false"
    assert stored_marks() == [False]
    click(qtbot, window, ".mark-btn")
    wait_toggle(qtbot, window, KEPT)
    assert stored_marks() == [True]
    assert heard == ["mark_requested"] * 3

    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, runs_finished(1))
    assert wait_toggle(qtbot, window, KEPT)["pressed"] == "true"
    click(qtbot, window, ".mark-btn")
    wait_toggle(qtbot, window, KEEP)
    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, runs_finished(1))
    assert wait_toggle(qtbot, window, KEEP)["pressed"] == "false"
    assert stored_marks() == [False]


def test_a_marked_run_stays_in_the_memory_of_later_requests(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(one_phase("Alpha", "## Alpha\n\n- marker-alpha-5521"),
                              one_phase("Beta", "## Beta\n\n- marker-beta-8830"),
                              one_phase("Gamma", "## Gamma\n\n- marker-gamma-1407"),
                              one_phase("Delta", "## Delta\n\n- done"))
    window = make_window(factory)
    window.settings = dataclasses.replace(window.settings, history_runs=1)
    submit(qtbot, window, "alpha")
    wait_js(qtbot, window, runs_finished(1))
    click(qtbot, window, ".mark-btn")
    wait_toggle(qtbot, window, KEPT)
    for n, request in enumerate(("beta", "gamma", "delta"), start=2):
        submit(qtbot, window, request)
        wait_js(qtbot, window, runs_finished(n))
    assert stored_marks() == [True, False, False, False]
    assert [toggle(qtbot, window, i)["text"] for i in range(4)] == [KEPT, KEEP, KEEP, KEEP]

    sent = json.dumps(factory.models[3].requests, ensure_ascii=False)
    assert "marker-alpha-5521" in sent and "milestone: marked by the person" in sent
    assert "marker-gamma-1407" in sent
    assert "marker-beta-8830" not in sent
    earlier = json.dumps(factory.models[2].requests, ensure_ascii=False)
    assert "marker-alpha-5521" in earlier and "marker-beta-8830" in earlier


MALFORMED = [
    "PD.bridge.mark_run('{not json')",
    "PD.bridge.mark_run('null')",
    "PD.bridge.mark_run(JSON.stringify(['run', true]))",
    "PD.bridge.mark_run(JSON.stringify({}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: RUN}))",
    "PD.bridge.mark_run(JSON.stringify({marked: true}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: RUN, marked: 1}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: RUN, marked: 'true'}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: RUN, marked: null}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: 7, marked: true}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: true, marked: true}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: [RUN], marked: true}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: '', marked: true}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: '../' + RUN, marked: true}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: 'x'.repeat(500), marked: true}))",
    "PD.bridge.mark_run(JSON.stringify({run_id: RUN, marked: true, pad: 'p'.repeat(300000)}))",
    "PD.bridge.mark_run(42)",
    "PD.bridge.mark_run({run_id: RUN, marked: true})",
]


def test_malformed_mark_calls_are_ignored_and_unknown_runs_are_refused(
        qtbot: QtBot, make_window: WindowMaker,
        expect_warning: Callable[..., ExpectedWarning]) -> None:
    factory = ScriptedFactory(one_phase("Find the port", "## Port found"))
    window = make_window(factory)
    submit(qtbot, window, "where is the port set?")
    wait_js(qtbot, window, runs_finished(1))
    run_id = factory.last.run_id
    notices = count(qtbot, window, ".notice, .ui-message")
    ignored = expect_warning("bridge.mark_run ignored", count=len(MALFORMED))
    refused = expect_warning("not in the history", count=2)
    heard = heard_requests(window)
    for call in MALFORMED:
        js(qtbot, window, f"(() => {{ const RUN = {json.dumps(run_id)}; try {{ {call}; }} "
                          "catch (e) {} return 1; })()")
    qtbot.waitUntil(lambda: len(ignored.records) >= len(MALFORMED), timeout=5000)
    qtbot.wait(300)
    assert len(ignored.records) == len(MALFORMED) and heard == []
    assert stored_marks() == [False]
    assert count(qtbot, window, ".notice, .ui-message") == notices
    assert toggle(qtbot, window)["text"] == KEEP

    js(qtbot, window, "(() => { PD.call('mark_run', {run_id: 'no-such-run', marked: true});"
                      " return 1; })()")
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert "Run no-such-run is not in the history" in message and "not changed" in message
    assert len(ignored.records) == len(MALFORMED) and len(refused.records) == 1

    with Store() as store:
        store.delete_conversation(store.list_conversations()[0]["id"])
    click(qtbot, window, ".mark-btn")
    note = wait_js(qtbot, window, "(document.querySelector('.run .mark-note') || {}).textContent")
    assert f"Run {run_id} is not in the history" in note
    assert wait_toggle(qtbot, window, KEEP)["pressed"] == "false"
    assert count(qtbot, window, ".mark-note") == 1
