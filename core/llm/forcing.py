"""How a stage call makes the model call the stage's tool, on whatever runtime serves it.

Four strategies, strongest first:

- ``named``: the one stage tool offered and named in ``tool_choice`` (OpenAI, vLLM);
- ``required``: the one stage tool offered with ``tool_choice: "required"``;
- ``json_schema``: no tools; ``response_format`` is the stage schema and the JSON content
  is the stage's arguments (llama.cpp's server, Ollama);
- ``prompted``: no enforcement; the instruction names the function and its schema, and a
  tool call or the first JSON object in the text is taken (servers without tools).

``Forcing`` turns (messages, stage tool) into what is sent — tools, tool_choice,
``CallOptions`` with a ``max_tokens`` from the schema's bounds, and the history written so
the runtime accepts it (for the no-tools strategies, earlier calls become assistant text and
tool results user text) — and turns the reply back into one ``ToolCall``. Two stage
replies in a row that ignore the strategy move it one step down for the rest of the run,
announced through ``notify``. The classic loop's free calls go through the same object:
calls written as text are read back, and a server that rejects ``tools`` gets them
described in the prompt instead. Nothing above ``core/llm`` knows which strategy is used.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.llm.base import NO_OPTIONS, CallOptions, Message, ModelError, Reply, ToolCall
from core.llm.embedded_grammar import bound_schema, max_json_chars
from core.llm.forcing_text import functions_instruction, plain_history, stage_instruction
from core.llm.text_calls import (calls_in_text, prose_call, rejects_tools, repaired_call,
                                 stage_arguments)

STRATEGIES = ("named", "required", "json_schema", "prompted")
TOOL_STRATEGIES = ("named", "required")
IGNORED_IN_A_ROW = 2
MIN_STAGE_TOKENS = 512
MAX_STAGE_TOKENS = 8192

Notify = Callable[[str, str], None]
"""Receives ``(level, message)`` for the person: ``"info"`` or ``"warning"``."""


@dataclass(frozen=True)
class Outgoing:
    """One request as the runtime should get it."""

    messages: list[Message]
    tools: list[dict[str, Any]]
    tool_choice: dict[str, Any] | str | None
    options: CallOptions


@dataclass(frozen=True)
class StageRead:
    """What a stage reply holds: the stage call (its arguments still unchecked) or why there
    is none; ``honoured`` says whether it came the way the strategy asks."""

    call: ToolCall | None
    problem: str
    honoured: bool


def stage_max_tokens(parameters: dict[str, Any]) -> int:
    """A generation bound for a stage: room for the longest JSON its schema admits (its own
    bounds, or the embedded model's where it has none; about three characters a token, plus
    a wrapper), within fixed limits."""
    chars = max(max_json_chars(parameters), max_json_chars(bound_schema(parameters)))
    return max(MIN_STAGE_TOKENS, min(MAX_STAGE_TOKENS, chars // 3 + 128))


def _function(definition: dict[str, Any]) -> dict[str, Any]:
    return definition.get("function", definition)


def _quiet(level: str, message: str) -> None:
    return None


class Forcing:
    """The strategy of one run (or one probe call); see the module docstring."""

    def __init__(self, strategy: str | None = None, *, tools: bool = True,
                 notify: Notify | None = None, source: str = "default") -> None:
        """``strategy`` None: the strongest (until a probe or the replies say otherwise).
        ``source``: where the strategy came from (``core/llm/probe.py`` ``forcing_for``)."""
        strategy = strategy or STRATEGIES[0]
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown forcing strategy {strategy!r}")
        self.strategy = strategy
        self.tools = tools
        self.notify = notify or _quiet
        self.source = source
        self._ignored = 0
        self._ids = 0

    def stage_request(self, messages: list[Message], definition: dict[str, Any]) -> Outgoing:
        function = _function(definition)
        name, parameters = function["name"], function.get("parameters") or {}
        options = CallOptions(max_tokens=stage_max_tokens(parameters))
        if self.strategy == "named":
            return Outgoing(list(messages), [definition],
                            {"type": "function", "function": {"name": name}}, options)
        if self.strategy == "required":
            return Outgoing(list(messages), [definition], "required", options)
        instruction = stage_instruction(self.strategy, function)
        history = plain_history(messages, ending=instruction)
        if self.strategy == "json_schema":
            schema = {"name": name, "schema": parameters}
            options = CallOptions(max_tokens=options.max_tokens, response_format={
                "type": "json_schema", "json_schema": schema})
        return Outgoing(history, [], None, options)

    def read_stage(self, reply: Reply, tool: str) -> StageRead:
        """The stage call in ``reply``; counts replies that ignore the strategy and steps
        down after ``IGNORED_IN_A_ROW`` of them."""
        read = self._read(reply, tool)
        self._observe(read.honoured)
        return read

    def _read(self, reply: Reply, tool: str) -> StageRead:
        if reply.finish_reason == "length":
            return StageRead(None, "the reply was cut off at its token limit", False)
        if reply.tool_calls:
            call = next((c for c in reply.tool_calls if c.name == tool), None)
            if call is None:
                names = ", ".join(c.name or "?" for c in reply.tool_calls)
                return StageRead(None, f"it called {names} instead of {tool}", False)
            return StageRead(call, "", self.strategy in TOOL_STRATEGIES + ("prompted",))
        text = (reply.text or "").strip()
        if self.strategy == "json_schema" and text.startswith("{"):
            return StageRead(self._call(tool, text), "", True)
        arguments = stage_arguments(text, tool)
        if arguments is None:
            return StageRead(None, f"it answered with text instead of calling {tool}",
                             False)
        return StageRead(self._call(tool, json.dumps(arguments, ensure_ascii=False)), "",
                         self.strategy == "prompted")

    def _call(self, tool: str, arguments: str) -> ToolCall:
        self._ids += 1
        return ToolCall(id=f"call_text_{self._ids}", name=tool, arguments=arguments)

    def _observe(self, honoured: bool) -> None:
        if honoured or self.strategy == "prompted":
            self._ignored = 0
            return
        self._ignored += 1
        if self._ignored >= IGNORED_IN_A_ROW:
            self._step_down(f"the model ignored it in {self._ignored} stage replies in a row")

    def _step_down(self, why: str) -> None:
        before = self.strategy
        index = STRATEGIES.index(before) + 1
        if not self.tools:
            index = max(index, STRATEGIES.index("json_schema"))
        self.strategy = STRATEGIES[min(index, len(STRATEGIES) - 1)]
        self._ignored = 0
        self.notify("warning", f"Stage calls: '{before}' forcing did not hold ({why}); "
                               f"using '{self.strategy}' for the rest of the run.")

    def auto_request(self, messages: list[Message], tools: list[dict[str, Any]]) -> Outgoing:
        """A free call (the classic loop): the tools offered with ``"auto"``, or described
        in the prompt where the server takes no tools."""
        if self.tools or not tools:
            return Outgoing(list(messages), tools, "auto" if tools else None, NO_OPTIONS)
        return Outgoing(plain_history(messages, standing=functions_instruction(tools)), [],
                        None, NO_OPTIONS)

    def read_auto(self, reply: Reply, tools: list[dict[str, Any]]) -> Reply:
        """``reply`` with the calls it wrote as text made real calls (when it has none)."""
        if reply.tool_calls:
            return reply
        names = [t.get("function", t)["name"] for t in tools]
        prefix = f"call_text_{self._ids + 1}"
        calls = calls_in_text(reply.text, names, prefix=prefix)
        if not calls:
            prose = prose_call(reply.text, tools, f"{prefix}_0")
            calls = (prose,) if prose is not None else ()
        if not calls:
            repaired = repaired_call(reply.text, tools, f"{prefix}_0")
            calls = (repaired,) if repaired is not None else ()
            if repaired is not None:
                self.notify("warning", f"The model's call of {repaired.name} was not valid "
                                       "JSON; it was repaired and read as that tool's call.")
        if not calls:
            return reply
        self._ids += 1
        return Reply(text=None, tool_calls=calls, usage=reply.usage, finish_reason="tool_calls")

    def refused(self, error: ModelError) -> bool:
        """Whether ``error`` says the server takes no ``tools``; if so, nothing more is sent
        with tools and the caller may send the same call again."""
        if not self.tools or not rejects_tools(error.status, error.message):
            return False
        self.tools = False
        if self.strategy in TOOL_STRATEGIES:
            self._step_down("the server does not accept tools")
        else:
            self.notify("warning", "The server does not accept tools: the workspace tools are "
                                   "described in the prompt for the rest of the run.")
        return True

