"""The six stage tools: bounded JSON schemas and the validation of what a model returns.

Every schema is bounded (maxItems, maxLength, enums, integer ranges) so that even a
small grammar-constrained model produces valid JSON. ``parse_*`` functions take the
decoded arguments and return a typed object or raise ``SchemaError`` with a message
the model can act on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from core.schema import SchemaError, coerce
from core.engine.scheduler import find_cycle

MAX_PHASES = 5
MAX_TASKS = 8


def _str(most: int, description: str, least: int = 0) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "maxLength": most, "description": description}
    if least:
        schema["minLength"] = least
    return schema


def _strings(items: int, length: int, description: str) -> dict[str, Any]:
    return {"type": "array", "maxItems": items, "items": {"type": "string", "maxLength": length},
            "description": description}


def _int(low: int, high: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high, "description": description}


def _ids(items: int, description: str) -> dict[str, Any]:
    return {"type": "array", "maxItems": items, "items": _int(1, 99, "id"),
            "description": description}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


REQUEST_ANALYSER = _object({
    "core_goal": _str(300, "The core goal in one sentence.", least=3),
    "requirements": _strings(8, 200, "Concrete requirements, one per item."),
    "constraints": _strings(6, 200, "Constraints, e.g. 'must keep tests passing'."),
    "complexity": {"type": "string", "enum": ["simple", "medium", "complex"]},
    "estimated_phases": _int(1, MAX_PHASES, "How many phases the work needs."),
    "clarification_needed": {"type": "boolean",
                             "description": "True only if the request cannot be acted on."},
    "clarification_questions": _strings(3, 200, "Questions for the person, if needed."),
}, ["core_goal", "requirements", "constraints", "complexity", "estimated_phases",
    "clarification_needed", "clarification_questions"])

PHASE_PLANNER = _object({
    "phases": {"type": "array", "minItems": 1, "maxItems": MAX_PHASES, "items": _object({
        "id": _int(1, 99, "Phase id, unique."),
        "name": _str(60, "Short phase name.", least=1),
        "goal": _str(200, "What this phase must achieve.", least=3),
        "estimated_rounds": _int(1, 5, "Plan/Execute/Judge rounds this phase needs."),
        "dependencies": _ids(4, "Ids of phases that must finish first."),
    }, ["id", "name", "goal", "estimated_rounds", "dependencies"])},
    "execution_strategy": {"type": "string", "enum": ["sequential", "parallel"]},
    "total_estimated_rounds": _int(1, 25, "Sum of estimated rounds."),
}, ["phases", "execution_strategy", "total_estimated_rounds"])

JUDGE_TASKS = _object({
    "task_evaluation": {"type": "array", "maxItems": MAX_TASKS, "items": _object({
        "task_id": _int(1, 99, "Task id."),
        "status": {"type": "string", "enum": ["done", "failed", "partial"]},
        "quality_score": {"type": "number", "minimum": 0, "maximum": 10},
        "comment": _str(200, "Why this verdict."),
    }, ["task_id", "status", "quality_score", "comment"])},
    "completed_tasks": _ids(MAX_TASKS, "Ids of tasks that achieved their purpose."),
    "failed_tasks": _ids(MAX_TASKS, "Ids of tasks that failed."),
    "phase_completion_rate": {"type": "number", "minimum": 0, "maximum": 1},
    "phase_completed": {"type": "boolean", "description": "Is the phase goal reached?"},
    "user_summary": _str(500, "What this round achieved, for the person.", least=10),
    "next_action": {"type": "string",
                    "enum": ["continue_phase", "end_phase", "retry_failed", "replan"]},
    "failed_reason": _str(300, "Why tasks failed, if any."),
    "problem_level": {"type": "string", "enum": ["execution", "planning", "comprehension"],
                      "description": "Where a problem lies: the task execution, the plan, "
                                     "or the understanding of the request."},
}, ["task_evaluation", "completed_tasks", "failed_tasks", "phase_completion_rate",
    "phase_completed", "user_summary", "next_action", "failed_reason", "problem_level"])

THINK = _object({
    "internal_analysis": _str(500, "Your reasoning about the phase so far."),
    "user_summary": _str(300, "One line for the person."),
    "phase_completed": {"type": "boolean"},
    "continue_phase": {"type": "boolean"},
    "next_round_strategy": _str(300, "What the next round should do differently."),
}, ["internal_analysis", "user_summary", "phase_completed", "continue_phase",
    "next_round_strategy"])

SUMMARIZER = _object({
    "final_summary": _str(4000, "The complete summary for the person, in Markdown.", least=3),
    "phases_completed": _int(0, MAX_PHASES, "Phases completed."),
    "total_tasks_executed": _int(0, 1000, "Tasks executed."),
    "total_rounds": _int(0, 100, "Rounds run."),
    "highlights": _strings(6, 200, "Key results."),
    "quality_assessment": _str(100, "Overall quality in a few words."),
}, ["final_summary", "phases_completed", "total_tasks_executed", "total_rounds", "highlights",
    "quality_assessment"])


def plan_schema(tool_names: list[str], max_tasks: int = MAX_TASKS) -> dict[str, Any]:
    """plan_tool_call's schema: the task ``tool`` is an enum of the registered tools."""
    task = _object({
        "id": _int(1, 99, "Task id, unique in this plan."),
        "title": _str(80, "Short title.", least=1),
        "description": _str(300, "What the task does and why."),
        "tool": {"type": "string", "enum": list(tool_names)},
        "arguments": {"type": "object", "maxProperties": 6,
                      "description": "Arguments of the tool, as its parameters describe."},
        "priority": _int(1, 10, "10 = most important."),
        "dependencies": _ids(MAX_TASKS, "Ids of tasks in this plan that must finish first."),
    }, ["id", "title", "description", "tool", "arguments", "priority", "dependencies"])
    return _object({
        "reasoning": _str(300, "Why this plan."),
        "tasks": {"type": "array", "minItems": 1, "maxItems": max_tasks, "items": task},
    }, ["reasoning", "tasks"])


STAGE_DESCRIPTIONS = {
    "request_analyser": "Analyse the person's request into a structured requirement.",
    "phase_planner": "Split the structured requirement into 1-5 phases in dependency order.",
    "plan_tool_call": "Plan the tasks (tool calls) of this round of the current phase.",
    "judge_tasks": "Judge the tasks executed in this round and decide what happens next.",
    "think": "Reflect on the phase and decide whether to continue it.",
    "summarizer": "Write the final summary of the whole run for the person.",
}


def tool_definition(name: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": STAGE_DESCRIPTIONS[name],
                                             "parameters": parameters}}


@dataclass(frozen=True)
class Analysis:
    core_goal: str
    requirements: list[str]
    constraints: list[str]
    complexity: str
    estimated_phases: int
    clarification_needed: bool = False
    clarification_questions: list[str] = field(default_factory=list)

    def as_text(self) -> str:
        """The structured request as it enters the execution context."""
        lines = [f"[Goal] {self.core_goal}"]
        if self.requirements:
            lines.append("[Requirements] " + "; ".join(self.requirements))
        if self.constraints:
            lines.append("[Constraints] " + "; ".join(self.constraints))
        lines.append(f"[Complexity] {self.complexity}, about {self.estimated_phases} phase(s)")
        return "\n".join(lines)


def parse_analysis(args: dict[str, Any]) -> Analysis:
    data = coerce(args, REQUEST_ANALYSER)
    if data["clarification_needed"] and not data["clarification_questions"]:
        raise SchemaError("$.clarification_questions: give at least one question when "
                          "clarification_needed is true")
    return Analysis(**{name: data[name] for name in REQUEST_ANALYSER["properties"]})


def parse_phases(args: dict[str, Any]) -> dict[str, Any]:
    data = coerce(args, PHASE_PLANNER)
    ids = [p["id"] for p in data["phases"]]
    if len(set(ids)) != len(ids):
        raise SchemaError("$.phases: phase ids must be unique")
    graph = {p["id"]: [d for d in p["dependencies"]] for p in data["phases"]}
    for pid, deps in graph.items():
        unknown = [d for d in deps if d not in graph]
        if unknown:
            raise SchemaError(f"$.phases: phase {pid} depends on unknown phase(s) {unknown}")
    cycle = find_cycle(graph)
    if cycle:
        raise SchemaError("$.phases: dependency cycle " + " → ".join(map(str, cycle)))
    return data


def parse_plan(args: dict[str, Any], tool_names: list[str], max_tasks: int,
               check_arguments: Callable[[str, dict[str, Any]], None]) -> dict[str, Any]:
    """A valid plan; task arguments are checked against their tool's parameters."""
    if isinstance(args, dict) and isinstance(args.get("tasks"), list) \
            and len(args["tasks"]) > max_tasks:
        raise SchemaError(f"$.tasks: at most {max_tasks} tasks per round, got "
                          f"{len(args['tasks'])}; split the work over more rounds")
    data = coerce(args, plan_schema(tool_names, max_tasks))
    ids = [t["id"] for t in data["tasks"]]
    if len(set(ids)) != len(ids):
        raise SchemaError("$.tasks: task ids must be unique in a plan")
    for i, task in enumerate(data["tasks"]):
        try:
            task["arguments"] = coerce_arguments(task["tool"], task["arguments"], check_arguments)
        except SchemaError as exc:
            raise SchemaError(f"$.tasks[{i}] ({task['tool']}): {exc}") from None
    return data


def coerce_arguments(tool: str, arguments: dict[str, Any],
                     check: Callable[[str, dict[str, Any]], Any]) -> dict[str, Any]:
    result = check(tool, arguments)
    return result if isinstance(result, dict) else arguments


def parse_judge(args: dict[str, Any]) -> dict[str, Any]:
    return coerce(args, JUDGE_TASKS)


def parse_think(args: dict[str, Any]) -> dict[str, Any]:
    return coerce(args, THINK)


WORD = re.compile(r"[^\W\d_]{2,}")


def parse_summary(args: dict[str, Any]) -> dict[str, Any]:
    data = coerce(args, SUMMARIZER)
    if len(WORD.findall(data["final_summary"])) < 3:
        raise SchemaError("$.final_summary: describe the run in words (what was done, what "
                          "changed, what is left)")
    return data
