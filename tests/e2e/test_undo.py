"""Undo a run's file changes from its Files changed card, with the real page and engine."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from core.store.history import Store
from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import (
    click,
    count,
    heard_requests,
    js,
    settle,
    submit,
    texts,
    wait_js,
    wait_undo_answered,
)
from tests.e2e.scripted_runs import ANSWER_DRAFT, Reply, ScriptedFactory
from tests.e2e.windowtools import open_conversation
from tests.support.log_guard import ExpectedWarning
from tests.support.script import analysis, judge, phases, plan, summary, task
from ui.main_window import MainWindow

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
DEMO = ROOT / "examples" / "three-phase-demo.json"
LABEL = "↶ Undo these changes"
NOTE = "(document.querySelector('.undo-note') || {}).textContent"
BUTTON = "(() => { const b = document.querySelector('.undo-btn');" \
         " return b && {disabled: b.disabled, text: b.textContent}; })()"
Snapshot = dict[str, bytes | None]


def runs_finished(n: int) -> str:
    return f"document.querySelectorAll('.run-footer').length === {n}"


def snapshot(folder: Path) -> Snapshot:
    """Every file's bytes and every folder (None) under ``folder``."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None
            for p in sorted(folder.rglob("*"))}


def write_and_edit() -> list[Reply]:
    """One round: edit config.py and create docs/notes.md (and its folder). The one-shot
    draft gives no file, so the round is planned (an edit and a write with its own content);
    the engine settles the clean write round from the facts, so no judge is asked."""
    return [analysis("Move the port and write notes", complexity="complex"), phases((1, "Change", [])),
            {"text": "Edit PORT in config.py and write the notes."},  # the draft: no file
            plan(task(1, "edit_file", path="config.py", old_text="PORT = 8000",
                      new_text="PORT = 8080"),
                 task(2, "write_file", path="docs/notes.md", content="# Notes\n\nPort 8080.\n")),
            summary("## Moved\n\n- PORT is 8080\n- notes written")]


def answer_with(monkeypatch: pytest.MonkeyPatch, button: QMessageBox.StandardButton
                ) -> list[str]:
    """Make the confirmation answer ``button``; returns the questions asked."""
    asked: list[str] = []

    def question(parent: object, title: str, text: str, *rest: object
                 ) -> QMessageBox.StandardButton:
        asked.append(f"{title}: {text}")
        return button

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def click_undo(qtbot: QtBot, window: MainWindow, asked: list[str]) -> None:
    """Press the first card's undo button and wait until the window has answered it."""
    asked_before = len(asked)
    click(qtbot, window, ".undo-btn")
    qtbot.waitUntil(lambda: len(asked) > asked_before, timeout=5000)
    wait_undo_answered(qtbot, window)


def test_undo_restores_the_demo_workspace_and_the_card_says_so(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "examples" / "demo-workspace", workspace, dirs_exist_ok=True)
    before = snapshot(workspace)
    factory = ScriptedFactory(json.loads(DEMO.read_text(encoding="utf-8"))["replies"])
    window = make_window(factory)
    window.resize(1280, 860)
    submit(qtbot, window, "Switch the demo service to port 8080 with debug off")
    wait_js(qtbot, window, runs_finished(1), timeout=20000)
    changed = snapshot(workspace)
    assert b"PORT = 8080" in changed["config.py"] and b"debug off" in changed["README.md"]
    run_id = factory.last.run_id
    assert js(qtbot, window, "document.querySelector('.run').dataset.runId") == run_id
    assert js(qtbot, window, BUTTON) == {"disabled": False, "text": LABEL}

    asked = answer_with(monkeypatch, QMessageBox.StandardButton.Cancel)
    click_undo(qtbot, window, asked)
    wait_js(qtbot, window, f"(({BUTTON}) || {{}}).text === {json.dumps(LABEL)}")
    assert js(qtbot, window, BUTTON) == {"disabled": False, "text": LABEL}
    assert count(qtbot, window, ".undo-note") == 0 and snapshot(workspace) == changed
    with Store() as store:
        assert store.run(run_id)["undone_at"] is None  # cancelled: nothing recorded

    asked = answer_with(monkeypatch, QMessageBox.StandardButton.Yes)
    click_undo(qtbot, window, asked)
    assert asked and asked[0].startswith("Undo file changes:")
    note = wait_js(qtbot, window, NOTE)
    assert snapshot(workspace) == before
    assert note.startswith("↶Changes undone: restored 2 files.")
    assert texts(qtbot, window, ".undo-files .file") == ["restoredREADME.md",
                                                         "restoredconfig.py"]
    assert js(qtbot, window, BUTTON) == {"disabled": True, "text": "✓ Undone"}
    assert count(qtbot, window, ".files.undone") == 1
    with Store() as store:  # the history records the undo, as --undo does
        assert store.run(run_id)["undone_at"] is not None

    js(qtbot, window, "(() => { document.querySelector('.files').scrollIntoView({block: 'center'});"
                      " return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-undo.png"))

    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, runs_finished(1))
    assert wait_js(qtbot, window, NOTE) == "These changes were undone."
    assert js(qtbot, window, BUTTON) == {"disabled": True, "text": "✓ Undone"}
    assert snapshot(workspace) == before


def test_undo_is_refused_when_a_file_changed_after_the_run(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshot(workspace)
    window = make_window(ScriptedFactory(write_and_edit()))
    submit(qtbot, window, "move the port and write notes")
    wait_js(qtbot, window, runs_finished(1))
    written = (workspace / "config.py").read_bytes()
    assert written == b"PORT = 8080\n" and (workspace / "docs" / "notes.md").is_file()
    (workspace / "config.py").write_bytes(b"PORT = 9999\n")
    tampered = snapshot(workspace)

    asked = answer_with(monkeypatch, QMessageBox.StandardButton.Yes)
    click_undo(qtbot, window, asked)
    note = wait_js(qtbot, window, NOTE)
    assert "config.py changed since the run wrote it" in note and "nothing was changed" in note
    assert snapshot(workspace) == tampered
    assert js(qtbot, window, BUTTON) == {"disabled": False, "text": LABEL}
    assert count(qtbot, window, ".undo-note.notice-warning") == 1
    assert count(qtbot, window, ".files.undone") == 0

    (workspace / "config.py").write_bytes(written)
    click_undo(qtbot, window, asked)
    wait_js(qtbot, window, "document.querySelector('.undo-note.undo-done') !== null")
    assert snapshot(workspace) == before
    assert texts(qtbot, window, ".undo-files .file") == ["restoredconfig.py",
                                                         "deleteddocs/notes.md"]
    assert count(qtbot, window, ".undo-note") == 1
    assert wait_js(qtbot, window, NOTE).startswith(
        "↶Changes undone: restored 1 file and deleted 1 file the run created.")


def test_undo_is_refused_while_a_run_is_going(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    slow_judge = judge([1])
    slow_judge["delay_s"] = 30
    slow = [analysis("Look again", complexity="complex"), phases((1, "Look", [])), ANSWER_DRAFT,
            plan(task(1, "read_file", path="config.py")), slow_judge, summary("## Looked")]
    window = make_window(ScriptedFactory(write_and_edit(), slow))
    submit(qtbot, window, "move the port and write notes")
    wait_js(qtbot, window, runs_finished(1))
    submit(qtbot, window, "look again")
    wait_js(qtbot, window, "document.querySelectorAll('.run')[1] && document.querySelectorAll("
                           "'.run')[1].querySelector('.task') !== null")
    changed = snapshot(workspace)
    asked = answer_with(monkeypatch, QMessageBox.StandardButton.Yes)
    click(qtbot, window, ".undo-btn")
    note = wait_js(qtbot, window, NOTE)
    assert "Stop the current run before you undo file changes" in note
    assert asked == [] and snapshot(workspace) == changed
    assert js(qtbot, window, BUTTON) == {"disabled": False, "text": LABEL}
    window.controller.cancel()
    wait_js(qtbot, window, runs_finished(2), timeout=15000)


MALFORMED = [
    "PD.bridge.undo_run('{not json')",
    "PD.bridge.undo_run('null')",
    "PD.bridge.undo_run(JSON.stringify(['run']))",
    "PD.bridge.undo_run(JSON.stringify({}))",
    "PD.bridge.undo_run(JSON.stringify({run_id: 7}))",
    "PD.bridge.undo_run(JSON.stringify({run_id: true}))",
    "PD.bridge.undo_run(JSON.stringify({run_id: ['a']}))",
    "PD.bridge.undo_run(JSON.stringify({run_id: ''}))",
    "PD.bridge.undo_run(JSON.stringify({run_id: '../../etc'}))",
    "PD.bridge.undo_run(JSON.stringify({run_id: 'a/b'}))",
    "PD.bridge.undo_run(JSON.stringify({run_id: 'x'.repeat(500)}))",
    "PD.bridge.undo_run(JSON.stringify({run_id: 'r', pad: 'p'.repeat(300000)}))",
    "PD.bridge.undo_run(42)",
    "PD.bridge.undo_run({run_id: 'an object, not a string'})",
]


def test_malformed_undo_calls_are_ignored(qtbot: QtBot, make_window: WindowMaker,
                                          monkeypatch: pytest.MonkeyPatch,
                                          expect_warning: Callable[..., ExpectedWarning]) -> None:
    window = make_window(ScriptedFactory())
    asked = answer_with(monkeypatch, QMessageBox.StandardButton.Yes)
    ignored = expect_warning("bridge.undo_run ignored", count=len(MALFORMED))
    heard = heard_requests(window)
    for call in MALFORMED:
        js(qtbot, window, f"(() => {{ try {{ {call}; }} catch (e) {{}} return 1; }})()")
    qtbot.waitUntil(lambda: len(ignored.records) >= len(MALFORMED), timeout=5000)
    qtbot.wait(300)
    assert len(ignored.records) == len(MALFORMED) and heard == []
    assert asked == []
    assert count(qtbot, window, ".notice") == 0

    js(qtbot, window, "(() => { PD.call('undo_run', {run_id: 'no-such-run'}); return 1; })()")
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert "no file changes were recorded for run no-such-run" in message
    assert len(asked) == 1 and len(ignored.records) == len(MALFORMED)
    assert heard == ["undo_requested"]
