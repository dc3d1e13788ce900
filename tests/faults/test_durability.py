"""Durability and Stop on the real headless process: SIGKILL at random points, Stop during a
long command, Stop twice.

The phase engine asks the one-shot draft before round 1 of every run: the writing script's
draft gives no file, so its rounds are planned as the script says; the Stop tests' draft
answers in words ("wait for the command"), so their round is planned too.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from core.events import PROGRESS_TYPES
from core.store.history import Store
from core.tools import paths
from core.tools.checkpoint import Checkpoint, sweep_interrupted_runs
from tests.faults.headless_proc import (ORIGINAL_A, ROOT, Headless, body, command_script,
                                        versions, writing_script)
from tests.support.proc_tree import (alive, holding, require_sandbox, token, wait_dead,
                                     wait_for_sleepers)

SEED = 20261121
KILLS = 20
WAIT = "wait for the command"


def drafted_writing_script() -> dict[str, Any]:
    """``writing_script`` with the one-shot draft's reply (no file, so the writes are planned
    as before) after the phase plan, paused like every other reply."""
    script = writing_script()
    draft = {"text": "I will write a.txt and b.txt, then edit and overwrite them.",
             "delay_s": script["replies"][0]["delay_s"]}
    script["replies"].insert(2, draft)
    return script


def fresh_workspace(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "a.txt").write_text(ORIGINAL_A, encoding="utf-8")
    return folder


def check_files(ws: Path, context: str) -> None:
    """Every file is absent, the original, or a complete version the script writes."""
    allowed = versions()
    present = {p.name for p in ws.iterdir()}
    assert present <= set(allowed), f"{context}: stray files {present - set(allowed)}"
    for name, contents in allowed.items():
        path = ws / name
        content = path.read_text(encoding="utf-8") if path.exists() else None
        assert content in contents, f"{context}: {name} is torn ({len(content or '')} chars)"


def check_history(db: Path, printed: list[dict], context: str) -> None:
    """The DB opens, holds every printed event of the record in order (progress events are
    printed, not recorded), and marks the run interrupted; its temp files are then swept."""
    run_id = printed[0]["run_id"]
    printed = [e for e in printed if e["kind"] not in PROGRESS_TYPES]
    with Store(db) as store:
        assert store._conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", context
        stored = store.events(run_id)
        assert stored[:len(printed)] == printed, context
        assert len(stored) - len(printed) in (0, 1), context  # killed between commit and print
        marked = store.mark_interrupted()
        assert marked == [run_id], context
    sweep_interrupted_runs(marked)  # what the front ends do with the runs marked interrupted
    with Store(db) as store:
        run = store.run(run_id)
        assert run is not None and run["status"] == "interrupted", context
        assert run["llm_calls"] == sum(e["kind"] == "llm_call" for e in stored), context


@pytest.mark.timeout(240)
def test_sigkill_at_20_random_points_keeps_history_and_files_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("PHASEDESK_HOME", str(home))  # the checkpoints of the killed runs
    reference = Headless(home, fresh_workspace(tmp_path / "reference"), drafted_writing_script())
    assert reference.finish() == 3, reference.stderr()  # done, nothing checked: unverified
    total = len(reference.events())
    assert [e["kind"] for e in reference.events()][-2:] == ["summary", "run_finished"]
    check_files(tmp_path / "reference", "reference run")
    assert {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "reference").iterdir()} \
        == {"a.txt": body("a3"), "b.txt": body("b1").replace("END-b1", "END-b1-edited"),
            "c.txt": body("c1")}  # all three rounds of writes ran
    rng = random.Random(SEED)
    for attempt in range(KILLS):
        ws = fresh_workspace(tmp_path / f"ws-{attempt}")
        after, pause = rng.randint(1, total - 4), rng.uniform(0.0, 0.12)
        context = f"seed {SEED}, attempt {attempt}: killed {pause:.3f} s after event {after}"
        run = Headless(home, ws, drafted_writing_script())
        run.wait_for(after)
        time.sleep(pause)  # the random kill point, not a synchronisation
        assert run.kill() == -signal.SIGKILL, f"{context}: it ended by itself"
        printed = run.events()
        assert len(printed) >= after, context
        check_history(home / "data" / "history.sqlite3", printed, context)
        check_files(ws, context)


@pytest.mark.parametrize("front_end", ["history command", "direct"])
def test_temp_files_of_a_killed_write_are_swept_when_the_run_is_marked_interrupted(
        front_end: str, tmp_path: Path) -> None:
    """The front ends sweep what the runs ``Store.mark_interrupted`` marks left behind."""
    ws = fresh_workspace(tmp_path / "ws")
    (ws / "sub").mkdir()
    with Store() as store:
        run_id = store.start_run(store.create_conversation("killed"), "write", "phase",
                                 "scripted", "script", {})
        checkpoint = Checkpoint(run_id, ws)
        for rel in ("a.txt", "sub/new.txt"):
            checkpoint.before_write(paths.resolve(ws, rel))
        left = [ws / ".a.txt.k3j_9x2q.tmp", ws / "sub" / ".new.txt.0a1b2c3d.tmp"]
        kept = [ws / ".a.txt.notes.tmp", ws / ".b.txt.k3j_9x2q.tmp", ws / "sub" / "x.tmp"]
        for path in left + kept:
            path.write_text("half a file", encoding="utf-8")
        if front_end == "direct":
            assert sweep_interrupted_runs(store.mark_interrupted()) == [
                ".a.txt.k3j_9x2q.tmp", "sub/.new.txt.0a1b2c3d.tmp"]
        else:
            gone = subprocess.Popen([sys.executable, "-c", "pass"])
            gone.wait()
            with store._tx() as conn:  # the run's process is gone
                conn.execute("UPDATE runs SET owner_pid = ? WHERE id = ?", (gone.pid, run_id))
    if front_end != "direct":
        listed = subprocess.run([sys.executable, str(ROOT / "main_qt.py"), "--headless",
                                 "--list-runs"], capture_output=True, text=True, timeout=60)
        assert listed.returncode == 0, listed.stderr
        assert run_id in listed.stdout and "interrupted" in listed.stdout
    assert [p.exists() for p in left] == [False, False]
    assert [p.exists() for p in kept] == [True, True, True]
    assert (ws / "a.txt").read_text(encoding="utf-8") == ORIGINAL_A


def test_stop_during_a_long_command_ends_its_tree_within_2_s_and_summarises(
        tmp_path: Path) -> None:
    """The command runs sandboxed (the default), so its tree is found by its sleep's token."""
    require_sandbox()
    ws = tmp_path / "ws"
    ws.mkdir()
    mark = token()
    run = Headless(tmp_path / "home", ws, command_script(f"sh -c 'sleep {mark} & wait' & wait"),
                   request=WAIT)
    run.wait_for(kind="task_started")
    tree = wait_for_sleepers(mark, 1)
    assert len(tree) >= 4 and all(alive(pid) for pid in tree)
    run.stop()
    wait_dead(tree, 2.0)
    assert holding(mark) == []
    assert run.finish() == 130, run.stderr()  # stopped, as a shell reports Ctrl+C
    events = run.events()
    assert [e["kind"] for e in events][-2:] == ["summary", "run_finished"]
    assert events[-1]["status"] == "cancelled"
    finished = [e for e in events if e["kind"] == "task_finished"]
    assert [(e["status"], "cancelled" in e["error"]) for e in finished] == [("failed", True)]
    assert events[-2]["generated_by"] == "model" and "Stopped" in events[-2]["final_summary"]


def test_stop_twice_quickly_ends_at_once_with_a_fallback_summary(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    run = Headless(tmp_path / "home", ws, command_script("sleep 30", summary_delay_s=20),
                   request=WAIT)
    run.wait_for(kind="task_started")
    run.stop()
    run.wait_for(kind="task_finished")  # two signals sent at once would arrive as one
    run.stop()
    stopped = time.monotonic()
    assert run.finish() == 130, run.stderr()
    assert time.monotonic() - stopped < 5
    events = run.events()
    kinds = [e["kind"] for e in events]
    assert kinds[-2:] == ["summary", "run_finished"] and kinds.count("summary") == 1
    assert events[-2]["generated_by"] == "fallback"
    assert "Stop was pressed" in events[-2]["final_summary"]
    assert events[-1]["status"] == "cancelled"
    assert "Traceback" not in run.stderr()
    with sqlite3.connect(tmp_path / "home" / "data" / "history.sqlite3") as db:
        assert db.execute("SELECT status FROM runs").fetchall() == [("cancelled",)]
