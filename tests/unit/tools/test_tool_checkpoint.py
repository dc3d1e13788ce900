"""Undo puts a run's files back byte for byte, or refuses and changes nothing."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from tool_harness import Harness

from core.appdirs import data_dir
from core.events import FileChanged
from core.tools.checkpoint import Checkpoint
from core.tools.undo import undo_run


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    found: dict[str, bytes | None] = {}
    for base, dirs, names in os.walk(folder):
        for name in dirs:
            found[os.path.relpath(os.path.join(base, name), folder) + "/"] = None
        for name in names:
            path = os.path.join(base, name)
            found[os.path.relpath(path, folder)] = Path(path).read_bytes()
    return found


def _change_everything(harness: Harness) -> None:
    assert harness.call("read_file", path="edit.txt").ok
    assert harness.call("edit_file", path="edit.txt", old_text="beta", new_text="BETA").ok
    assert harness.call("edit_file", path="edit.txt", old_text="gamma", new_text="G").ok
    assert harness.call("write_file", path="bytes.bin.txt", content="replaced",
                        overwrite=True).ok
    assert harness.call("write_file", path="deep/new/file.txt", content="brand new").ok


def _prepare(workspace: Path) -> None:
    (workspace / "edit.txt").write_bytes(b"alpha\r\nbeta\ngamma\xff\n")
    (workspace / "bytes.bin.txt").write_bytes(bytes(range(1, 256)))
    (workspace / "untouched.txt").write_text("same")


def test_undo_restores_byte_for_byte(harness: Harness) -> None:
    _prepare(harness.workspace)
    before = _snapshot(harness.workspace)
    _change_everything(harness)
    assert _snapshot(harness.workspace) != before
    checkpoint = harness.run.checkpoint
    assert isinstance(checkpoint, Checkpoint)
    assert (data_dir() / "checkpoints" / "run-1" / "manifest.json").exists()
    assert sorted(checkpoint.files()) == ["bytes.bin.txt", "deep/new/file.txt", "edit.txt"]
    report = undo_run("run-1")
    assert report.ok, report.message
    assert sorted(report.restored) == ["bytes.bin.txt", "edit.txt"]
    assert report.deleted == ["deep/new/file.txt"]
    assert _snapshot(harness.workspace) == before
    assert report.describe().splitlines() == [
        "undid run run-1: restored 2 file(s), deleted 1 created file(s)",
        "  restored bytes.bin.txt", "  restored edit.txt", "  deleted  deep/new/file.txt"]
    again = undo_run("run-1")
    assert not again.ok and "already undone" in again.message


def test_undo_refuses_after_an_outside_change_and_changes_nothing(harness: Harness) -> None:
    _prepare(harness.workspace)
    _change_everything(harness)
    (harness.workspace / "edit.txt").write_bytes(b"someone else typed here\n")
    after = _snapshot(harness.workspace)
    report = undo_run("run-1")
    assert not report.ok
    assert report.message == ("cannot undo run run-1: edit.txt changed since the run wrote it "
                              "(its content no longer matches what the run wrote); nothing "
                              "was changed")
    assert _snapshot(harness.workspace) == after
    (harness.workspace / "edit.txt").unlink()
    gone = undo_run("run-1")
    assert not gone.ok and "edit.txt was deleted since the run wrote it" in gone.message


def test_undo_of_one_run_leaves_an_earlier_run_alone(harness: Harness) -> None:
    assert harness.call("write_file", path="a.txt", content="v1").ok
    harness.new_run("run-2")
    assert harness.call("read_file", path="a.txt").ok
    assert harness.call("write_file", path="a.txt", content="v2").ok
    assert undo_run("run-2").ok
    assert (harness.workspace / "a.txt").read_text() == "v1"
    assert undo_run("run-1").ok
    assert not (harness.workspace / "a.txt").exists()


def test_undo_of_unknown_or_bad_run_ids(harness: Harness) -> None:
    assert "no file changes were recorded for run nope" in undo_run("nope").message
    assert "not a valid run id" in undo_run("../etc").message


def test_a_denied_or_refused_write_records_nothing(harness: Harness) -> None:
    (harness.workspace / "x.txt").write_text("x")
    assert not harness.call("write_file", path="x.txt", content="y").ok
    assert harness.run.checkpoint is None
    assert "no file changes were recorded" in undo_run("run-1").message


def test_concurrent_writes_of_one_run_share_one_checkpoint(harness: Harness) -> None:
    for i in range(8):
        (harness.workspace / f"f{i}.txt").write_text(f"original {i}")
    before = _snapshot(harness.workspace)

    async def scenario() -> list[bool]:
        calls = [harness.registry.execute(
            "write_file", {"path": f"f{i}.txt", "content": f"new {i}", "overwrite": True},
            harness.ctx(task_id=i)) for i in range(8)]
        calls += [harness.registry.execute(
            "write_file", {"path": f"made/{i}.txt", "content": "x"}, harness.ctx(task_id=i))
            for i in range(4)]
        return [result.ok for result in await asyncio.gather(*calls)]

    assert all(asyncio.run(scenario()))
    assert len(harness.run.checkpoint.files()) == 12
    changes = [event for event in harness.events if isinstance(event, FileChanged)]
    assert sorted(event.task_id for event in changes) == sorted(
        list(range(8)) + list(range(4)))
    report = undo_run("run-1")
    assert report.ok and len(report.restored) == 8 and len(report.deleted) == 4
    assert _snapshot(harness.workspace) == before
