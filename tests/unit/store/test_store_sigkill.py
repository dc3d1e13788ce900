"""A process killed with SIGKILL mid-run leaves a history that opens with every event it saved."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.events import from_dict
from core.store.history import Store

CHILD = Path(__file__).with_name("kill_child.py")
ATTEMPTS = 5


def _kill_mid_run(db: Path, pause: float) -> tuple[str, list[int]]:
    """Start the child, let it append for ``pause`` seconds, SIGKILL it; (run id, reported seqs)."""
    log = db.with_suffix(".stderr")
    with log.open("w") as stderr:
        child = subprocess.Popen([sys.executable, str(CHILD), str(db)], stdout=subprocess.PIPE,
                                 stderr=stderr, text=True)
    lines: list[str] = []
    first_event = threading.Event()

    def drain() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line.strip())
            if len(lines) >= 2:
                first_event.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        assert first_event.wait(30), f"the child never appended: {log.read_text()}"
        time.sleep(pause)
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(10)
    reader.join(10)
    assert child.returncode == -signal.SIGKILL, f"the child died on its own: {log.read_text()}"
    run_id = lines[0].removeprefix("run ")
    return run_id, [int(line) for line in lines[1:] if line]


@pytest.mark.timeout(120)
def test_sigkill_mid_run_loses_nothing_that_was_reported(tmp_path: Path) -> None:
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    for attempt in range(ATTEMPTS):
        db = tmp_path / f"history-{attempt}.sqlite3"
        run_id, reported = _kill_mid_run(db, rng.uniform(0.0, 0.4))
        context = f"seed {seed}, attempt {attempt}, {len(reported)} events reported"

        store = Store(db)
        try:
            assert store._conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", context
            with sqlite3.connect(db) as raw:
                seqs = [row[0] for row in raw.execute(
                    "SELECT seq FROM events WHERE run_id = ? ORDER BY seq", (run_id,))]
            assert reported == list(range(1, len(reported) + 1)), context
            assert seqs == list(range(1, len(seqs) + 1)), context
            assert len(seqs) - len(reported) in (0, 1), context  # killed between commit and print
            events = store.events(run_id)
            assert [from_dict(e).kind for e in events] == [e["kind"] for e in events]
            run = store.run(run_id)
            assert run is not None and run["status"] == "running", context
            assert run["llm_calls"] == sum(e["kind"] == "llm_call" for e in events), context
            assert run["changed_files"] == len({e["path"] for e in events
                                                if e["kind"] == "file_changed"}), context

            assert store.mark_interrupted() == [run_id], context
            run = store.run(run_id)
            assert run is not None and run["status"] == "interrupted", context
            assert run["finished_at"] is not None, context
        finally:
            store.close()
