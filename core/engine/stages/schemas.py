"""The six stage tools: bounded JSON schemas and the validation of what a model returns.

Every schema is bounded (maxItems, maxLength, enums, integer ranges) so that even a
small grammar-constrained model produces valid JSON. Schemas ask only for what the engine
uses: what the engine knows itself (which tasks ran, which failed, rates, totals) is never
asked back, and fields with a sensible default are optional — every token a model
generates costs time. ``parse_*`` functions take the decoded arguments and return a typed
result (``stage_results``) with the defaults filled in, or raise ``SchemaError`` with a
message the model can act on. Plans (and phase plans) are repaired rather than refused where that is safe
(``task_specs``): what was repaired is listed in the result's ``notes``.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Mapping

from core.shapes.stage_results import Analysis, NextAction, PhasePlan, Plan, PlannedPhase, \
    RequirementClaim, SummaryReply, TaskVerdict, ThinkDecision, Verdict, from_fields
from core.engine.language import word_count
from core.engine.stages.reading_schema import READING, READING_REQUIRED, raw_reading
from core.engine.stages.task_specs import Check, checked_tasks, repair_dependencies, task_schema
from core.schema import SchemaError, coerce

MAX_PHASES = 5
MAX_TASKS = 8
DEFAULT_QUALITY = 8.0


def _str(most: int, description: str, least: int = 0) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "maxLength": most, "description": description}
    if least:
        schema["minLength"] = least
    return schema


def _strings(items: int, length: int, description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "array", "maxItems": items,
                              "items": {"type": "string", "maxLength": length}}
    if description:
        schema["description"] = description
    return schema


def _int(low: int, high: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high, "description": description}


def _number(low: float, high: float, description: str) -> dict[str, Any]:
    return {"type": "number", "minimum": low, "maximum": high, "description": description}


def _ids(items: int, description: str) -> dict[str, Any]:
    return {"type": "array", "maxItems": items, "items": _int(1, 99, "id"),
            "description": description}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


# The analyser's system prompt (prompts.ANALYSER_SYSTEM) says what core_goal, requirements,
# complexity, estimated_phases and clarification_needed mean; their schema says it not again.
REQUEST_ANALYSER = _object({
    "core_goal": {"type": "string", "maxLength": 300, "minLength": 3},
    "requirements": {"type": "array", "maxItems": 8, "items": _object({
        "requirement": {"type": "string", "maxLength": 200},
        "quote": _str(200, "The words of the request it comes from, copied exactly."),
    }, ["requirement", "quote"])},
    "constraints": _strings(6, 200, "Constraints, e.g. 'must keep tests passing'; default none."),
    "complexity": {"type": "string", "enum": ["simple", "medium", "complex"]},
    "estimated_phases": {"type": "integer", "minimum": 1, "maximum": MAX_PHASES},
    "clarification_needed": {"type": "boolean"},
    "clarification_questions": _strings(3, 200, "Questions for the person, if needed."),
    "language": _str(40, "The request's language."),
    **READING,
}, ["core_goal", "requirements", "complexity", "estimated_phases", *READING_REQUIRED])

ANALYSIS_WITHOUT_READING = {**REQUEST_ANALYSER, "properties": {
    key: value for key, value in REQUEST_ANALYSER["properties"].items() if key not in READING},
    "required": [key for key in REQUEST_ANALYSER["required"] if key not in READING]}

PHASE_PLANNER = _object({
    "phases": {"type": "array", "minItems": 1, "maxItems": MAX_PHASES, "items": _object({
        "id": _int(1, 99, "Phase id, unique; default: its position (1, 2, ...)."),
        "name": _str(60, "Short phase name.", least=1),
        "goal": _str(200, "What this phase must achieve.", least=3),
        "estimated_rounds": _int(1, 5, "Plan/Execute/Judge rounds this phase needs."),
        "dependencies": _ids(4, "Ids of phases that must finish first; default: the phase "
                                "before it (none when the strategy is parallel)."),
    }, ["name", "goal", "estimated_rounds"])},
    "execution_strategy": {"type": "string", "enum": ["sequential", "parallel"],
                           "description": "Default sequential."},
}, ["phases"])

VERDICT = _object({
    "task_id": {"type": "integer", "minimum": 1, "maximum": 99},
    "status": {"type": "string", "enum": ["done", "failed", "partial"]},
    "quality_score": {"type": "number", "minimum": 0, "maximum": 10},
    "comment": _str(160, "Why."),
}, ["task_id", "status", "quality_score", "comment"])

THINK = _object({
    "internal_analysis": _str(300, "Your reasoning about the phase so far, briefly."),
    "user_summary": _str(200, "One line for the person."),
    "phase_completed": {"type": "boolean"},
    "continue_phase": {"type": "boolean"},
    "next_round_strategy": _str(200, "What the next round should do differently."),
}, ["user_summary", "phase_completed", "continue_phase"])

SUMMARY_CHARS = 1500  # what a small model writes in one go without losing the JSON

SUMMARIZER = _object({
    "final_summary": _str(SUMMARY_CHARS, "The summary for the person, in Markdown: at most "
                          "about 200 words.", least=3),
    "highlights": _strings(4, 120, "Key results; default none."),
    "quality_assessment": _str(60, "Overall quality in a few words."),
    # what requirements holds is said by the summarizer's instruction (prompts.py)
    "requirements": {"type": "array", "maxItems": 8, "items": _object({
        "requirement": {"type": "string", "maxLength": 120},
        "status": {"type": "string", "enum": ["done", "failed", "not_attempted"]},
        "evidence": {"type": "string", "maxLength": 120},
    }, ["requirement", "status", "evidence"])},
}, ["final_summary", "requirements"])


def plan_schema(tool_names: list[str], max_tasks: int = MAX_TASKS,
                parameters: Mapping[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """plan_tool_call's schema; with ``parameters``, each task's arguments follow its tool."""
    return _object({
        "reasoning": _str(200, "Why this plan, briefly."),
        "tasks": {"type": "array", "minItems": 1, "maxItems": max_tasks,
                  "items": task_schema(tool_names, parameters)},
    }, ["tasks"])


def phase_planner_schema(tool_names: list[str], max_tasks: int = MAX_TASKS,
                         parameters: Mapping[str, dict[str, Any]] | None = None
                         ) -> dict[str, Any]:
    """phase_planner's schema: the phases, and optionally the first phase's first tasks."""
    schema = copy.deepcopy(PHASE_PLANNER)
    schema["properties"]["first_tasks"] = {
        "type": "array", "maxItems": max_tasks, "items": task_schema(tool_names, parameters),
        "description": "The first round's tasks of the phase that runs first, if known."}
    return schema


def judge_schema(tool_names: list[str], max_tasks: int = MAX_TASKS,
                 parameters: Mapping[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """judge_tasks's schema: the verdict, and optionally the next round's tasks (which tasks
    to evaluate and when to give next tasks is said by ``prompts.judge_instruction``)."""
    return _object({
        "next_action": {"type": "string",
                        "enum": ["continue_phase", "end_phase", "retry_failed", "replan"]},
        "user_summary": _str(300, "For the person: what the round achieved, 1-2 sentences.",
                             least=10),
        "phase_completed": {"type": "boolean", "description": "Is the phase goal reached?"},
        "task_evaluation": {"type": "array", "maxItems": MAX_TASKS, "items": VERDICT},
        "quality_score": _number(0, 10, "Default 8."),
        "failed_reason": _str(200, "Why something failed or is missing."),
        "problem_level": {"type": "string", "enum": ["execution", "planning", "comprehension"]},
        "next_tasks": {"type": "array", "maxItems": max_tasks,
                       "items": task_schema(tool_names, parameters)},
    }, ["user_summary", "phase_completed"])


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


def parse_analysis(args: dict[str, Any]) -> Analysis:
    """A valid analysis; a clarification without a concrete question is ignored."""
    given = args.get("requirements") if isinstance(args, dict) else None
    if isinstance(given, list):  # plain strings, as older replies and scripts give them
        args = {**args, "requirements": [{"requirement": r, "quote": ""} if isinstance(r, str)
                                         else r for r in given]}
    if not isinstance(args, dict):
        coerce(args, ANALYSIS_WITHOUT_READING)  # raises the schema's error for a non-object
    reading = raw_reading(args)
    args = {key: value for key, value in args.items() if key not in READING}
    data = coerce(args, ANALYSIS_WITHOUT_READING)
    questions = [q for q in data.get("clarification_questions", []) if concrete_question(q)]
    items = [r for r in data["requirements"] if r["requirement"].strip()]
    return Analysis(core_goal=data["core_goal"],
                    requirements=[r["requirement"].strip() for r in items],
                    quotes=[r.get("quote", "") for r in items],
                    constraints=data.get("constraints", []), complexity=data["complexity"],
                    estimated_phases=data["estimated_phases"],
                    clarification_needed=bool(data.get("clarification_needed")) and bool(questions),
                    clarification_questions=questions, language=data.get("language", ""),
                    reading=reading)


def concrete_question(text: str) -> bool:
    """A question a person could answer: two words asked ("Which file?", "哪个文件？") or
    four said (two Han characters count as a word)."""
    words = word_count(text)
    return words >= 4 or (words >= 2 and text.strip().endswith(("?", "？")))


def parse_phases(args: dict[str, Any]) -> PhasePlan:
    """A valid phase plan with the defaults filled in: ids by position, and each phase
    depending on the one before it unless the strategy is parallel. Duplicate ids are an
    error; unknown dependencies and cycles are removed, each with a note."""
    data = coerce(args, PHASE_PLANNER)
    strategy = data.get("execution_strategy", "sequential")
    for position, phase in enumerate(data["phases"], start=1):
        phase.setdefault("id", position)
    for before, phase in zip([None] + data["phases"], data["phases"]):
        phase.setdefault("dependencies",
                         [before["id"]] if before and strategy == "sequential" else [])
    ids = [p["id"] for p in data["phases"]]
    if len(set(ids)) != len(ids):
        raise SchemaError("$.phases: phase ids must be unique")
    notes: list[str] = []
    repair_dependencies({p["id"]: p["dependencies"] for p in data["phases"]}, "phase", notes)
    phases = tuple(PlannedPhase(id=p["id"], name=p["name"], goal=p["goal"],
                                estimated_rounds=p["estimated_rounds"],
                                dependencies=tuple(p["dependencies"])) for p in data["phases"])
    return PhasePlan(phases=phases, execution_strategy=strategy, notes=tuple(notes))


def parse_phase_plan(args: dict[str, Any], tool_names: list[str], max_tasks: int,
                     check_arguments: Check) -> PhasePlan:
    """A valid phase plan (see ``parse_phases``) with ``first_tasks`` checked like a plan's."""
    first = args.get("first_tasks", []) if isinstance(args, dict) else []
    plan = parse_phases({k: v for k, v in args.items() if k != "first_tasks"}
                        if isinstance(args, dict) else args)
    _most(first, max_tasks, "$.first_tasks")
    notes = list(plan.notes)
    tasks = checked_tasks(first, "$.first_tasks", tool_names, check_arguments, notes)
    return replace(plan, first_tasks=tasks, notes=tuple(notes))


def _most(tasks: Any, max_tasks: int, where: str) -> None:
    if isinstance(tasks, list) and len(tasks) > max_tasks:
        raise SchemaError(f"{where}: at most {max_tasks} tasks per round, got {len(tasks)}; "
                          "split the work over more rounds")


def parse_plan(args: dict[str, Any], tool_names: list[str], max_tasks: int,
               check_arguments: Check) -> Plan:
    """A plan of the usable tasks; ``notes`` says what was repaired or dropped."""
    if isinstance(args, dict):
        _most(args.get("tasks"), max_tasks, "$.tasks")
    outline = plan_schema(tool_names, max_tasks)
    outline["properties"]["tasks"]["items"] = {}
    data = coerce(args, outline)
    notes: list[str] = []
    tasks = checked_tasks(data["tasks"], "$.tasks", tool_names, check_arguments, notes,
                          allow_empty=False)
    return Plan(tasks=tasks, reasoning=data.get("reasoning", ""), notes=tuple(notes))


def parse_judge(args: dict[str, Any], tool_names: list[str], max_tasks: int,
                check_arguments: Check) -> Verdict:
    """A valid verdict with the defaults filled in; ``next_tasks`` checked like a plan's."""
    if isinstance(args, dict):
        _most(args.get("next_tasks"), max_tasks, "$.next_tasks")
    outline = judge_schema(tool_names, max_tasks)
    outline["properties"]["next_tasks"]["items"] = {}
    data = coerce(args, outline)
    action = data.get("next_action") or implied_action(data)
    failed_reason = data.get("failed_reason", "")
    notes: list[str] = []
    next_tasks = checked_tasks(data.get("next_tasks", []), "$.next_tasks", tool_names,
                               check_arguments, notes)
    return Verdict(
        user_summary=data["user_summary"], next_action=action,
        phase_completed=data["phase_completed"],
        task_evaluation=tuple(from_fields(TaskVerdict, v)
                              for v in data.get("task_evaluation", [])),
        quality_score=data.get("quality_score", DEFAULT_QUALITY), failed_reason=failed_reason,
        problem_level=data.get("problem_level", "execution"), next_tasks=next_tasks,
        notes=tuple(notes))


def implied_action(verdict: dict[str, Any]) -> NextAction:
    """The next action a verdict without one implies (small models leave the optional field
    out): a reached goal ends the phase, anything else goes on (with the next tasks when it
    gives them; without, the verdict is open and Think settles it)."""
    if verdict.get("phase_completed") and not verdict.get("next_tasks"):
        return "end_phase"
    return "continue_phase"


def parse_think(args: dict[str, Any]) -> ThinkDecision:
    data = coerce(args, THINK)
    return ThinkDecision(user_summary=data["user_summary"],
                         phase_completed=data["phase_completed"],
                         continue_phase=data["continue_phase"],
                         internal_analysis=data.get("internal_analysis", ""),
                         next_round_strategy=data.get("next_round_strategy", ""))


def parse_summary(args: dict[str, Any]) -> SummaryReply:
    """A valid summary; a missing ``requirements`` list is accepted (the engine completes the
    checklist from its own record)."""
    if isinstance(args, dict) and "requirements" not in args:
        args = {**args, "requirements": []}
    data = coerce(args, SUMMARIZER)
    if word_count(data["final_summary"]) < 3:
        raise SchemaError("$.final_summary: describe the run in words (what was done, what "
                          "changed, what is left)")
    return SummaryReply(final_summary=data["final_summary"],
                        highlights=tuple(data.get("highlights", [])),
                        quality_assessment=data.get("quality_assessment", ""),
                        requirements=tuple(from_fields(RequirementClaim, r)
                                          for r in data["requirements"]))
