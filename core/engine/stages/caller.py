"""Forced stage calls: the stage tool forced, the reply validated, repaired once.

How the tool is forced on the model's runtime (a named tool choice, a JSON schema, an
instruction) and whether the reply holds a valid call is the business of ``core.llm``
(``StageCalls``): the caller hands it the model, the messages, the stage tool and how to
validate its arguments, and gets back the validated value or why there is none. Free calls
(the classic loop) go through it too, so calls written as text are read back.

The caller keeps the run's accounting (budget, calls, tokens), the one repair of an invalid
reply, and emits, per model call, a ``StageStarted`` when it begins, ``StageDelta`` events
while a streaming model writes, and one ``LlmCall`` when it ends, naming the model that
served it and the workspace files its messages carried (the gate's ledger):
``ModelRoles`` picks the main or the thinking model for each stage. A model that
cannot be reached, refuses the key or fails three calls in a row aborts the run with
``RunAborted`` (naming which model when there are two); any other failure makes the stage
return ``None`` so the engine can degrade safely.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from core.engine.context import digest
from core.engine.stages.roles import ModelRoles
from core.engine.stages.outbound import Approvals, confirm_outbound
from core.engine.stages.progress import DeltaRelay
from core.shapes.wording import stage_label
from core.events import Event, LlmCall, Notice, StageStarted
from core.llm.base import NO_OPTIONS, CallOptions, ChatModel, Message, ModelError, Reply, \
    ToolCall, error_to_script, estimate_tokens, reply_to_script
from core.llm.stage_calls import Send, StageCalls
from core.engine.stages.schemas import tool_definition
from core.tools.gate import Gate

T = TypeVar("T")
FATAL_STATUSES = {0, 401, 403, 404}
MAX_FAILURES_IN_A_ROW = 3
REPAIR_ECHO_CAP = 4000


class RunAborted(Exception):
    """The run cannot go on (model unreachable, key refused, repeated failures)."""

    def __init__(self, message: str, unreachable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.unreachable = unreachable


@dataclass
class Accounting:
    budget: int
    counted: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures_in_a_row: int = 0
    usable: int = 0  # replies the engine could use (a valid stage result, a classic reply)

    @property
    def exhausted(self) -> bool:
        return self.counted >= self.budget


@dataclass(frozen=True)
class StageResult(Generic[T]):
    value: T | None
    problem: str = ""


class StageCaller:
    def __init__(self, model: ChatModel, accounting: Accounting,
                 emit: Callable[[Event], None], thinking: ChatModel | None = None,
                 where: Callable[[], tuple[int, int]] = lambda: (0, 0)) -> None:
        self.model = model
        self.roles = ModelRoles(model, thinking)
        self.accounting = accounting
        self.emit = emit
        self.where = where  # (phase id, round) of the next call; (0, 0) outside the rounds
        self.observers: list[Callable[[str, list[Message], list[dict[str, Any]]], None]] = []
        self.stages = StageCalls(self._notify)
        self.gate: Gate | None = None  # the run's gate, once ``prepare`` is given it
        self.refused = ""  # why no call may be made (the person did not allow the sending)

    def _notify(self, level: str, message: str) -> None:
        self.emit(Notice(level="warning" if level == "warning" else "info", message=message))

    @property
    def strategy(self) -> str:
        """How the main model's stage calls are forced now (named, required, …)."""
        return self.stages.strategy(self.model)

    async def prepare(self, gate: Gate | None = None, approvals: Approvals | None = None,
                      request: str = "") -> None:
        """Ask the person what must be asked before files leave the machine (with ``gate``
        and ``approvals``: ``outbound``), then find how each model's stage calls are forced
        (probing its endpoint the first time it is used, when the model does not say).
        Raises ``RunAborted`` when the person does not allow the files to be sent."""
        self.gate = gate or self.gate
        if gate is not None and approvals is not None:
            self.refused = await confirm_outbound(gate, approvals, self.roles.models().values(),
                                                  request)
            if self.refused:
                raise RunAborted(self.refused)
        for model in self.roles.models().values():
            await self.stages.prepare(model)

    def _sender(self, stage: str, counted: bool) -> Send:
        """One model call of ``stage`` through ``raw`` (accounting and events)."""
        async def send(messages: list[Message], tools: list[dict[str, Any]],
                       tool_choice: dict[str, Any] | str | None, options: CallOptions) -> Reply:
            return await self.raw(stage, messages, tools, tool_choice, counted, options)
        return send

    async def raw(self, stage: str, messages: list[Message], tools: list[dict[str, Any]],
                  tool_choice: dict[str, Any] | str | None, counted: bool,
                  options: CallOptions = NO_OPTIONS, detail: str = "") -> Reply:
        """One model call with accounting and its events; ``ModelError`` propagates unless it
        is fatal, in which case ``RunAborted`` is raised. ``detail`` names what the call
        works on, for the page."""
        if self.refused:
            raise RunAborted(self.refused)
        acc = self.accounting
        context = estimate_tokens(messages) + estimate_tokens(tools)
        shown = digest(messages)
        files = self.gate.carried(messages) if self.gate is not None else ([], [])
        for observer in self.observers:
            observer(stage, messages, tools)
        acc.calls += 1
        if counted:
            acc.counted += 1
        model, label = self.roles.for_stage(stage), self.roles.label(stage)
        phase_id, round_ = self.where()
        streams = model.capabilities.streams
        self.emit(StageStarted(stage=stage, phase_id=phase_id, round=round_,
                               model=label, call=acc.calls, streams=streams, detail=detail))
        relay = DeltaRelay(stage, self.emit)
        if streams:
            options = dataclasses.replace(options, on_delta=relay.feed)
        try:
            reply = await model.complete(messages, tools, tool_choice, options)
        except ModelError as exc:
            self._failed(stage, exc, counted, context, shown, label, files)
            raise
        finally:
            relay.close()
        self._answered(stage, reply, counted, context, shown, label, files)
        return reply

    def _failed(self, stage: str, exc: ModelError, counted: bool, context: int,
                shown: list[dict[str, object]], label: str,
                files: tuple[list[str], list[str]]) -> None:
        """Account for a failed call and emit its ``LlmCall``; raise ``RunAborted`` when the
        failure is fatal or one too many in a row."""
        acc = self.accounting
        acc.failures_in_a_row += 1
        self.emit(LlmCall(stage=stage, prompt_tokens=0, completion_tokens=0,
                          counted_in_budget=counted, calls_used=acc.counted,
                          budget=acc.budget, context_tokens=context, ok=False,
                          error=exc.message, reply=error_to_script(exc), context=shown,
                          model=label, files=files[0], held_back=files[1]))
        if exc.unreachable or exc.status in FATAL_STATUSES:
            raise RunAborted(self.roles.failure(stage, exc.message),
                             unreachable=bool(exc.unreachable)) from None
        if acc.failures_in_a_row >= MAX_FAILURES_IN_A_ROW:
            raise RunAborted(self.roles.failure(
                stage, f"the model failed {acc.failures_in_a_row} calls in a row; "
                       f"last error: {exc.message}")) from None

    def _answered(self, stage: str, reply: Reply, counted: bool, context: int,
                  shown: list[dict[str, object]], label: str,
                  files: tuple[list[str], list[str]]) -> None:
        """Account for an answered call and emit its ``LlmCall``."""
        acc = self.accounting
        acc.failures_in_a_row = 0
        acc.prompt_tokens += reply.usage.prompt_tokens
        acc.completion_tokens += reply.usage.completion_tokens
        self.emit(LlmCall(stage=stage, prompt_tokens=reply.usage.prompt_tokens,
                          completion_tokens=reply.usage.completion_tokens,
                          counted_in_budget=counted, calls_used=acc.counted, budget=acc.budget,
                          context_tokens=context, ok=True, reply=reply_to_script(reply),
                          usage_estimated=reply.usage.estimated, context=shown,
                          cached_tokens=reply.usage.cached_tokens, model=label,
                          files=files[0], held_back=files[1]))

    async def call(self, stage: str, messages: list[Message], tool: str,
                   parameters: dict[str, Any], parse: Callable[[dict[str, Any]], T], *,
                   counted: bool, ack: Callable[[T], str] = lambda _: "Recorded.") -> StageResult[T]:
        """Force ``tool``; on success append the assistant/tool pair to ``messages``."""
        offered = tool_definition(tool, parameters)
        model, send = self.roles.for_stage(stage), self._sender(stage, counted)
        attempt_messages = list(messages)
        problem = ""
        for attempt in (1, 2):
            if counted and self.accounting.exhausted:
                return StageResult(None, problem or "the iteration budget is spent")
            try:
                answer = await self.stages.stage(model, attempt_messages, offered, parse, send)
            except ModelError as exc:
                self.emit(Notice(level="error", stage=stage,
                                 message=f"{stage_label(stage)}: the model call failed — {exc.message}"))
                return StageResult(None, exc.message)
            if answer.ok and answer.call is not None:
                self.accounting.usable += 1
                messages.append(assistant_calls([answer.call]))
                messages.append(tool_message(answer.call.id, ack(answer.value)))  # type: ignore[arg-type]
                return StageResult(answer.value)
            problem = answer.problem
            then = "asking the model to correct it" if attempt == 1 else "continuing without it"
            self.emit(Notice(level="warning", stage=stage,
                             message=f"{stage_label(stage)}: the model's reply was invalid ({problem}); "
                                     f"{then}"))
            attempt_messages = list(messages) + repair_messages(answer.reply, tool, problem)
        return StageResult(None, problem)

    async def auto(self, stage: str, messages: list[Message], tools: list[dict[str, Any]],
                   counted: bool) -> Reply:
        """A free call offering ``tools`` (the classic loop); calls the model wrote as text
        come back as calls."""
        return await self.stages.free(self.roles.for_stage(stage), messages, tools,
                                      self._sender(stage, counted))


def assistant_calls(calls: list[ToolCall]) -> Message:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
        for c in calls]}


def tool_message(call_id: str, content: str) -> Message:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def repair_messages(reply: Reply, tool: str, problem: str) -> list[Message]:
    """The invalid reply and the error, paired exactly as the protocol requires.

    Calls whose arguments are JSON objects are echoed as calls, each answered by the error;
    anything else (text, arguments that do not parse, which a runtime parsing its history
    refuses) is echoed as the assistant's text, answered by the error as the user. What the
    model said is cut to ``REPAIR_ECHO_CAP`` characters: a runaway reply must not be sent
    back in full (a megabyte of text would overflow the context).
    """
    fix = f"Error: {problem}. Call {tool} again with arguments that match its schema."
    if reply.tool_calls and all(_json_object(c.arguments) for c in reply.tool_calls):
        calls = [ToolCall(id=c.id or f"invalid_{i}", name=c.name, arguments=c.arguments)
                 for i, c in enumerate(reply.tool_calls)]
        return [assistant_calls(calls)] + [tool_message(c.id, fix) for c in calls]
    said = "\n".join([reply.text or ""] + [f"{c.name}({c.arguments})" for c in reply.tool_calls])
    return [{"role": "assistant", "content": clip(said.strip())},
            {"role": "user", "content": fix}]


def _json_object(text: str) -> bool:
    """Whether ``text`` is a JSON object short enough to echo whole."""
    if len(text) > REPAIR_ECHO_CAP:
        return False
    try:
        return isinstance(json.loads(text or "{}"), dict)
    except ValueError:
        return False


def clip(text: str, limit: int = REPAIR_ECHO_CAP) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f" [… {len(text) - limit:,} more characters cut]"
