"""Render an OpenAI-style conversation into plain chat messages a small local model can take.

The embedded model's chat template knows only system, user and assistant turns, so an
assistant's tool calls become text (``call read_file({"path": "a.txt"})``) and each tool
result becomes a user turn naming the call it answers. Role markers inside contents are
broken up so text cannot open a turn of its own. The instruction that says which
tool to call, with a compact description of its fields, is the last user turn.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from core.llm.base import Message

ChatTurn = dict[str, str]
TokenCounter = Callable[[str], int]

DESCRIPTION_CHARS = 160
TURN_OVERHEAD_TOKENS = 6  # role markers and separators the template adds per turn
_ROLES = {"system", "user", "assistant"}


def content_text(content: Any) -> str:
    """The text of a message's ``content`` (a string, ``None`` or a list of parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in content]
        return "\n".join(p for p in parts if p)
    return str(content)


def render_conversation(messages: list[Message]) -> list[ChatTurn]:
    """System, user and assistant turns only; tool traffic as text; same-role turns merged."""
    names: dict[str, str] = {}
    turns: list[ChatTurn] = []
    for message in messages:
        role = message.get("role", "user")
        text = content_text(message.get("content"))
        if role == "assistant" and message.get("tool_calls"):
            lines = [text] if text else []
            for call in message["tool_calls"]:
                function = call.get("function", {})
                name = names[call.get("id", "")] = function.get("name", "tool")
                lines.append(f"call {name}({function.get('arguments', '')})")
            text = "\n".join(lines)
        elif role == "tool":
            name = message.get("name") or names.get(message.get("tool_call_id", ""), "tool")
            text = f"Result of {name} ({message.get('tool_call_id', '')}):\n{text}"
            role = "user"
        elif role not in _ROLES:
            role = "system" if role == "developer" else "user"
        _append(turns, role, text.replace("<|", "< |"))
    return turns


def _append(turns: list[ChatTurn], role: str, text: str) -> None:
    if turns and turns[-1]["role"] == role:
        turns[-1]["content"] = f"{turns[-1]['content']}\n\n{text}".strip()
    else:
        turns.append({"role": role, "content": text})


def with_instruction(turns: list[ChatTurn], instruction: str) -> list[ChatTurn]:
    """The turns with ``instruction`` as (the end of) the final user turn."""
    result = [dict(t) for t in turns]
    _append(result, "user", instruction)
    return result


def with_standing(turns: list[ChatTurn], text: str) -> list[ChatTurn]:
    """The turns with ``text`` at the end of the system turn (one is added when there is none).
    What stays the same from call to call belongs there: the prompt then starts the same way
    every time, and llama.cpp evaluates only what follows the part it kept from the last call."""
    result = [dict(t) for t in turns]
    if result and result[0]["role"] == "system":
        result[0]["content"] = f"{result[0]['content']}\n\n{text}".strip()
    else:
        result.insert(0, {"role": "system", "content": text})
    return result


AUTO_REMINDER = "Reply with only one JSON object, a tool call or an answer, as described above."


def fit_turns(turns: list[ChatTurn], count: TokenCounter, budget: int) -> list[ChatTurn]:
    """Turns that fit in ``budget`` tokens: long turns are cut in the middle, then the oldest
    turns after the system prompt are dropped. The system prompt and the last turn stay."""
    result = [dict(t) for t in turns]
    sizes = [count(t["content"]) + TURN_OVERHEAD_TOKENS for t in result]
    if sum(sizes) <= budget:
        return result
    share = max(budget // max(len(result), 1), 64)
    for i, turn in enumerate(result):
        if sizes[i] > share * 2:
            turn["content"] = _cut_middle(turn["content"], share * 2 * 3)
            sizes[i] = count(turn["content"]) + TURN_OVERHEAD_TOKENS
    first = 1 if result and result[0]["role"] == "system" else 0
    while sum(sizes) > budget and len(result) - first > 1:
        del result[first], sizes[first]
    for _ in range(32):
        if sum(sizes) <= budget:
            break
        i = max(range(len(sizes)), key=sizes.__getitem__)
        result[i]["content"] = _cut_middle(result[i]["content"], len(result[i]["content"]) // 2)
        sizes[i] = count(result[i]["content"]) + TURN_OVERHEAD_TOKENS
    return result


def _cut_middle(text: str, keep: int) -> str:
    if len(text) <= keep:
        return text
    head = keep * 2 // 3
    left_out = f"\n[... {len(text) - keep} characters left out ...]\n"
    return f"{text[:head]}{left_out}{text[-(keep - head):]}"


def forced_instruction(tool: dict[str, Any], schema: dict[str, Any]) -> str:
    """Ask for the arguments of one tool, describing the (bounded) parameter schema."""
    function = tool.get("function", tool)
    lines = [f"Now call the tool {function['name']}: {_short(function.get('description', ''))}",
             "Reply with only a JSON object holding its arguments. Fields:"]
    lines += describe_fields(schema, "")
    return "\n".join(lines)


def arguments_note(names: list[str], parameters: dict[str, dict[str, Any]]) -> str:
    """Which argument names each tool takes (for a plan whose tasks call tools)."""
    lines = ["The arguments each tool takes:"]
    for name in names:
        required = set(parameters[name].get("required", []))
        fields = [f"{field} (required)" if field in required else field
                  for field in parameters[name].get("properties", {})]
        lines.append(f"- {name}: {', '.join(fields) or 'none'}")
    return "\n".join(lines)


def auto_instruction(tools: list[dict[str, Any]], schemas: dict[str, dict[str, Any]],
                     allow_answer: bool) -> str:
    """Offer the tools and (when allowed) a direct answer, as one JSON object."""
    lines = ["Reply with only a JSON object."]
    if allow_answer:
        lines.append('If no tool is needed, reply {"answer": "..."} with your answer in place '
                     'of the dots.')
    lines.append('If a tool is needed, reply {"tool": "<tool name>", "arguments": {...}}. Tools:')
    for tool in tools:
        function = tool.get("function", tool)
        lines.append(f"* {function['name']}: {_short(function.get('description', ''))}")
        lines += describe_fields(schemas[function["name"]], "    ")
    return "\n".join(lines)


def describe_fields(schema: dict[str, Any], indent: str) -> list[str]:
    """One line per field of an object schema, nested objects indented."""
    required = set(schema.get("required", []))
    lines: list[str] = []
    for name, sub in schema.get("properties", {}).items():
        flag = "required" if name in required else "optional"
        line = f"{indent}- {name} ({flag}): {describe_type(sub)}"
        if sub.get("description"):
            line += f". {_short(sub['description'])}"
        lines.append(line)
        item = sub.get("items", {}) if sub.get("type") == "array" else sub
        if item.get("properties"):
            lines += describe_fields(item, indent + "    ")
    if not schema.get("properties") and isinstance(schema.get("additionalProperties"), dict):
        value = describe_type(schema["additionalProperties"])
        lines.append(f"{indent}- any names you choose, each {value}")
    return lines


def describe_type(schema: dict[str, Any]) -> str:
    """A few words a small model understands; lengths are left to the grammar (a model told
    "at most 200 characters" tends to write about characters)."""
    kind = schema.get("type")
    if kind == "integer" and "minimum" in schema and "maximum" in schema:
        return f"a number from {schema['minimum']} to {schema['maximum']}"
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(v) for v in schema["enum"])
    if "const" in schema:
        return f"exactly {json.dumps(schema['const'])}"
    if "anyOf" in schema or "oneOf" in schema:
        return " or ".join(describe_type(s) for s in schema.get("anyOf", schema.get("oneOf", [])))
    if kind == "string":
        return "a short text" if schema.get("maxLength", 200) <= 120 else "a text"
    if kind == "array":
        items = schema.get("items", {})
        noun = "objects with these fields" if items.get("properties") else describe_type(items)
        return f"a list of up to {schema.get('maxItems', '?')} items, each {noun}"
    if kind == "object":
        return "an object with these fields" if schema.get("properties") else "an object"
    if kind == "boolean":
        return "true or false"
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        bounds = f" from {low}" if low is not None else ""
        bounds += f" to {high}" if high is not None else ""
        return f"a number{bounds}"
    return str(kind or "value")


def _short(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= DESCRIPTION_CHARS else text[: DESCRIPTION_CHARS - 1] + "…"
