"""Builders for scripted-model replies, so scenarios read like the run they describe."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from core.config import Settings
from core.events import Event
from core.llm.scripted import ScriptedModel
from core.engine.runner import create_engine

Reply = dict[str, Any]


def analysis(goal: str = "Do the work", phases: int = 1, questions: list[str] | None = None,
             **extra: Any) -> Reply:
    args = {"core_goal": goal, "requirements": ["do it well"], "constraints": [],
            "complexity": "simple" if phases == 1 else "complex", "estimated_phases": phases,
            "clarification_needed": bool(questions), "clarification_questions": questions or []}
    args.update(extra)
    return {"tool": "request_analyser", "arguments": args}


def phases(*specs: tuple[int, str, list[int]] | tuple[int, str, list[int], int]) -> Reply:
    items = []
    for spec in specs:
        pid, name, deps = spec[0], spec[1], spec[2]
        rounds = spec[3] if len(spec) > 3 else 1  # type: ignore[misc]
        items.append({"id": pid, "name": name, "goal": f"goal of {name}",
                      "estimated_rounds": rounds, "dependencies": deps})
    return {"tool": "phase_planner", "arguments": {
        "phases": items, "execution_strategy": "sequential",
        "total_estimated_rounds": sum(i["estimated_rounds"] for i in items)}}


def task(tid: int, tool: str, deps: list[int] | None = None, priority: int = 5,
         **arguments: Any) -> dict[str, Any]:
    return {"id": tid, "title": f"{tool} #{tid}", "description": f"run {tool}", "tool": tool,
            "arguments": arguments, "priority": priority, "dependencies": deps or []}


def plan(*tasks: dict[str, Any], reasoning: str = "the obvious next steps") -> Reply:
    return {"tool": "plan_tool_call", "arguments": {"reasoning": reasoning, "tasks": list(tasks)}}


def judge(done: list[int], failed: list[int] | None = None, *, completed: bool = True,
          action: str = "end_phase", level: str = "execution", quality: float = 9.0,
          summary: str = "The round did what was planned.", reason: str = "") -> Reply:
    failed = failed or []
    evaluation = [{"task_id": t, "status": "done", "quality_score": quality, "comment": "fine"}
                  for t in done]
    evaluation += [{"task_id": t, "status": "failed", "quality_score": 2, "comment": "broken"}
                   for t in failed]
    return {"tool": "judge_tasks", "arguments": {
        "task_evaluation": evaluation, "completed_tasks": done, "failed_tasks": failed,
        "phase_completion_rate": 1.0 if completed else 0.5, "phase_completed": completed,
        "user_summary": summary, "next_action": action, "failed_reason": reason,
        "problem_level": level}}


def think(completed: bool, cont: bool, strategy: str = "keep going") -> Reply:
    return {"tool": "think", "arguments": {
        "internal_analysis": "looked at the results", "user_summary": "thinking it over",
        "phase_completed": completed, "continue_phase": cont, "next_round_strategy": strategy}}


def summary(text: str = "## Done\n\n- everything went fine", highlights: list[str] | None = None
            ) -> Reply:
    return {"tool": "summarizer", "arguments": {
        "final_summary": text, "phases_completed": 1, "total_tasks_executed": 1,
        "total_rounds": 1, "highlights": highlights or ["it worked"],
        "quality_assessment": "good"}}


def error(status: int, message: str = "server exploded") -> Reply:
    return {"error": {"status": status, "message": message}}


def settings(**values: Any) -> Settings:
    base = {"think_stage": "auto", "command_approval": "auto", "write_approval": "auto"}
    base.update(values)
    return Settings(**base)


async def collect(replies: list[Reply], workspace: Path, request: str = "please do the work",
                  **settings_values: Any) -> tuple[list[Event], ScriptedModel]:
    model = ScriptedModel(replies)
    engine = create_engine(settings(**settings_values), workspace, model=model)
    events = [event async for event in engine.run(request)]
    return events, model


def run(replies: list[Reply], workspace: Path, request: str = "please do the work",
        **settings_values: Any) -> tuple[list[Event], ScriptedModel]:
    return asyncio.run(collect(replies, workspace, request, **settings_values))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]
