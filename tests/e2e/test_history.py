"""The history in the window: the sidebar list, replay equal to live, rename, delete, memory."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QInputDialog, QListWidgetItem, QMessageBox
from pytestqt.qtbot import QtBot

from core import events as ev
from core.store.history import Store
from tests.e2e.conftest import WindowMaker, close_window
from tests.e2e.pagetools import count, js, run_dom, run_text, settle, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory, port_move_replies, two_phase_replies
from tests.e2e.windowtools import menu_action, open_conversation
from tests.support.log_guard import ExpectedWarning
from tests.support.script import analysis, judge, phases, plan, summary, task
from ui.main_window import MainWindow

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def runs_finished(n: int) -> str:
    return f"document.querySelectorAll('.run-footer').length === {n}"


def conversation_menu_action(window: MainWindow, item: QListWidgetItem, text: str) -> None:
    """Choose ``text`` from a conversation's context menu."""
    menu = window.sidebar.conversations.context_menu_for(item)
    [action] = [a for a in menu.actions() if a.text() == text]
    action.trigger()
    menu.deleteLater()


def one_phase(goal: str, summary_md: str) -> list[dict]:
    """A one-phase run whose draft is an answer in words (no file), then a planned read."""
    return [analysis(goal, complexity="complex"), phases((1, "Look", [])),
            {"text": "The port is set in config.py."},
            plan(task(1, "read_file", path="config.py")), judge([1]), summary(summary_md)]


def test_replayed_conversation_equals_the_live_run(qtbot: QtBot, make_window: WindowMaker,
                                                   isolated_home: Path) -> None:
    window = make_window(ScriptedFactory(port_move_replies()))
    window.resize(700, 200)  # the finished phases end out of view, where the page skips them
    submit(qtbot, window, "Move the server to port 8080")
    wait_js(qtbot, window, FINISHED)
    js(qtbot, window, "(() => { document.querySelector('.calls-toggle').click(); return 1; })()")
    js(qtbot, window, "(() => { document.querySelector('.calls-toggle').click(); return 1; })()")
    live = run_dom(qtbot, window)
    live_text = run_text(qtbot, window)
    assert "Port moved to 8080" in live_text and count(qtbot, window, ".task") == 6

    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, FINISHED)
    js(qtbot, window, "(() => { document.querySelector('.calls-toggle').click(); return 1; })()")
    js(qtbot, window, "(() => { document.querySelector('.calls-toggle').click(); return 1; })()")
    assert run_dom(qtbot, window) == live
    close_window(qtbot, window)

    again = make_window(ScriptedFactory())
    assert again.sidebar.conversations.count() == 1
    assert again.sidebar.conversations.item(0).text().startswith(tuple(
        f"Move the server to port 8080\n{outcome} · 1 run"
        for outcome in ("✓ Succeeded", "○ Done · not verified")))
    open_conversation(qtbot, again, 0)
    wait_js(qtbot, again, FINISHED)
    js(qtbot, again, "(() => { document.querySelector('.calls-toggle').click(); return 1; })()")
    js(qtbot, again, "(() => { document.querySelector('.calls-toggle').click(); return 1; })()")
    assert run_dom(qtbot, again) == live
    assert run_text(qtbot, again) == live_text
    assert count(qtbot, again, ".run") == 1 and count(qtbot, again, ".message-summarizer") == 1


def test_follow_up_in_the_conversation_sends_memory_not_raw_text(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(port_move_replies(),
                              one_phase("Document the new port", "## Documented\n\n- README"))
    window = make_window(factory)
    submit(qtbot, window, "pls bump that port thing, marker-raw-7731")
    wait_js(qtbot, window, FINISHED)
    submit(qtbot, window, "now document it")
    wait_js(qtbot, window, runs_finished(2))

    sent = json.dumps(factory.models[1].requests, ensure_ascii=False)
    assert "Port moved to 8080" in sent
    assert "Move the server to port 8080" in sent
    assert "marker-raw-7731" not in sent
    assert "marker-raw-7731" in json.dumps(factory.models[0].requests)
    with Store() as store:
        [conversation] = store.list_conversations()
        assert conversation["run_count"] == 2
        assert conversation["title"] == "pls bump that port thing, marker-raw-7731"
        assert [r["status"] for r in store.runs(conversation["id"])] == ["completed"] * 2
    entry = window.sidebar.conversations.item(0).text()
    assert entry.split("\n")[1].startswith(("✓ Succeeded · 2 runs",
                                             "○ Done · not verified · 2 runs"))
    assert texts(qtbot, window, ".bubble") == ["pls bump that port thing, marker-raw-7731",
                                               "now document it"]


def test_new_conversation_starts_without_memory_and_the_list_is_newest_first(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(one_phase("First goal", "## One"), one_phase("Second goal", "## Two"))
    window = make_window(factory)
    submit(qtbot, window, "first request")
    wait_js(qtbot, window, FINISHED)
    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    submit(qtbot, window, "second request")
    wait_js(qtbot, window, FINISHED)
    assert "First goal" not in json.dumps(factory.models[1].requests)
    titles = [window.sidebar.conversations.item(i).text().split("\n")[0] for i in range(2)]
    assert titles == ["second request", "first request"]
    assert window.sidebar.conversations.currentItem().text().startswith("second request")


def test_rename_and_delete_from_the_context_menu(qtbot: QtBot, make_window: WindowMaker,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # Neither request asks for a change ("delete me" would: a read-only round is then
    # continued by the engine, not judged).
    factory = ScriptedFactory(one_phase("Look at A", "## A\n\nRead the config."),
                              one_phase("Look at B", "## B\n\nRead the config."))
    window = make_window(factory)
    for request in ("keep me", "drop me"):
        window.sidebar.new_button.click()
        submit(qtbot, window, request)
        wait_js(qtbot, window, FINISHED)

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("  Renamed   title ", True))
    conversation_menu_action(window, window.sidebar.conversations.item(1), "Rename…")
    assert window.sidebar.conversations.item(0).text().startswith("Renamed title\n")
    with Store() as store:
        assert sorted(c["title"] for c in store.list_conversations()) == ["Renamed title",
                                                                         "drop me"]

    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Cancel)
    conversation_menu_action(window, window.sidebar.conversations.item(1), "Delete…")
    assert window.sidebar.conversations.count() == 2

    asked: list[str] = []

    def yes(parent: object, title: str, text: str, *rest: object) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", yes)
    conversation_menu_action(window, window.sidebar.conversations.item(1), "Delete…")
    assert asked and "drop me" in asked[0] and "1 run" in asked[0]
    assert [window.sidebar.conversations.item(i).text().split("\n")[0]
            for i in range(window.sidebar.conversations.count())] == ["Renamed title"]
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    with Store() as store:
        [left] = store.list_conversations()
        assert left["title"] == "Renamed title"
        assert store.conversation(left["id"] + 1) is None
        deleted_runs = store._rows("SELECT COUNT(*) FROM events e JOIN runs r ON r.id = e.run_id"
                                   " WHERE r.request = 'drop me'")[0][0]
        assert deleted_runs == 0


def test_an_interrupted_run_replays_with_an_interrupted_footer(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    with Store() as store:
        conversation = store.create_conversation("Killed mid-run")
        run_id = store.start_run(conversation, "Killed mid-run", "phase", "openai", "m", {})
        for event in (
            ev.RunStarted(run_id=run_id, engine="phase", request="Killed mid-run",
                          provider="openai", model="m", workspace="/w", budget=30),
            ev.RequestAnalysed(core_goal="Survive a kill", requirements=[], constraints=[],
                               complexity="simple", estimated_phases=1),
            ev.PhaseStarted(phase_id=1, name="Work", goal="g", index=1, total=1, max_rounds=2),
            ev.TasksPlanned(phase_id=1, round=1, max_rounds=2, reasoning="r",
                            tasks=[{"id": 1, "title": "Read", "tool": "read_file"},
                                   {"id": 2, "title": "List", "tool": "list_files"}]),
            ev.TaskStarted(phase_id=1, round=1, task_id=1, tool="read_file"),
        ):
            store.append_event(run_id, event)
    window = make_window(ScriptedFactory())
    assert window.sidebar.conversations.item(0).text().startswith("Killed mid-run\n1 run")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, FINISHED)
    assert "Interrupted" in js(qtbot, window, "document.querySelector('.interrupted-note')"
                                              ".textContent")
    assert texts(qtbot, window, ".run-footer .run-ending") == ["interrupted"]
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.task'))"
                             ".map(t => t.dataset.status)") == ["interrupted", "interrupted"]
    assert texts(qtbot, window, ".phase-title .badge") == ["interrupted"]
    assert texts(qtbot, window, ".analysis-goal") == ["Survive a kill"]
    with Store() as store:
        assert store.run(run_id)["status"] == "interrupted"
    settle(qtbot, window, top=True)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-interrupted-replay.png"))


def test_export_the_last_run_as_json_and_markdown(qtbot: QtBot, make_window: WindowMaker,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    window = make_window(ScriptedFactory(port_move_replies()))
    submit(qtbot, window, "Move the server to port 8080")
    wait_js(qtbot, window, FINISHED)
    target = {"path": tmp_path / "run.json"}
    monkeypatch.setattr("ui.conversations.QFileDialog.getSaveFileName",
                        lambda *a, **k: (str(target["path"]), ""))
    menu_action(window, "Export last run as JSON").trigger()
    exported = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert exported["format"] == "phasedesk-run/1"
    assert exported["run"]["request"] == "Move the server to port 8080"
    assert len(exported["replies"]) == exported["run"]["llm_calls"] == 10  # the draft's among them
    target["path"] = tmp_path / "run.md"
    menu_action(window, "Export last run as Markdown").trigger()
    markdown = (tmp_path / "run.md").read_text(encoding="utf-8")
    assert "## Summary" in markdown and "Port moved to 8080" in markdown
    wait_js(qtbot, window, "Array.from(document.querySelectorAll('.ui-message'))"
                           ".map(m => m.textContent).join(' | ').includes('run.md')")


def test_opening_a_conversation_is_refused_while_a_run_is_going(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(one_phase("A", "## A"), two_phase_replies(delay_judge_s=30))
    window = make_window(factory)
    submit(qtbot, window, "first")
    wait_js(qtbot, window, FINISHED)
    window.sidebar.new_button.click()
    submit(qtbot, window, "second")
    wait_js(qtbot, window, "document.querySelectorAll('.task').length >= 3")
    open_conversation(qtbot, window, 1)
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert "Stop the current run" in message
    assert texts(qtbot, window, ".bubble") == ["second"]
    window.controller.cancel()
    wait_js(qtbot, window, FINISHED, timeout=15000)
    assert window.sidebar.conversations.currentItem().text().startswith("second\n")


def test_an_unusable_history_database_still_opens_the_window(
        qtbot: QtBot, make_window: WindowMaker, isolated_home: Path,
        expect_warning: Callable[..., ExpectedWarning]) -> None:
    expect_warning("history unavailable: file is not a database", count=1)
    database = isolated_home / "data" / "history.sqlite3"
    database.parent.mkdir(parents=True, exist_ok=True)
    database.write_bytes(b"this is not a database" * 100)
    window = make_window(ScriptedFactory(one_phase("Still works", "## Fine")))
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert "history could not be opened" in message and "will not be kept" in message
    submit(qtbot, window, "run anyway")
    wait_js(qtbot, window, FINISHED)
    assert window.sidebar.conversations.count() == 1
    assert database.read_bytes().startswith(b"this is not a database")


def test_an_answer_typed_in_the_composer_continues_the_pending_clarification(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    first = [analysis("Improve it", questions=["Which file?"])]
    factory = ScriptedFactory(first, one_phase("Set the port in config.py", "## Set"))
    window = make_window(factory)
    submit(qtbot, window, "improve it")
    wait_js(qtbot, window, FINISHED)
    submit(qtbot, window, "config.py, port 8080")
    wait_js(qtbot, window, runs_finished(2))
    previous = factory.engines[1].previous_analysis
    assert previous is not None and previous["core_goal"] == "Improve it"
    assert js(qtbot, window, "document.querySelector('.clarify').classList.contains('answered')")
