"""The text side of the no-tools strategies: instructions and a history without tool turns.

A runtime that is sent no ``tools`` may refuse a history holding tool calls and tool
results, so the history is rewritten: an assistant's calls become its text (one JSON object
per call, the form the instruction asks for), a tool result becomes user text, and turns of
the same role that end up next to each other are joined (some chat templates insist that
user and assistant alternate).
"""

from __future__ import annotations

import json
from typing import Any

from core.llm.base import Message

STAGE_MARKER = "Respond with a call of the function"
FUNCTIONS_MARKER = "You can call these functions"


def _schema(parameters: dict[str, Any]) -> str:
    return json.dumps(parameters, ensure_ascii=False, separators=(",", ":"))


def stage_instruction(strategy: str, function: dict[str, Any]) -> str:
    """What ends the last user turn of a ``json_schema`` or ``prompted`` stage call."""
    name = function["name"]
    schema = _schema(function.get("parameters") or {})
    purpose = function.get("description", "")
    if strategy == "json_schema":
        return (f"{STAGE_MARKER} `{name}` ({purpose}). Reply with only its arguments: one "
                f"JSON object that matches this JSON schema, and nothing else.\n{schema}")
    return (f"{STAGE_MARKER} `{name}` ({purpose}). Write only the call, as one JSON object "
            f'{{"name": "{name}", "arguments": {{...}}}} whose arguments match this JSON '
            f"schema:\n{schema}")


def functions_instruction(tools: list[dict[str, Any]]) -> str:
    """What ends the system turn of a free call to a server that takes no tools."""
    lines = [f"{FUNCTIONS_MARKER}. To call one, write only one JSON object per call, "
             '{"name": NAME, "arguments": {...}}, in a ```json block; the results come back '
             "in the next message. When the work is done, answer in plain text without any "
             "call."]
    for tool in tools:
        function = tool.get("function", tool)
        lines.append(f"- {function['name']}: {function.get('description', '')} "
                     f"Arguments: {_schema(function.get('parameters') or {})}")
    return "\n".join(lines)


def render_call(name: str, arguments: str) -> str:
    try:
        value: Any = json.loads(arguments or "{}")
    except ValueError:
        value = arguments
    return json.dumps({"name": name, "arguments": value}, ensure_ascii=False)


def _text(content: Any) -> str:
    if content is None:
        return ""
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)


def plain_history(messages: list[Message], *, ending: str = "", standing: str = ""
                  ) -> list[Message]:
    """``messages`` without tool calls or tool turns; ``standing`` ends the system turn and
    ``ending`` the last user turn."""
    names: dict[str, str] = {}
    out: list[Message] = []
    for message in messages:
        role, text = message.get("role", "user"), _text(message.get("content"))
        if role == "assistant" and message.get("tool_calls"):
            calls = []
            for call in message["tool_calls"]:
                function = call.get("function", {})
                names[call.get("id", "")] = function.get("name", "")
                calls.append(render_call(function.get("name", ""), function.get("arguments", "")))
            text = "\n".join(([text] if text else []) + calls)
        elif role == "tool":
            name = names.get(message.get("tool_call_id", ""), "the call")
            role, text = "user", f"Result of {name}:\n{text}"
        if out and out[-1]["role"] == role and role != "system":
            out[-1] = {"role": role, "content": f"{out[-1]['content']}\n\n{text}"}
        else:
            out.append({"role": role, "content": text})
    if standing:
        if out and out[0]["role"] == "system":
            out[0] = {"role": "system", "content": f"{out[0]['content']}\n\n{standing}"}
        else:
            out.insert(0, {"role": "system", "content": standing})
    if ending:
        if out and out[-1]["role"] == "user":
            out[-1] = {"role": "user", "content": f"{out[-1]['content']}\n\n{ending}"}
        else:
            out.append({"role": "user", "content": ending})
    return out
