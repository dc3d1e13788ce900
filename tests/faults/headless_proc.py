"""A ``main_qt.py --headless --jsonl`` process under test: its script, its events, its end.

``Headless`` starts the process on a scripted model and collects the JSON lines it
prints from a reader thread, so a test can wait for an event, then signal or kill it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from tests.support.script import analysis, judge, phases, plan, summary, task

ROOT = Path(__file__).resolve().parents[2]
ORIGINAL_A = "original a\n"
SIZE = 150_000  # write_file takes at most 200,000 characters


def body(tag: str) -> str:
    """A large, recognisable file body (a torn write would not match any version)."""
    line = f"{tag}: the quick brown fox jumps over the lazy dog\n"
    return (line * (SIZE // len(line) + 1))[:SIZE - 12] + f"\nEND-{tag}\n"


def versions() -> dict[str, set[str | None]]:
    """Every content each workspace file may have at any moment (None: absent)."""
    b1 = body("b1")
    return {"a.txt": {ORIGINAL_A, body("a1"), body("a2"), body("a3")},
            "b.txt": {None, b1, b1.replace("END-b1", "END-b1-edited")},
            "c.txt": {None, body("c1")}}


def write(tid: int, path: str, tag: str) -> dict[str, Any]:
    return task(tid, "write_file", path=path, content=body(tag), overwrite=True)


def writing_script(delay_s: float = 0.12) -> dict[str, Any]:
    """Three rounds of writes, edits and overwrites, with a pause before every reply: one
    phase each, since a round whose writes all succeed ends its phase on the facts (no
    judge call)."""
    replies = [
        analysis("Write three files", complexity="complex", estimated_phases=3),
        phases((1, "Write", []), (2, "Edit", [1]), (3, "Overwrite", [2])),
        plan(write(1, "a.txt", "a1"), write(2, "b.txt", "b1")),
        plan(write(1, "a.txt", "a2"),
             task(2, "edit_file", path="b.txt", old_text="END-b1", new_text="END-b1-edited")),
        plan(write(1, "a.txt", "a3"), write(2, "c.txt", "c1")),
        summary("## Written\n\nThree files."),
    ]
    return {"replies": [{**reply, "delay_s": delay_s} for reply in replies]}


def command_script(command: str, summary_delay_s: float = 0.0) -> dict[str, Any]:
    """One phase: the one-shot draft answers in words (no file), so its round is planned: the
    command, judged, then the summary (after ``summary_delay_s``)."""
    return {"replies": [analysis("Wait for a command", complexity="complex"),
                        phases((1, "Wait", [])),
                        {"text": "The command has to run to its end first."},
                        plan(task(1, "run_command", command=command, timeout_s=120)),
                        judge([1]),
                        {**summary("## Stopped\n\nThe command was stopped."),
                         "delay_s": summary_delay_s}]}


class Headless:
    def __init__(self, home: Path, workspace: Path, script: dict[str, Any],
                 request: str = "write the files") -> None:
        """Run ``script`` (Think never runs: the scripts have no think replies)."""
        script_file = home.parent / f"script-{id(self)}.json"
        script_file.write_text(json.dumps(script), encoding="utf-8")
        env = {**os.environ, "PHASEDESK_HOME": str(home), "PYTHONUNBUFFERED": "1"}
        self.log = script_file.with_suffix(".stderr")
        with self.log.open("wb") as stderr:
            self.proc = subprocess.Popen(
                [sys.executable, str(ROOT / "main_qt.py"), "--headless", "--jsonl", "--yes",
                 "--think-stage", "never", "--workspace", str(workspace),
                 "--model-script", str(script_file), request],
                env=env, stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL)
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            with self._changed:
                self.lines.append(raw.decode("utf-8", errors="replace"))
                self._changed.notify_all()

    def events(self) -> list[dict[str, Any]]:
        """Every complete line printed so far, decoded (a line cut by a kill is left out)."""
        with self._changed:
            return [json.loads(line) for line in self.lines if line.endswith("\n")]

    def wait_for(self, count: int = 1, kind: str | None = None, limit_s: float = 30) -> None:
        """Wait until ``count`` events (of ``kind``, if given) were printed."""
        deadline = time.monotonic() + limit_s
        with self._changed:
            while sum(kind is None or json.loads(line)["kind"] == kind
                      for line in self.lines if line.endswith("\n")) < count:
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None and not self._reader.is_alive():
                    raise AssertionError(f"no {count} {kind or 'event'}(s): {self.lines[-3:]}")
                self._changed.wait(min(left, 0.2))

    def kill(self) -> int:
        self.proc.send_signal(signal.SIGKILL)
        return self.finish()

    def stop(self) -> None:
        """What Stop does in a terminal: SIGINT."""
        self.proc.send_signal(signal.SIGINT)

    def finish(self, limit_s: float = 30) -> int:
        """Wait for the process and for its last printed line; returns the exit code."""
        code = self.proc.wait(limit_s)
        self._reader.join(limit_s)
        return code

    def stderr(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")
