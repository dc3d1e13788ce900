"""A streamed chat completion: its chunks put together into one ``Reply``.

The SDK's stream yields ``chat.completion.chunk`` objects: text pieces, tool-call pieces
keyed by ``index`` (id and name in the first, argument text in every one), a
``finish_reason``, and — with ``stream_options.include_usage`` — a last chunk with the usage
and no choices. ``ReplyAssembler`` collects them and hands each text and argument piece to
the ``on_delta`` sink as it arrives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.llm.base import DeltaSink, Message, ModelError, Reply, ToolCall, Usage, estimate_tokens


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


class ReplyAssembler:
    def __init__(self, sink: DeltaSink | None) -> None:
        self.sink = sink
        self.text: list[str] = []
        self.calls: dict[int, _PartialCall] = {}
        self.finish_reason = ""
        self.usage: Any = None
        self.chunks = 0
        self.choices = 0
        self.pieces = 0  # text and argument pieces handed to the sink

    def add(self, chunk: Any) -> None:
        """Take one chunk (an SDK ``ChatCompletionChunk``)."""
        self.chunks += 1
        if getattr(chunk, "usage", None) is not None:
            self.usage = chunk.usage
        for choice in getattr(chunk, "choices", None) or ():
            if getattr(choice, "index", 0) not in (0, None):
                continue
            self.choices += 1
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason
            delta = choice.delta
            if delta is None:
                continue
            if delta.content:
                self.text.append(delta.content)
                self._send("text", delta.content)
            for position, piece in enumerate(delta.tool_calls or ()):
                index = piece.index if piece.index is not None else position
                call = self.calls.setdefault(index, _PartialCall())
                call.id = call.id or (piece.id or "")
                function = piece.function
                if function is None:
                    continue
                call.name = call.name or (function.name or "")
                if function.arguments:
                    call.arguments.append(function.arguments)
                    self._send("arguments", function.arguments)

    def _send(self, kind: str, piece: str) -> None:
        self.pieces += 1
        if self.sink is not None:
            self.sink(kind, piece)

    def reply(self, messages: list[Message], tools: list[dict[str, Any]]) -> Reply:
        """The whole reply; usage estimated where the stream reported none."""
        if not self.choices:
            raise ModelError("the endpoint replied without any choices")
        calls = tuple(ToolCall(id=c.id or f"call_{i}", name=c.name, arguments="".join(c.arguments))
                      for i, c in sorted(self.calls.items()))
        text = "".join(self.text) if self.text else None
        return Reply(text=text, tool_calls=calls, usage=usage_of(self.usage, text, calls,
                                                                 messages, tools),
                     finish_reason=self.finish_reason)


def usage_of(usage: Any, text: str | None, calls: tuple[ToolCall, ...], messages: list[Message],
             tools: list[dict[str, Any]]) -> Usage:
    """The endpoint's token counts, or an estimate when it sent none."""
    if usage is not None and getattr(usage, "prompt_tokens", None) is not None:
        details = getattr(usage, "prompt_tokens_details", None)
        cached = getattr(details, "cached_tokens", None) or 0
        prompt = usage.prompt_tokens or 0
        return Usage(prompt, usage.completion_tokens or 0, cached_tokens=min(int(cached), prompt))
    out = (text or "") + "".join(c.arguments for c in calls)
    return Usage(estimate_tokens(messages) + estimate_tokens(tools), estimate_tokens(out),
                 estimated=True)
