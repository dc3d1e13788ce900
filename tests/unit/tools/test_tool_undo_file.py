"""Undo of one file of a run: it goes back, the run's other files keep their changes."""

from __future__ import annotations

import json
from pathlib import Path

from tool_harness import Harness

from core.tools.checkpoint import checkpoint_dir
from core.tools.undo import undo_file, undo_run, undone_files


def _run(harness: Harness) -> None:
    (harness.workspace / "a.py").write_text("A = 1\n")
    (harness.workspace / "b.py").write_text("B = 1\n")
    assert harness.call("edit_file", path="a.py", old_text="A = 1", new_text="A = 2").ok
    assert harness.call("edit_file", path="b.py", old_text="B = 1", new_text="B = 2").ok
    assert harness.call("write_file", path="docs/new/notes.md", content="notes\n").ok


def test_one_file_goes_back_and_the_others_keep_their_changes(harness: Harness) -> None:
    _run(harness)
    report = undo_file("run-1", "a.py")
    assert report.ok and report.restored == ["a.py"] and report.deleted == []
    assert report.message == "restored a.py as it was before the run"
    ws = harness.workspace
    assert (ws / "a.py").read_text() == "A = 1\n"
    assert (ws / "b.py").read_text() == "B = 2\n"
    assert (ws / "docs/new/notes.md").read_text() == "notes\n"
    assert undone_files("run-1") == ["a.py"]
    again = undo_file("run-1", "a.py")
    assert not again.ok and again.message == "a.py was already undone"

    created = undo_file("run-1", "docs/new/notes.md")
    assert created.ok and created.deleted == ["docs/new/notes.md"]
    assert not (ws / "docs").exists()  # the folders the run created for it went too
    rest = undo_run("run-1")
    assert rest.ok and rest.restored == ["b.py"] and rest.deleted == []
    assert (ws / "b.py").read_text() == "B = 1\n"


def test_undo_of_a_file_changed_since_is_refused_and_changes_nothing(harness: Harness) -> None:
    _run(harness)
    (harness.workspace / "a.py").write_text("A = 99\n")
    report = undo_file("run-1", "a.py")
    assert not report.ok
    assert report.message == ("cannot undo a.py: a.py changed since the run wrote it (its "
                              "content no longer matches what the run wrote); nothing was "
                              "changed")
    assert (harness.workspace / "a.py").read_text() == "A = 99\n"
    assert (harness.workspace / "b.py").read_text() == "B = 2\n"
    assert undone_files("run-1") == []
    (harness.workspace / "a.py").unlink()
    assert "a.py was deleted since the run wrote it" in undo_file("run-1", "a.py").message


def test_undoing_every_file_one_by_one_marks_the_run_undone(harness: Harness) -> None:
    _run(harness)
    for rel in ("a.py", "b.py", "docs/new/notes.md"):
        assert undo_file("run-1", rel).ok
    manifest = json.loads((checkpoint_dir("run-1") / "manifest.json").read_text())
    assert manifest["undone"] is True and manifest["files"] == {}
    assert undo_run("run-1").message == "run run-1 was already undone"


def test_unknown_files_and_runs_are_refused(harness: Harness, tmp_path: Path) -> None:
    _run(harness)
    assert undo_file("run-1", "never.py").message == "run run-1 did not change never.py"
    assert undo_file("no-such-run", "a.py").message == \
        "no file changes were recorded for run no-such-run"
    assert not undo_file("../x", "a.py").ok
    assert (harness.workspace / "a.py").read_text() == "A = 2\n"
