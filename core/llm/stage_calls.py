"""Stage calls as the engine sees them: the stage's validated arguments, or a clear failure.

How a stage call is forced on a model's runtime (``forcing``: named, required, json_schema,
prompted), found by a probe of its endpoint the first time a run uses it (``probe``), is
kept here, one strategy per model of the run. The engine hands over the model, the
messages, the stage tool and a ``validate`` for its arguments, and a ``send`` that makes
the one model call with the run's accounting and events; it gets back a ``StageAnswer``:
the validated value, or the problem (with the reply, for the engine's one repair). A reply
that ignores the strategy counts towards stepping it down; a run that steps down from a
stored probe result probes the endpoint again. Free calls (the classic loop) come back with
the calls the model wrote as text made real calls. A failed model call raises
``ModelError`` as ``send`` raised it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from core.llm.base import CallOptions, ChatModel, Message, ModelError, Reply, ToolCall
from core.llm.forcing import Forcing, Notify, Outgoing
from core.llm.probe import forcing_for, recheck
from core.schema import SchemaError

T = TypeVar("T")

Send = Callable[[list[Message], list[dict[str, Any]], dict[str, Any] | str | None, CallOptions],
                Awaitable[Reply]]
"""One model call as the engine makes it: (messages, tools, tool_choice, options) -> reply."""


@dataclass(frozen=True)
class StageAnswer(Generic[T]):
    """One stage call's outcome: ``value`` (what ``validate`` made of the arguments) and the
    ``call`` that carried them, or ``problem`` saying why there is none; ``reply`` as the
    model gave it."""

    reply: Reply
    call: ToolCall | None = None
    value: T | None = None
    problem: str = ""

    @property
    def ok(self) -> bool:
        return self.call is not None and not self.problem


class StageCalls:
    """The forcing of one run's models; see the module docstring."""

    def __init__(self, notify: Notify) -> None:
        """``notify(level, message)`` tells the person about probes and step-downs."""
        self._notify = notify
        self._forcings: dict[int, tuple[ChatModel, Forcing]] = {}

    async def prepare(self, model: ChatModel) -> None:
        """Find how ``model``'s stage calls are forced: what it declares, a stored probe of
        its endpoint, or a probe made now."""
        self._forcings[id(model)] = (model, await forcing_for(model, self._notify))

    def _forcing(self, model: ChatModel) -> Forcing:
        known = self._forcings.get(id(model))
        if known is None:
            known = (model, Forcing(model.capabilities.forcing, notify=self._notify))
            self._forcings[id(model)] = known
        return known[1]

    def strategy(self, model: ChatModel) -> str:
        """The strategy ``model``'s stage calls use now."""
        return self._forcing(model).strategy

    async def stage(self, model: ChatModel, messages: list[Message],
                    definition: dict[str, Any], validate: Callable[[dict[str, Any]], T],
                    send: Send) -> StageAnswer[T]:
        """One forced call of the stage tool ``definition`` (an OpenAI function tool);
        ``validate`` turns its arguments into the stage's value or raises ``SchemaError``."""
        forcing = self._forcing(model)
        before = forcing.strategy
        tool = definition.get("function", definition)["name"]
        reply = await _sending(forcing, lambda: forcing.stage_request(messages, definition),
                               send)
        read = forcing.read_stage(reply, tool)
        if forcing.strategy != before:
            await recheck(model, forcing)
        if read.call is None:
            return StageAnswer(reply, problem=read.problem)
        value, problem = _validated(read.call, validate)
        return StageAnswer(reply, read.call, value, problem)

    async def free(self, model: ChatModel, messages: list[Message],
                   tools: list[dict[str, Any]], send: Send) -> Reply:
        """A free call offering ``tools`` with ``"auto"`` (described in the prompt where the
        server takes none); calls the model wrote as text come back as calls."""
        forcing = self._forcing(model)
        reply = await _sending(forcing, lambda: forcing.auto_request(messages, tools), send)
        return forcing.read_auto(reply, tools)


async def _sending(forcing: Forcing, request: Callable[[], Outgoing], send: Send) -> Reply:
    """``send`` the request; once more, written without tools, when the server refuses them."""
    while True:
        out = request()
        try:
            return await send(out.messages, out.tools, out.tool_choice, out.options)
        except ModelError as exc:
            if not (out.tools and forcing.refused(exc)):
                raise


def _validated(call: ToolCall, validate: Callable[[dict[str, Any]], T]) -> tuple[T | None, str]:
    try:
        arguments = json.loads(call.arguments or "{}")
    except ValueError as exc:
        return None, f"the arguments are not valid JSON ({exc})"
    if not isinstance(arguments, dict):
        return None, "the arguments must be a JSON object"
    try:
        return validate(arguments), ""
    except SchemaError as exc:
        return None, str(exc)
