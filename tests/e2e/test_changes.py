"""Diffs in the real page: each write's diff on its task card, the run's Changes section with
each file's whole change, and undo of one file while the others keep their changes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

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
from tests.e2e.scripted_runs import Reply, ScriptedFactory
from tests.e2e.test_undo import answer_with, snapshot
from tests.e2e.windowtools import open_conversation
from tests.support.log_guard import ExpectedWarning
from tests.support.script import analysis, phases, plan, summary, task
from ui.main_window import MainWindow

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
FINISHED = "document.querySelectorAll('.run-footer').length === 1"
NOTES = "# Notes\n\nThe port is 8080.\n"
CSV = "".join(f"{n},value {n}\n" for n in range(40))


def writes() -> list[Reply]:
    """Phase 1 edits config.py and writes two new files; phase 2 edits config.py again. The
    one-shot draft gives no file, so phase 1's round is planned (edits and writes with their
    own content). Both rounds write and succeed: the engine settles them from the facts (no
    judge call)."""
    return [analysis("Move the port and write notes", phases=2),
            phases((1, "Write", []), (2, "Adjust", [1])),
            {"text": "Edit PORT in config.py and write the notes."},  # the draft: no file
            plan(task(1, "edit_file", path="config.py", old_text="PORT = 8000",
                      new_text="PORT = 8080"),
                 task(2, "write_file", path="docs/notes.md", content=NOTES),
                 task(3, "write_file", path="data.csv", content=CSV)),
            plan(task(1, "edit_file", path="config.py", old_text="PORT = 8080",
                      new_text="PORT = 9090")),
            summary("## Moved\n\n- PORT is 9090\n- notes written")]


def row(path: str) -> str:
    return ("Array.from(document.querySelectorAll('.changes .file'))"
            f".find(r => r.dataset.path === {json.dumps(path)})")


def undo_file(qtbot: QtBot, window: MainWindow, asked: list[str], path: str) -> None:
    before = len(asked)
    js(qtbot, window, f"(() => {{ {row(path)}.querySelector('.file-undo-btn').click();"
                      " return 1; })()")
    qtbot.waitUntil(lambda: len(asked) > before, timeout=5000)
    wait_undo_answered(qtbot, window)


def test_each_write_shows_its_diff_and_the_run_lists_its_changes(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    window = make_window(ScriptedFactory(writes()))
    window.resize(1200, 1500)
    submit(qtbot, window, "move the port and write notes")
    wait_js(qtbot, window, FINISHED, timeout=20000)
    assert (workspace / "config.py").read_text() == "PORT = 9090\n"

    cards = js(qtbot, window, "Array.from(document.querySelectorAll('.task')).map(c => "
                              "Array.from(c.querySelectorAll('.task-diff-head')).map(h => "
                              "h.textContent))")
    assert cards == [["modifiedconfig.py+1 −1"], ["new filedocs/notes.md+3 −0"],
                     ["new filedata.csv+40 −0"], ["modifiedconfig.py+1 −1"]]
    first = "document.querySelector('.task .diff')"
    assert js(qtbot, window, f"Array.from({first}.querySelectorAll('.diff-code'))"
                             ".map(c => c.textContent)") == ["@@ -1 +1 @@", "-PORT = 8000",
                                                             "+PORT = 8080"]
    assert js(qtbot, window, f"{first}.querySelector('.diff-add .diff-num:nth-child(2)')"
                             ".textContent") == "1"
    assert count(qtbot, window, ".task .diff-code span.mi") >= 2  # coloured as Python
    assert js(qtbot, window, "getComputedStyle(document.querySelector('.task .diff-code span.mi'))"
                             ".color") == "rgb(102, 102, 102)"  # by pygments.css
    ARTIFACTS.mkdir(exist_ok=True)
    js(qtbot, window, "(() => { document.querySelector('.task-diff').scrollIntoView("
                      "{block: 'center'}); return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-task-diff.png"))
    csv_box = "document.querySelectorAll('.task')[2].querySelector('.diff-box')"
    assert js(qtbot, window, f"{csv_box}.classList.contains('collapsed')") is True
    assert js(qtbot, window, f"{csv_box}.querySelector('.diff-toggle').textContent") == \
        "Show all 40 lines ▾"
    assert js(qtbot, window, f"{csv_box}.querySelector('.diff').clientHeight") <= 180
    js(qtbot, window, f"(() => {{ {csv_box}.querySelector('.diff-toggle').click(); return 1; }})()")
    assert js(qtbot, window, f"{csv_box}.querySelector('.diff').clientHeight") > 600

    assert texts(qtbot, window, ".changes .files-title") == ["📝 Changes · 3 files"]
    assert texts(qtbot, window, ".changes .files-totals") == ["+44 −1"]
    heads = texts(qtbot, window, ".changes .file-head")
    assert heads == ["modifiedconfig.py+1 −1↶ Undo file",
                     "new filedata.csv+40 −0↶ Undo file",
                     "new filedocs/notes.md+3 −0↶ Undo file"]
    config = row("config.py")
    assert js(qtbot, window, f"Array.from({config}.querySelectorAll('.diff-line:not(.diff-hunk) "
                             ".diff-code')).map(c => c.textContent)") == ["-PORT = 8000",
                                                                          "+PORT = 9090"]
    assert js(qtbot, window, "document.querySelector('.changes').previousElementSibling"
                             ".classList.contains('run-body')") is True

    js(qtbot, window, "(() => { document.querySelector('.changes').scrollIntoView("
                      "{block: 'end'}); return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-changes.png"))


def test_undo_of_one_file_restores_it_while_the_others_keep_their_changes(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    original = snapshot(workspace)
    window = make_window(ScriptedFactory(writes()))
    submit(qtbot, window, "move the port and write notes")
    wait_js(qtbot, window, FINISHED, timeout=20000)
    asked = answer_with(monkeypatch, QMessageBox.StandardButton.Yes)

    undo_file(qtbot, window, asked, "config.py")
    assert "Put config.py back the way it was before this run?" in asked[0]
    assert (workspace / "config.py").read_text() == "PORT = 8000\n"
    assert (workspace / "docs" / "notes.md").read_text() == NOTES
    assert (workspace / "data.csv").read_text() == CSV
    note = wait_js(qtbot, window, f"({row('config.py')}.querySelector('.file-undo-note') || {{}})"
                                  ".textContent")
    assert note == "↶ Restored config.py as it was before the run."
    assert js(qtbot, window, f"{row('config.py')}.classList.contains('undone')") is True
    assert js(qtbot, window, f"{row('docs/notes.md')}.classList.contains('undone')") is False
    assert js(qtbot, window, "document.querySelector('.undo-btn').disabled") is False

    (workspace / "docs" / "notes.md").write_text("edited by hand\n")
    undo_file(qtbot, window, asked, "docs/notes.md")
    refused = wait_js(qtbot, window, f"({row('docs/notes.md')}.querySelector('.file-undo-note."
                                     "refused') || {}).textContent")
    assert "docs/notes.md changed since the run wrote it" in refused
    assert "nothing was changed" in refused
    assert (workspace / "docs" / "notes.md").read_text() == "edited by hand\n"
    assert js(qtbot, window, f"{row('docs/notes.md')}.querySelector('.file-undo-btn')"
                             ".disabled") is False
    ARTIFACTS.mkdir(exist_ok=True)
    window.resize(1200, 1100)
    js(qtbot, window, "(() => { document.querySelector('.changes').scrollIntoView("
                      "{block: 'end'}); return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-changes-file-undone.png"))

    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, FINISHED)
    assert wait_js(qtbot, window, f"({row('config.py')}.querySelector('.file-undo-note') || {{}})"
                                  ".textContent") == "↶ This file's change was undone."
    assert js(qtbot, window, f"{row('data.csv')}.classList.contains('undone')") is False
    assert count(qtbot, window, ".task-diff") == 4  # the replay shows the same diffs

    (workspace / "docs" / "notes.md").write_text(NOTES)
    click(qtbot, window, ".undo-btn")
    wait_js(qtbot, window, "document.querySelector('.undo-note.undo-done') !== null")
    assert snapshot(workspace) == original
    assert count(qtbot, window, ".changes .file.undone") == 3


MALFORMED_FILE_UNDO = [
    "PD.bridge.undo_file(JSON.stringify({run_id: 'r'}))",
    "PD.bridge.undo_file(JSON.stringify({path: 'a.py'}))",
    "PD.bridge.undo_file(JSON.stringify({run_id: 'r', path: ''}))",
    "PD.bridge.undo_file(JSON.stringify({run_id: 'r', path: 7}))",
    "PD.bridge.undo_file(JSON.stringify({run_id: 'r', path: 'a\\u0000b'}))",
    "PD.bridge.undo_file(JSON.stringify({run_id: 'r', path: 'p'.repeat(5000)}))",
    "PD.bridge.undo_file(JSON.stringify({run_id: '../x', path: 'a.py'}))",
    "PD.bridge.undo_file('{not json')",
]


def test_malformed_file_undo_calls_are_ignored(
        qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch,
        expect_warning: Callable[..., ExpectedWarning]) -> None:
    window = make_window(ScriptedFactory())
    asked = answer_with(monkeypatch, QMessageBox.StandardButton.Yes)
    ignored = expect_warning("bridge.undo_file ignored", count=len(MALFORMED_FILE_UNDO))
    heard = heard_requests(window)
    for call in MALFORMED_FILE_UNDO:
        js(qtbot, window, f"(() => {{ try {{ {call}; }} catch (e) {{}} return 1; }})()")
    qtbot.waitUntil(lambda: len(ignored.records) >= len(MALFORMED_FILE_UNDO), timeout=5000)
    qtbot.wait(300)
    assert len(ignored.records) == len(MALFORMED_FILE_UNDO) and heard == []
    assert asked == []
    js(qtbot, window, "(() => { PD.call('undo_file', {run_id: 'no-such-run', path: 'a.py'});"
                      " return 1; })()")
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=5000)
    message = wait_js(qtbot, window, "(document.querySelector('.ui-message') || {}).textContent")
    assert "No file changes were recorded for run no-such-run" in message
