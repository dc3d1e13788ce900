"""Builders for scripted-model replies, so scenarios read like the run they describe."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from core.config import Settings
from core.events import Event
from core.llm.scripted import ScriptedModel
from core.engine.build import create_engine

Reply = dict[str, Any]


def analysis(goal: str = "Do the work", phases: int = 1, questions: list[str] | None = None,
             **extra: Any) -> Reply:
    """An analysis with the required fields; clarification only when ``questions`` are given."""
    args: dict[str, Any] = {"core_goal": goal, "requirements": ["do it well"],
                            "complexity": "simple" if phases == 1 else "complex",
                            "estimated_phases": phases}
    if questions:
        args.update(clarification_needed=True, clarification_questions=questions)
    args.update(extra)
    return {"tool": "request_analyser", "arguments": args}


def reading(kind: str = "change", *, change: tuple[str, ...] = (), create: tuple[str, ...] = (),
            read: tuple[str, ...] = (), forbid: tuple[str, ...] = (),
            examples: tuple[str, ...] = (), renames: tuple[tuple[str, str], ...] = (),
            tools: tuple[str, ...] = (), quotes: dict[str, str] | None = None) -> dict[str, Any]:
    """The reading fields of an analysis (``analysis(..., **reading(...))``): each file's quote
    is its path unless ``quotes`` gives one (by path, example code, tool or old name)."""
    said = quotes or {}
    files = [{"path": path, "role": role, "quote": said.get(path, path)}
             for role, paths in (("change", change), ("create", create), ("read", read),
                                 ("forbid", forbid)) for path in paths]
    fields: dict[str, Any] = {"kind": kind, "files": files,
                              "examples": [{**example_item(code), "quote": said.get(code, "")}
                                           for code in examples]}
    if renames:
        fields["renames"] = [{"old": old, "new": new, "quote": said.get(old, "")}
                             for old, new in renames]
    if tools:
        fields["tools"] = [{"name": name, "quote": said.get(name, "")} for name in tools]
    return fields


def example_item(code: str) -> dict[str, str]:
    """An example written as code (``f(1) == 2``, ``f("x") raises ValueError``) as the
    analysis schema's call and result."""
    for mark, prefix in ((" == ", ""), (" raises ", "raises ")):
        if mark in code:
            call, _, result = code.partition(mark)
            return {"call": call, "result": prefix + result}
    return {"call": code, "result": ""}


def phases(*specs: tuple[int, str, list[int]] | tuple[int, str, list[int], int],
           first_tasks: list[dict[str, Any]] | None = None) -> Reply:
    """A phase plan with the required fields; ids and dependencies only where they differ from
    the defaults (position; the phase before)."""
    items = []
    for position, spec in enumerate(specs, start=1):
        pid, name, deps = spec[0], spec[1], spec[2]
        rounds = spec[3] if len(spec) > 3 else 1  # type: ignore[misc]
        item: dict[str, Any] = {"name": name, "goal": f"goal of {name}",
                                "estimated_rounds": rounds}
        if pid != position:
            item["id"] = pid
        if deps != ([items[-1].get("id", position - 1)] if items else []):
            item["dependencies"] = deps
        items.append(item)
    arguments: dict[str, Any] = {"phases": items}
    if first_tasks:
        arguments["first_tasks"] = by_position(first_tasks)
    return {"tool": "phase_planner", "arguments": arguments}


def task(tid: int, tool: str, deps: list[int] | None = None, priority: int = 5,
         **arguments: Any) -> dict[str, Any]:
    """A planned task with the required fields; dependencies and priority only where set."""
    spec: dict[str, Any] = {"id": tid, "tool": tool, "arguments": arguments}
    if deps:
        spec["dependencies"] = deps
    if priority != 5:
        spec["priority"] = priority
    return spec


def by_position(tasks: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    """The tasks without the ids that equal their position (the default id)."""
    return [{k: v for k, v in t.items() if not (k == "id" and v == position)}
            for position, t in enumerate(tasks, start=1)]


def plan(*tasks: dict[str, Any], reasoning: str = "") -> Reply:
    arguments: dict[str, Any] = {"tasks": by_position(tasks)}
    if reasoning:
        arguments["reasoning"] = reasoning
    return {"tool": "plan_tool_call", "arguments": arguments}


def judge(done: list[int], failed: list[int] | None = None, *, completed: bool = True,
          action: str = "end_phase", level: str = "execution", quality: float | None = 9.0,
          summary: str = "The round did what was planned.", reason: str = "",
          next_tasks: list[dict[str, Any]] | None = None) -> Reply:
    """A verdict: verdicts only for the ``failed`` tasks (``done`` ones are plainly done and
    not listed); ``quality`` None leaves the round's quality to the engine's default."""
    arguments: dict[str, Any] = {"next_action": action, "user_summary": summary,
                                 "phase_completed": completed}
    if action == "continue_phase" and next_tasks and not completed:
        del arguments["next_action"]  # implied by next tasks for this phase
    if failed:
        arguments["task_evaluation"] = [{"task_id": t, "status": "failed", "quality_score": 2,
                                         "comment": "broken"} for t in failed]
    if quality is not None:
        arguments["quality_score"] = quality
    if reason:
        arguments["failed_reason"] = reason
    if level != "execution":
        arguments["problem_level"] = level
    if next_tasks:
        arguments["next_tasks"] = by_position(next_tasks)
    return {"tool": "judge_tasks", "arguments": arguments}


def think(completed: bool, cont: bool, strategy: str = "keep going") -> Reply:
    arguments: dict[str, Any] = {"user_summary": "thinking it over", "phase_completed": completed,
                                 "continue_phase": cont}
    if strategy:
        arguments["next_round_strategy"] = strategy
    return {"tool": "think", "arguments": arguments}


def summary(text: str = "## Done\n\n- everything went fine", highlights: list[str] | None = None
            ) -> Reply:
    return {"tool": "summarizer", "arguments": {
        "final_summary": text, "phases_completed": 1, "total_tasks_executed": 1,
        "total_rounds": 1, "highlights": highlights or ["it worked"],
        "quality_assessment": "good"}}


def authored(content: str, path: str = "", language: str = "python",
             before: str = "Here is the file:") -> Reply:
    """An authoring reply as models write it: a line of text, the file's name, the fenced
    file."""
    named = f"{path}\n" if path else ""
    return {"text": f"{before}\n\n{named}```{language}\n{content}```\n"}


def error(status: int, message: str = "server exploded") -> Reply:
    return {"error": {"status": status, "message": message}}


def settings(**values: Any) -> Settings:
    """Settings of a scripted run: approvals automatic, Think only where a verdict is open."""
    base = {"think_stage": "auto", "command_approval": "auto", "write_approval": "auto",
            "assists_off": ""}
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


def files_workspace(root: Path, files: dict[str, str]) -> Path:
    """A workspace folder ``root/ws`` holding ``files`` (relative path → text)."""
    folder = root / "ws"
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def one_file_workspace(root: Path, name: str, text: str) -> Path:
    """A workspace folder ``root/ws`` holding one file ``name`` with ``text``."""
    folder = root / "ws"
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    return folder
