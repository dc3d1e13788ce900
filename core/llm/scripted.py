"""A model that replays replies from a script: deterministic engine tests and run replays.

File format: ``{"replies": [R, ...]}``, one R consumed per model call:
``{"tool": NAME, "arguments": {...}}`` one tool call; ``{"tool": NAME, "raw_arguments": "..."}``
a tool call with exactly this argument text (malformed JSON included);
``{"tool_calls": [{"tool": ..., "arguments": ...}, ...]}`` several calls; ``{"text": "..."}``
a text answer; ``{"error": {"status": 500|429|408|0, "message": "..."}}`` the call raises
what the OpenAI SDK raises for that status (0 = connection refused); ``"status": null`` is
a reply that could not be used (a broken connection, an unreadable body): the call fails
with exactly that message. Optional on any R:
``"usage": {"prompt_tokens": n, "completion_tokens": m, "cached_tokens": c}`` (c optional), ``"delay_s": seconds``
(before the reply begins) and ``"stream": true`` or ``{"piece": chars, "delay_s": seconds}``: the
reply is also handed to ``CallOptions.on_delta`` in pieces (text, then each call's arguments;
8 characters, no pause, unless given). A script with a streamed reply declares
``Capabilities.streams``.
When the replies run out, every further call fails with a ``ModelError``.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

from core.llm.base import NO_OPTIONS, CallOptions, Capabilities, DeltaSink, Message, ModelError, \
    Reply, ToolCall, Usage, estimate_tokens
from core.llm.openai_client import sdk_error, translate_error

_KEYS = {"tool", "arguments", "raw_arguments", "tool_calls", "text", "error", "usage", "delay_s",
         "stream"}
PIECE_CHARS = 8


class ScriptError(ValueError):
    """The script file is not in the scripted-model format."""


def check_reply(reply: Any, index: int) -> dict[str, Any]:
    where = f"replies[{index}]"
    if not isinstance(reply, dict):
        raise ScriptError(f"{where}: expected an object")
    unknown = set(reply) - _KEYS
    if unknown:
        raise ScriptError(f"{where}: unknown keys {sorted(unknown)}")
    if not any(k in reply for k in ("tool", "tool_calls", "text", "error")):
        raise ScriptError(f"{where}: needs one of tool, tool_calls, text, error")
    if "error" in reply:
        error = reply["error"]
        status = error.get("status", 500) if isinstance(error, dict) else ""
        if status is not None and (not isinstance(status, int) or isinstance(status, bool)):
            raise ScriptError(f"{where}.error: expected {{\"status\": int, \"message\": str}}")
    stream = reply.get("stream", False)
    if not isinstance(stream, (bool, dict)) or isinstance(stream, dict) and (
            set(stream) - {"piece", "delay_s"} or int(stream.get("piece", 1)) < 1):
        raise ScriptError(f"{where}.stream: expected true or {{\"piece\": chars, \"delay_s\": s}}")
    for i, call in enumerate(reply.get("tool_calls", [])):
        if not isinstance(call, dict) or not isinstance(call.get("tool"), str):
            raise ScriptError(f"{where}.tool_calls[{i}]: expected {{\"tool\": NAME, ...}}")
    return reply


class ScriptedModel:
    provider = "scripted"
    capabilities = Capabilities()

    def __init__(self, replies: list[dict[str, Any]], name: str = "scripted") -> None:
        self._replies = [check_reply(r, i) for i, r in enumerate(replies)]
        if any(r.get("stream") for r in self._replies):
            self.capabilities = dataclasses.replace(type(self).capabilities, streams=True)
        self._name = name
        self._next = 0
        self.requests: list[dict[str, Any]] = []

    @classmethod
    def from_file(cls, path: str | Path) -> "ScriptedModel":
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ScriptError(f"{path}: cannot read the script ({exc})") from None
        if not isinstance(data, dict) or not isinstance(data.get("replies"), list):
            raise ScriptError(f"{path}: expected {{\"replies\": [...]}}")
        return cls(data["replies"], name=Path(path).name)

    @property
    def name(self) -> str:
        return self._name

    @property
    def remaining(self) -> int:
        return len(self._replies) - self._next

    async def complete(self, messages: list[Message], tools: list[dict[str, Any]],
                       tool_choice: dict[str, Any] | str | None,
                       options: CallOptions = NO_OPTIONS) -> Reply:
        self.requests.append({"messages": copy.deepcopy(messages), "tools": copy.deepcopy(tools),
                              "tool_choice": copy.deepcopy(tool_choice),
                              "max_tokens": options.max_tokens,
                              "temperature": options.temperature})
        number = len(self.requests)
        if self._next >= len(self._replies):
            await asyncio.sleep(0)
            raise ModelError(f"the scripted model has no reply left for call {number}",
                             unreachable=True)
        reply = self._replies[self._next]
        self._next += 1
        await asyncio.sleep(float(reply.get("delay_s", 0)))
        if "error" in reply:
            error = reply["error"]
            message = str(error.get("message", "scripted error"))
            if error.get("status", 500) is None:
                raise ModelError(message, retryable=True)
            raise translate_error(sdk_error(int(error.get("status", 500)), message))
        calls = self._calls(reply, number)
        text = reply.get("text") if "text" in reply else None
        if reply.get("stream") and options.on_delta is not None:
            await _stream(reply["stream"], text or "", calls, options.on_delta)
        out = (text or "") + "".join(c.arguments for c in calls)
        usage = reply.get("usage")
        counted = (Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)),
                         cached_tokens=int(usage.get("cached_tokens", 0)))
                   if isinstance(usage, dict) else
                   Usage(estimate_tokens(messages) + estimate_tokens(tools), estimate_tokens(out),
                         estimated=True))
        return Reply(text=text, tool_calls=calls, usage=counted,
                     finish_reason="tool_calls" if calls else "stop")

    @staticmethod
    def _calls(reply: dict[str, Any], number: int) -> tuple[ToolCall, ...]:
        specs = reply.get("tool_calls") or ([reply] if "tool" in reply else [])
        calls = []
        for i, spec in enumerate(specs):
            if "raw_arguments" in spec:
                arguments = str(spec["raw_arguments"])
            else:
                arguments = json.dumps(spec.get("arguments", {}), ensure_ascii=False)
            calls.append(ToolCall(id=f"call_{number}_{i}", name=spec["tool"], arguments=arguments))
        return tuple(calls)

    async def aclose(self) -> None:
        return None


async def _stream(spec: bool | dict[str, Any], text: str, calls: tuple[ToolCall, ...],
                  sink: DeltaSink) -> None:
    """Hand ``text`` and the calls' arguments to ``sink`` in pieces, pausing between them."""
    settings = spec if isinstance(spec, dict) else {}
    size = int(settings.get("piece", PIECE_CHARS))
    pause = float(settings.get("delay_s", 0))
    parts = [("text", text)] + [("arguments", call.arguments) for call in calls]
    for kind, whole in parts:
        for start in range(0, len(whole), size):
            sink(kind, whole[start:start + size])
            await asyncio.sleep(pause)
