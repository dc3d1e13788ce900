"""Child process of the SIGKILL test: records events until it is killed.

Usage: ``python kill_child.py DB_PATH``. Prints ``run RUN_ID`` first, then the sequence
number of each event after ``append_event`` has returned, flushed at once, so every
number the parent reads is an event the store claimed to have committed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from core.events import Event, FileChanged, LlmCall, Notice, TaskFinished  # noqa: E402
from core.store.history import Recorder, Store  # noqa: E402


def events(index: int) -> Event:
    kinds: list[Event] = [
        LlmCall("plan_tool_call", 700 + index, 150, True, index, 10_000, 900, True,
                reply={"tool": "plan_tool_call", "arguments": {"note": "x" * 300}}),
        TaskFinished(1, index, "read_file", "done", round=1, result="line\n" * 200),
        FileChanged(f"file-{index % 7}.txt", "modified", index),
        Notice("info", f"event {index}"),
    ]
    return kinds[index % len(kinds)]


def main() -> None:
    store = Store(Path(sys.argv[1]))
    run_id = store.start_run(store.create_conversation("killed"), "keep writing", "phase",
                             "scripted", "script", {"max_iterations": 30})
    print(f"run {run_id}", flush=True)
    recorder = Recorder(store, run_id)
    deadline = time.monotonic() + 60
    index = 0
    while time.monotonic() < deadline:
        print(recorder(events(index)), flush=True)
        index += 1


if __name__ == "__main__":
    main()
