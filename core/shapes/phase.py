"""A Phase: a goal worked on in rounds of Plan/Execute/Judge/Think, with its metrics."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from core.shapes.stage_results import ThinkDecision, Verdict
from core.shapes.task import Task

PhaseStatus = Literal["pending", "running", "completed", "incomplete", "failed", "stopped",
                      "superseded", "blocked"]


@dataclass
class Phase:
    id: int
    name: str
    goal: str
    estimated_rounds: int = 1
    dependencies: list[int] = field(default_factory=list)
    max_rounds: int = 3
    # pending → running → completed | incomplete | failed | stopped; pending → blocked (a
    # phase it depends on failed, was blocked or did nothing); pending → superseded
    status: PhaseStatus = "pending"
    tasks: list[Task] = field(default_factory=list)
    rounds: int = 0
    summaries: list[str] = field(default_factory=list)
    judgements: list[Verdict] = field(default_factory=list)
    thoughts: list[ThinkDecision] = field(default_factory=list)
    consecutive_retries: int = 0
    failed_reason: str = ""
    problem_level: str = ""
    started_at: float | None = None
    finished_at: float | None = None
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def user_summary(self) -> str:
        return self.summaries[-1] if self.summaries else ""

    @property
    def completion_rate(self) -> float:
        return completion_rate(self.tasks)

    @property
    def success_rate(self) -> float:
        return success_rate(self.tasks)

    @property
    def quality_average(self) -> float | None:
        return quality_average(self.tasks)

    def metrics(self) -> dict[str, float | None]:
        return {"completion_rate": self.completion_rate, "success_rate": self.success_rate,
                "quality_average": self.quality_average}


def completion_rate(tasks: list[Task]) -> float:
    """Share of planned tasks that ended done."""
    if not tasks:
        return 0.0
    return round(sum(t.status == "done" for t in tasks) / len(tasks), 3)


def success_rate(tasks: list[Task]) -> float:
    """Share of executed tasks (done or failed) that succeeded; blocked ones never ran."""
    executed = [t for t in tasks if t.status in ("done", "failed")]
    if not executed:
        return 0.0
    return round(sum(t.status == "done" for t in executed) / len(executed), 3)


def scored(tasks: list[Task]) -> int:
    """How many of the tasks the judge gave a quality score."""
    return sum(t.quality_score is not None for t in tasks)


def quality_average(tasks: list[Task]) -> float | None:
    """The average quality of the tasks the judge scored; None when it scored none (a task
    it did not score has no quality, not a default one)."""
    scores = [t.quality_score for t in tasks if t.quality_score is not None]
    if not scores:
        return None
    return round(sum(scores) / len(scores), 2)


def describe_quality(average: float | None, scored_count: int | None,
                     total: int | None = None) -> str:
    """The average quality for a person: "7.5 avg · 2 of 3 scored", "none scored", or the bare
    average of a run recorded before scores were counted (``scored_count`` None)."""
    if scored_count is None:
        return f"{average or 0.0:.1f}/10"
    if not scored_count or average is None:
        return "none scored"
    of = f" of {total}" if total is not None else ""
    return f"{average:.1f} avg · {scored_count}{of} scored"
