"""A Task: one planned tool call inside a phase round, with its status machine."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from core.events import TaskStatus

_TRANSITIONS: dict[str, frozenset[str]] = {
    "pending": frozenset({"running", "blocked", "skipped", "failed"}),
    "running": frozenset({"done", "failed"}),
    "done": frozenset(),
    "failed": frozenset(),
    "blocked": frozenset(),
    "skipped": frozenset(),
}


class IllegalTransition(RuntimeError):
    """A status change the state machine does not allow (an engine bug, never model input)."""


@dataclass
class Task:
    id: int
    title: str
    description: str
    tool: str
    arguments: dict[str, Any]
    status: TaskStatus = "pending"
    priority: int = 5
    dependencies: list[int] = field(default_factory=list)
    result: str = ""
    error: str = ""
    quality_score: float | None = None
    round: int = 0
    started_at: float | None = None
    finished_at: float | None = None
    changed: list[str] = field(default_factory=list)  # files this task's run changed
    estimated_tokens: int = 0
    candidates: list[dict[str, Any]] = field(default_factory=list)  # versions its write weighed

    def move(self, status: TaskStatus) -> None:
        if status not in _TRANSITIONS[self.status]:
            raise IllegalTransition(f"task {self.id}: {self.status} → {status} is not allowed")
        now = time.monotonic()
        if status == "running":
            self.started_at = now
        else:
            self.finished_at = now
        self.status = status

    def finish(self, ok: bool, result: str, error: str = "") -> None:
        self.result = result
        self.error = error
        self.move("done" if ok else "failed")

    @property
    def elapsed_s(self) -> float:
        if self.started_at is None or self.finished_at is None:
            return 0.0
        return round(self.finished_at - self.started_at, 3)

    @property
    def finished(self) -> bool:
        return self.status in ("done", "failed", "blocked", "skipped")

    def card(self) -> dict[str, Any]:
        """What the page shows of a planned task."""
        return {"id": self.id, "title": self.title, "description": self.description,
                "tool": self.tool, "arguments": self.arguments, "priority": self.priority,
                "dependencies": list(self.dependencies)}
