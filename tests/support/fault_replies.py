"""Chat-completion bodies for the fake server, and replies that are wrong in content.

``completion_chunks`` is the same reply as the ``chat.completion.chunk`` objects of a
streamed answer. A content fault is a well-formed HTTP 200 whose reply is unusable for the
stage that asked: malformed JSON arguments, another tool than the forced one, text instead of a
call, a required field missing, or a megabyte of text.
"""

from __future__ import annotations

import json
import time
from typing import Any

CONTENT_FAULTS = ("bad_json_args", "wrong_tool", "no_tool_call", "missing_field", "oversized")
OVERSIZED_BYTES = 1024 * 1024
WRONG_TOOL = {"auto": "summarizer"}
# a field each stage requires (the engine defaults the optional ones)
REQUIRED_FIELDS = ("core_goal", "phases", "tasks", "user_summary", "final_summary")  # classic calls: a tool that is not offered


def completion_body(reply: dict[str, Any], number: int) -> dict[str, Any]:
    """A ``chat.completion`` object for a reply in the scripted-model format."""
    calls = reply.get("tool_calls") or ([reply] if "tool" in reply else [])
    tool_calls = []
    for i, spec in enumerate(calls):
        arguments = spec["raw_arguments"] if "raw_arguments" in spec else json.dumps(
            spec.get("arguments", {}))
        tool_calls.append({"id": f"call_{number}_{i}", "type": "function",
                           "function": {"name": spec["tool"], "arguments": arguments}})
    message: dict[str, Any] = {"role": "assistant", "content": reply.get("text")}
    if tool_calls:
        message["tool_calls"] = tool_calls
    usage = dict(reply.get("usage", {"prompt_tokens": 100, "completion_tokens": 20}))
    cached = usage.pop("cached_tokens", None)
    wire: dict[str, Any] = {**usage, "total_tokens": sum(usage.values())}
    if cached is not None:
        wire["prompt_tokens_details"] = {"cached_tokens": cached}
    return {"id": f"chatcmpl-{number}", "object": "chat.completion", "created": int(time.time()),
            "model": "fake-model",
            "choices": [{"index": 0, "message": message,
                         "finish_reason": reply.get("finish_reason") or (
                             "tool_calls" if tool_calls else "stop")}],
            "usage": wire}


def completion_chunks(reply: dict[str, Any], number: int, usage: bool) -> list[dict[str, Any]]:
    """The reply streamed: text and each call's arguments in pieces (``reply["stream"]``'s
    ``piece`` characters, else 16 or more so that a value takes at most 200 chunks), then
    the finish reason and, when asked for (``include_usage``), a last chunk with the usage."""
    whole = completion_body(reply, number)
    message = whole["choices"][0]["message"]
    spec = reply.get("stream") if isinstance(reply.get("stream"), dict) else {}

    def pieces(text: str) -> list[str]:
        size = int(spec.get("piece", 0)) or max(16, len(text) // 200 + 1)
        return [text[i:i + size] for i in range(0, len(text), size)]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": whole["id"], "object": "chat.completion.chunk", "created": whole["created"],
                "model": whole["model"],
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    chunks = [chunk({"role": "assistant", "content": ""})]
    chunks += [chunk({"content": piece}) for piece in pieces(message.get("content") or "")]
    for index, call in enumerate(message.get("tool_calls", [])):
        chunks.append(chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                             "function": {"name": call["function"]["name"],
                                                          "arguments": ""}}]}))
        chunks += [chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
                   for piece in pieces(call["function"]["arguments"])]
    chunks.append(chunk({}, whole["choices"][0]["finish_reason"]))
    if usage:
        chunks.append({**chunk({}), "choices": [], "usage": whole["usage"]})
    return chunks


def first_call(reply: dict[str, Any]) -> dict[str, Any] | None:
    if "tool" in reply:
        return reply
    calls = reply.get("tool_calls") or []
    return calls[0] if calls else None


def content_fault(fault: str, stage: str, normal: dict[str, Any]) -> dict[str, Any]:
    """The reply ``fault`` makes of the reply the stage would normally get."""
    call = first_call(normal)
    tool = stage if stage != "auto" else (call["tool"] if call else "read_file")
    if fault == "bad_json_args":
        return {"tool": tool, "raw_arguments": '{"reasoning": "cut here, "tasks": [}'}
    if fault == "wrong_tool":
        other = WRONG_TOOL.get(stage, "read_file")
        return {"tool": other, "arguments": {"path": "README.md"}}
    if fault == "no_tool_call":
        return {"text": "I would rather just talk about it than call a tool."}
    if fault == "missing_field":
        arguments = dict(call.get("arguments", {})) if call else {}
        if arguments:
            required = [k for k in REQUIRED_FIELDS if k in arguments]
            arguments.pop(required[0] if required else next(iter(arguments)))
            return {"tool": call["tool"], "arguments": arguments}  # type: ignore[index]
        return {"tool": "read_file", "arguments": {}}
    if fault == "oversized":
        line = "All work and no play makes a very long reply. "
        return {"text": (line * (OVERSIZED_BYTES // len(line) + 1))[:OVERSIZED_BYTES]}
    raise ValueError(f"not a content fault: {fault}")
