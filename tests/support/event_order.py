"""Comparing event streams of runs whose independent tasks ran concurrently.

Tasks of one level run at the same time, so their ``task_started``/``task_finished``/
``file_changed`` events interleave differently from run to run. ``canonical`` sorts each
uninterrupted block of such events by task id, keeping everything else in order. Progress
events (``core.events.PROGRESS_TYPES``: a call under way, a reply as it was written) depend on
timing and on whether the model streamed, and are not part of a run's record: left out.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from core.events import PROGRESS_TYPES

T = TypeVar("T")
CONCURRENT = ("task_started", "file_changed", "task_finished")


def canonical(events: list[dict[str, Any]],
              project: Callable[[dict[str, Any]], T] = lambda e: e) -> list[T]:  # type: ignore[assignment,return-value]
    result: list[T] = []
    block: list[dict[str, Any]] = []

    def flush() -> None:
        block.sort(key=lambda e: (e.get("task_id", 0), CONCURRENT.index(e["kind"])))
        result.extend(project(e) for e in block)
        block.clear()

    for event in events:
        if event["kind"] in PROGRESS_TYPES:
            continue
        if event["kind"] in CONCURRENT:
            block.append(event)
        else:
            flush()
            result.append(project(event))
    flush()
    return result
