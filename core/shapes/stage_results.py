"""What each stage call gives the engine: typed, validated, defaults filled in.

``core.engine.stages.schemas`` parses a stage's arguments once into one of these; the engine reads
fields, never string keys of the model's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar

Complexity = Literal["simple", "medium", "complex"]
Strategy = Literal["sequential", "parallel"]
NextAction = Literal["continue_phase", "end_phase", "retry_failed", "replan"]
ProblemLevel = Literal["execution", "planning", "comprehension"]
JudgedStatus = Literal["done", "failed", "partial"]
RequirementStatus = Literal["done", "failed", "not_attempted"]
T = TypeVar("T")


REQUIREMENT_CHARS = 120  # of each requirement in the structured request (plans write no code)


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= REQUIREMENT_CHARS else line[:REQUIREMENT_CHARS - 1] + "…"


def from_fields(cls: type[T], data: dict[str, Any]) -> T:
    """``cls`` built from the entries of ``data`` it has fields for (a model may add others)."""
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class TaskSpec:
    """A planned task as the model wrote it, repaired: ``dependencies`` may still grow (a
    ``"$N"`` argument makes the task wait for task N)."""

    id: int
    tool: str
    arguments: dict[str, Any]
    title: str = ""
    description: str = ""
    priority: int = 5
    dependencies: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Analysis:
    core_goal: str
    requirements: list[str]
    constraints: list[str]
    complexity: Complexity
    estimated_phases: int
    clarification_needed: bool = False
    clarification_questions: list[str] = field(default_factory=list)
    language: str = ""  # the request's; the engine settles it (``core.engine.language``)
    quotes: list[str] = field(default_factory=list)  # each requirement's words of the request
    assumptions: list[str] = field(default_factory=list)  # requirements the person did not state
    reading: dict[str, Any] = field(default_factory=dict)  # the model's reading, unchecked

    def as_text(self, complexity: bool = True) -> str:
        """The structured request as it enters the execution context; without
        ``complexity``, as the summary call gets it (it plans nothing)."""
        lines = [f"[Goal] {self.core_goal}"]
        if self.requirements:
            lines.append("[Requirements] " + "; ".join(map(_short, self.requirements)))
        if self.assumptions:
            lines.append("[Assumptions, not stated by the person: only where the requirements "
                         "need them, after them] " + "; ".join(map(_short, self.assumptions)))
        if self.constraints:
            lines.append("[Constraints] " + "; ".join(self.constraints))
        if complexity:
            lines.append(f"[Complexity] {self.complexity}, about {self.estimated_phases} "
                         "phase(s)")
        return "\n".join(lines)


@dataclass(frozen=True)
class PlannedPhase:
    id: int
    name: str
    goal: str
    estimated_rounds: int
    dependencies: tuple[int, ...] = ()

    def card(self) -> dict[str, Any]:
        """What the page and the history show of it."""
        return {"id": self.id, "name": self.name, "goal": self.goal,
                "estimated_rounds": self.estimated_rounds,
                "dependencies": list(self.dependencies)}


@dataclass(frozen=True)
class PhasePlan:
    phases: tuple[PlannedPhase, ...]
    execution_strategy: Strategy = "sequential"
    first_tasks: tuple[TaskSpec, ...] = ()
    notes: tuple[str, ...] = ()  # what was repaired


@dataclass(frozen=True)
class Plan:
    tasks: tuple[TaskSpec, ...]
    reasoning: str = ""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TaskVerdict:
    task_id: int
    status: JudgedStatus
    quality_score: float
    comment: str


@dataclass(frozen=True)
class Verdict:
    """The judge's verdict on a round."""

    user_summary: str
    next_action: NextAction
    phase_completed: bool
    task_evaluation: tuple[TaskVerdict, ...] = ()
    quality_score: float = 8.0
    failed_reason: str = ""
    problem_level: ProblemLevel = "execution"
    next_tasks: tuple[TaskSpec, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class ThinkDecision:
    user_summary: str
    phase_completed: bool
    continue_phase: bool
    internal_analysis: str = ""
    next_round_strategy: str = ""


@dataclass(frozen=True)
class RequirementClaim:
    requirement: str
    status: RequirementStatus
    evidence: str

    def as_dict(self) -> dict[str, str]:
        return {"requirement": self.requirement, "status": self.status,
                "evidence": self.evidence}


@dataclass(frozen=True)
class SummaryReply:
    final_summary: str
    highlights: tuple[str, ...] = ()
    quality_assessment: str = ""
    requirements: tuple[RequirementClaim, ...] = ()
