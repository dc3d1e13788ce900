"""The model boundary: one protocol every provider implements.

Messages, tools and tool_choice are OpenAI chat-completions shaped dicts. A provider
returns a ``Reply`` or raises ``ModelError``; nothing else escapes ``complete``
(except ``asyncio.CancelledError``).
"""

from __future__ import annotations

import json

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

Message = dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text exactly as the model produced it


@dataclass(frozen=True)
class Usage:
    """Tokens of one call; ``cached_tokens`` is the part of the prompt the provider served from
    its prompt cache (``usage.prompt_tokens_details.cached_tokens``; 0 where not reported)."""

    prompt_tokens: int
    completion_tokens: int
    estimated: bool = False
    cached_tokens: int = 0


@dataclass(frozen=True)
class Reply:
    text: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=lambda: Usage(0, 0, True))
    finish_reason: str = ""


DeltaSink = Callable[[str, str], None]
"""Receives a reply while it is generated: ``(kind, piece)`` with kind ``"text"`` or
``"arguments"`` (tool-call arguments)."""


@dataclass(frozen=True)
class CallOptions:
    """What one call asks of a provider beyond messages and tools.

    ``max_tokens`` bounds the generation (None: the provider's default);
    ``response_format`` is an OpenAI ``response_format`` (for example a ``json_schema``) or
    None; ``on_delta`` receives the reply's pieces as they arrive where the provider streams
    (providers that do not stream never call it); ``temperature`` is sent when given (0 for
    code: the most likely text, the same each time).
    """

    max_tokens: int | None = None
    response_format: dict[str, Any] | None = None
    on_delta: DeltaSink | None = None
    temperature: float | None = None


NO_OPTIONS = CallOptions()


class ModelError(Exception):
    """A model call failed. ``message`` is written for a person; ``status`` is the HTTP status
    (0 when the endpoint could not be reached at all, None when there was none: a broken
    connection, an unreadable reply); ``raw`` is what the server said, which a replay feeds
    back through the same translation."""

    def __init__(self, message: str, *, status: int | None = None, retryable: bool = False,
                 unreachable: bool = False, raw: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.raw = raw or message
        self.status = status
        self.retryable = retryable
        self.unreachable = unreachable


@dataclass(frozen=True)
class Capabilities:
    """What a model declares about itself, so the engine never asks which provider it is.

    ``clarification_trusted``: its requests for clarification deserve the person's answer
    (a tiny offline model asks on plain requests; the run then goes on as written).
    ``forcing``: how its stage calls are forced (``core/llm/forcing.py``: named, required,
    json_schema, prompted); None when it is not known and the endpoint is probed first.
    ``endpoint``: where it is served (the key of a stored probe; empty for a local model).
    ``streams``: its replies arrive in pieces through ``CallOptions.on_delta`` while they are
    written (False: ``on_delta`` is never called).
    """

    clarification_trusted: bool = True
    forcing: str | None = "named"
    endpoint: str = ""
    streams: bool = False


class ChatModel(Protocol):
    """What an engine needs from a model."""

    @property
    def capabilities(self) -> Capabilities: ...

    @property
    def name(self) -> str: ...

    @property
    def provider(self) -> str: ...

    async def complete(self, messages: list[Message], tools: list[dict[str, Any]],
                       tool_choice: dict[str, Any] | str | None,
                       options: CallOptions = NO_OPTIONS) -> Reply: ...

    async def aclose(self) -> None: ...


def estimate_tokens(value: Any) -> int:
    """A provider-independent token estimate (about 4 characters a token)."""
    if value is None:
        return 0
    if isinstance(value, str):
        return (len(value) + 3) // 4
    if isinstance(value, dict):
        return sum(estimate_tokens(v) for v in value.values()) + 2
    if isinstance(value, (list, tuple)):
        return sum(estimate_tokens(v) for v in value) + 1
    return estimate_tokens(str(value))


def reply_to_script(reply: Reply) -> dict[str, Any]:
    """A reply in the scripted-model file format, so a recorded run can be replayed."""
    if reply.tool_calls:
        calls = [_call_to_script(call) for call in reply.tool_calls]
        if len(calls) == 1 and not reply.text:
            return calls[0]
        result: dict[str, Any] = {"tool_calls": calls}
        if reply.text:
            result["text"] = reply.text
        return result
    return {"text": reply.text or ""}


def _call_to_script(call: ToolCall) -> dict[str, Any]:
    try:
        parsed = json.loads(call.arguments)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and json.dumps(parsed, ensure_ascii=False) == call.arguments:
        return {"tool": call.name, "arguments": parsed}
    return {"tool": call.name, "raw_arguments": call.arguments}


def error_to_script(error: ModelError) -> dict[str, Any]:
    """A failed call in the scripted-model format: ``status`` 0 when the endpoint could not be
    reached, null when it answered with something unusable (or the connection broke)."""
    status = 0 if error.unreachable else error.status
    return {"error": {"status": status, "message": error.raw}}
