"""The Execute stage: run a round's tasks in dependency order, independent ones at once.

Tasks refused by the scheduler (cycles, unknown dependencies) fail before anything
runs; a task whose dependency did not succeed is ``blocked``; at most
``max_parallel`` tasks run at the same time, and two tasks writing the same path
never overlap. A write by instruction asks the authoring stage for the file's new content
(a typed ``Candidate``) and then calls the registry's own ``write_file`` with it, which asks
for approval showing the diff; a file the stage keeps as it is is not written. A run whose
request forbids changes refuses every write before any model call. Tool failures become
failed tasks, never exceptions.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import AsyncExitStack
from dataclasses import replace
from typing import Callable

from core.approval import ApprovalBroker
from core.engine.authoring.candidates import tried_line
from core.engine.authoring.records import Candidate
from core.engine.authoring.stage import AuthoringStage
from core.engine.execution.offered import WRITE, is_authoring
from core.engine.execution.placeholders import resolve, unfilled
from core.engine.execution.scheduler import schedule
from core.engine.stages.caller import assistant_calls, tool_message
from core.events import Event, SandboxMark, TaskFinished, TaskStarted
from core.llm.base import Message, ToolCall
from core.shapes.mcp_server import SEPARATOR
from core.shapes.task import Task
from core.tools.base import ApprovalAction, RunState, ToolContext, ToolManager, ToolResult
from core.tools.secret_files import held_lines

UI_RESULT_CAP = 200_000
MODEL_RESULT_CAP = 4_000
SUCCEEDED = ("done", "skipped")


class TaskRunner:
    def __init__(self, tools: ToolManager, run: RunState, approvals: ApprovalBroker,
                 emit: Callable[[Event], None], max_parallel: int,
                 authoring: AuthoringStage | None = None,
                 refused: Callable[[set[str]], str] = lambda paths: "") -> None:
        """``authoring``: the stage that writes a file's content for a write by instruction;
        ``refused``: the error for a call that writes the given paths when the request does
        not let the run change them ("" when it may run)."""
        self.tools = tools
        self.run = run
        self.approvals = approvals
        self.emit = emit
        self.authoring = authoring
        self.refused = refused
        self._slots = asyncio.Semaphore(max_parallel)
        self._path_locks: dict[str, asyncio.Lock] = {}

    async def execute(self, tasks: list[Task], phase_id: int) -> None:
        """Run the tasks still pending; a task finished before (skipped) counts as done for
        the tasks that depend on it, and ``"$N"`` arguments get task N's result."""
        by_id = {t.id: t for t in tasks}
        plan = schedule({t.id: t.dependencies for t in tasks}, {t.id: t.priority for t in tasks})
        for task_id, reason in plan.refused.items():
            if not by_id[task_id].finished:
                self._finish_unrun(by_id[task_id], phase_id, "failed", f"not run: {reason}")
        for level in plan.levels:
            runnable = []
            for task_id in level:
                task = by_id[task_id]
                if task.finished:
                    continue
                bad = [d for d in task.dependencies if by_id[d].status not in SUCCEEDED]
                if bad:
                    self._finish_unrun(task, phase_id, "blocked",
                                       f"blocked: dependency {', '.join(map(str, bad))} "
                                       "did not succeed")
                else:
                    task.arguments = resolve(task.arguments, {
                        t.id: t.result for t in tasks if t.status in SUCCEEDED})
                    written = {str(p) for p in self.tools.written_paths(task.tool,
                                                                        task.arguments)}
                    problem = unfilled(task.arguments, written) if written else ""
                    if problem:
                        self._finish_unrun(task, phase_id, "failed", f"not run: {problem}")
                    else:
                        runnable.append(task)
            await asyncio.gather(*(self._run_one(t, phase_id) for t in runnable))

    async def _call(self, task: Task, ctx: ToolContext) -> ToolResult:
        """One task's tool call: refused when the request forbids the change it makes (or
        only reads the file it writes), a write by instruction through the authoring stage,
        any other call as it is."""
        refused = self.refused(self.tools.written_paths(task.tool, task.arguments))
        if refused:
            return ToolResult(False, error=refused)
        if not is_authoring(task.tool, task.arguments):
            if task.tool == WRITE and "content" not in task.arguments:
                return ToolResult(False, error="write_file needs an instruction: say what the "
                                               "file must contain or what must change")
            result = await self.tools.execute(task.tool, task.arguments, ctx)
            if task.tool == "run_command" or SEPARATOR in task.tool:  # not read through the gate
                result = replace(result, output=await asyncio.to_thread(held_lines, result.output),
                                 error=await asyncio.to_thread(held_lines, result.error))
            return result
        if self.authoring is None:
            return ToolResult(False, error="authored writes are not available here")
        path = str(task.arguments.get("path", ""))
        candidate = await self.authoring.candidate(path, str(task.arguments["instruction"]),
                                                   task.id)
        task.candidates = [dict(tried) for tried in candidate.tried]
        return await self._write(candidate, ctx)

    async def _write(self, candidate: Candidate, ctx: ToolContext) -> ToolResult:
        """The authoring stage's candidate written with the registry's ``write_file``."""
        assert self.authoring is not None
        if candidate.content is None:
            return ToolResult(False, error=f"{candidate.path} was not written: "
                                           f"{candidate.problem}")
        if candidate.kept:
            return ToolResult(True, output=f"kept {candidate.path} as it was: "
                                           f"{'; '.join(candidate.notes)}" + _facts(candidate))
        result = await self.tools.execute(WRITE, {"path": candidate.path, "overwrite": True,
                                                  "content": candidate.content}, ctx)
        if not result.ok:
            self.authoring.refused(candidate.path, result.error)
            return result
        self.authoring.accepted(candidate)
        notes = "".join(f"\n{note}" for note in candidate.notes)
        if candidate.program:
            notes += "\n" + self.authoring.assists.program_note(candidate.program)
        source = {"draft": "\nThe draft: what the model alone wrote for the request.",
                  "candidate": "\nA candidate: the first version failed a check this one "
                               "passes."}
        if candidate.tried:
            notes += "\n" + tried_line(candidate.tried)
        return ToolResult(True, output=result.output + source.get(candidate.source, "")
                          + notes + _facts(candidate))

    def _finish_unrun(self, task: Task, phase_id: int, status: str, reason: str) -> None:
        task.error = reason
        task.move(status)  # type: ignore[arg-type]
        self.emit(TaskFinished(phase_id=phase_id, task_id=task.id, tool=task.tool,
                               status=task.status, error=reason, round=task.round))

    async def _run_one(self, task: Task, phase_id: int) -> None:
        paths = sorted(self.tools.written_paths(task.tool, task.arguments))
        async with AsyncExitStack() as stack:
            await stack.enter_async_context(self._slots)
            for path in paths:
                await stack.enter_async_context(self._path_locks.setdefault(path, asyncio.Lock()))
            task.move("running")
            self.emit(TaskStarted(phase_id=phase_id, round=task.round, task_id=task.id,
                                  tool=task.tool))

            async def approve(action: ApprovalAction, detail: str, scope: str = "",
                              diff: str = "") -> bool:
                return await self.approvals.approve(action, detail, scope=scope, diff=diff,
                                                    task_id=task.id, phase_id=phase_id)

            ctx = ToolContext(run=self.run, emit=self.emit, approve=approve,
                              phase_id=phase_id, task_id=task.id)
            try:
                result = await self._call(task, ctx)
            except asyncio.CancelledError:
                task.finish(False, "", "cancelled: the run was stopped")
                self._emit_finished(task, phase_id)
                raise
            task.finish(result.ok, result.output, result.error)
            self._emit_finished(task, phase_id, result.sandbox)

    def _emit_finished(self, task: Task, phase_id: int, sandbox: SandboxMark = "") -> None:
        self.emit(TaskFinished(phase_id=phase_id, task_id=task.id, tool=task.tool,
                               status=task.status, error=task.error, round=task.round,
                               result=cap(task.result, UI_RESULT_CAP), elapsed_s=task.elapsed_s,
                               sandbox=sandbox, candidates=task.candidates))


def _facts(candidate: Candidate) -> str:
    facts = candidate.facts()
    return f"\nChecked: {facts}" if facts else ""


def cap(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[… {len(text) - limit} more characters not shown]"


def for_model(task: Task, limit: int = MODEL_RESULT_CAP) -> str:
    """What the model sees of a task's outcome: status, error and a bounded result."""
    if task.status == "done":
        body = task.result or "(no output)"
    else:
        body = f"{task.status.upper()}: {task.error}"
        if task.result:
            body += f"\n{task.result}"
    if len(body) > limit:
        tail = min(600, limit // 4)
        omitted = len(body) - (limit - tail) - tail
        body = (body[: limit - tail] + f"\n[… {omitted} characters omitted here; the person sees "
                "the full result …]\n" + body[-tail:])
    return body


def call_id(phase_id: int, round_no: int, task: Task) -> str:
    return f"task_{phase_id}_{round_no}_{task.id}"


def execution_messages(tasks: list[Task], phase_id: int, round_no: int) -> list[Message]:
    """The Execute stage as protocol messages: one assistant call per task, each answered."""
    calls = [ToolCall(id=call_id(phase_id, round_no, t), name=t.tool,
                      arguments=json.dumps(t.arguments, ensure_ascii=False)) for t in tasks]
    messages = [assistant_calls(calls)]
    for task, call in zip(tasks, calls):
        messages.append(tool_message(call.id, for_model(task)))
    return messages
