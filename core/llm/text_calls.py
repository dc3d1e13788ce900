"""Tool calls a model wrote as text, read back into calls.

Runtimes that do not enforce a tool choice (llama.cpp's server with an object
``tool_choice``, Ollama, a server without tool support) leave the model to write its call
in the reply text. The forms small models use are all read here: a fenced ```json block,
``<tool_call>`` tags, ``{{double braces}}``, or a plain JSON object, holding
``{"name": ..., "arguments": {...}}`` (``"tool"`` or ``"function"`` for the name, and
arguments as an object or as JSON text). Every JSON object in the text is found by
decoding from each ``{``, so the wrapping around it never matters. A call written as prose
("To use the search_code function, call it with the arguments {"pattern": ...}", seen from
the 1.5B Qwen on llama-server) is read too, when it is unambiguous (``prose_call``), and so is
a call whose JSON is broken by a quote left unescaped (``repaired_call``: seen from the same
model copying the request, quotes and all, into write_file's instruction).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from typing import Any

import json_repair

from core.llm.base import ToolCall

_DECODER = json.JSONDecoder(strict=False)
_TOOLS = re.compile(r"\btools\b", re.IGNORECASE)
_NAMED = re.compile(r'"(?:name|tool)"\s*:\s*"([\w.-]{1,64})"')


def json_objects(text: str) -> Iterator[dict[str, Any]]:
    """Every top-level JSON object in ``text``, in order (an object inside another one is
    part of it, not a second object)."""
    position = text.find("{")
    while position >= 0:
        try:
            value, end = _DECODER.raw_decode(text, position)
        except ValueError:
            position = text.find("{", position + 1)
            continue
        if isinstance(value, dict):
            yield value
        position = text.find("{", end)


def first_json_object(text: str) -> dict[str, Any] | None:
    return next(json_objects(text or ""), None)


def as_call(value: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(name, arguments) when ``value`` is shaped like a call, else None."""
    function = value.get("function")
    if isinstance(function, dict):
        value = function
    name = value.get("name", value.get("tool"))
    if not isinstance(name, str) or not name:
        return None
    arguments = value.get("arguments", value.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, dict):
        return None
    return name, arguments


def calls_in_text(text: str | None, names: Collection[str], prefix: str = "text_call"
                  ) -> tuple[ToolCall, ...]:
    """The calls of tools in ``names`` written in ``text`` (none when it holds none)."""
    calls = []
    for value in json_objects(text or ""):
        found = as_call(value)
        if found is not None and found[0] in names:
            name, arguments = found
            calls.append(ToolCall(id=f"{prefix}_{len(calls)}", name=name,
                                  arguments=json.dumps(arguments, ensure_ascii=False)))
    return tuple(calls)


def broken_call(text: str | None, names: Collection[str]) -> tuple[str, str] | None:
    """(tool, why) when ``text`` writes a call of an offered tool as JSON that cannot be
    read (``{"name": "write_file", "arguments": {"instruction": "say "hi""}}``: a quote left
    unescaped), and holds no call that can; None otherwise. ``why`` is the decoder's error,
    with its line and column."""
    text = text or ""
    named = _NAMED.search(text)
    if named is None or named.group(1) not in names or calls_in_text(text, names):
        return None
    start = text.rfind("{", 0, named.start())
    try:
        _DECODER.raw_decode(text, max(start, 0))
    except ValueError as error:
        return named.group(1), str(error)
    return None


def repaired_call(text: str | None, tools: list[dict[str, Any]],
                  call_id: str = "text_call_0") -> ToolCall | None:
    """The call a ``broken_call`` means, read by ``json_repair`` (an inner quote left
    unescaped, a string closed with the wrong quote), when what it reads is a call of that
    same offered tool whose keys are its parameters, its required ones included; None
    otherwise."""
    text = text or ""
    functions = {f["name"]: f for f in (t.get("function", t) for t in tools)
                 if isinstance(f.get("name"), str)}
    broken = broken_call(text, functions)
    if broken is None:
        return None
    named = _NAMED.search(text)
    start = text.rfind("{", 0, named.start()) if named else -1
    body = text[max(start, 0):].split("```")[0]
    try:
        value = json_repair.loads(body)
    except (ValueError, RecursionError):
        return None
    found = as_call(value) if isinstance(value, dict) else None
    if found is None or found[0] != broken[0] or not found[1]:
        return None
    schema = functions[broken[0]].get("parameters") or {}
    allowed = set((schema.get("properties") or {}).keys())
    if not set(found[1]) <= allowed or not set(schema.get("required") or ()) <= set(found[1]):
        return None
    return ToolCall(id=call_id, name=broken[0],
                    arguments=json.dumps(found[1], ensure_ascii=False))


def prose_call(text: str | None, tools: list[dict[str, Any]], call_id: str = "text_call_0"
               ) -> ToolCall | None:
    """The call ``text`` writes as prose: it names exactly one of ``tools`` (by its name as a
    word) and holds exactly one JSON object, whose keys are that tool's parameters, its
    required ones included. None otherwise (a text that names two tools, or an object with a
    key the tool does not take, is not guessed at)."""
    text = text or ""
    functions = [t.get("function", t) for t in tools]
    named = [f for f in functions if isinstance(f.get("name"), str)
             and re.search(rf"(?<![\w.]){re.escape(f['name'])}(?!\w)", text)]
    objects = list(json_objects(text))
    if len(named) != 1 or len(objects) != 1:
        return None
    function, arguments = named[0], objects[0]
    schema = function.get("parameters") or {}
    allowed = set((schema.get("properties") or {}).keys())
    required = set(schema.get("required") or ())
    if not arguments or not set(arguments) <= allowed or not required <= set(arguments):
        return None
    return ToolCall(id=call_id, name=function["name"],
                    arguments=json.dumps(arguments, ensure_ascii=False))


def stage_arguments(text: str | None, tool: str) -> dict[str, Any] | None:
    """A stage's arguments written as text: the first JSON object, unwrapped when it is a
    call of ``tool`` (a call of another tool is not taken)."""
    value = first_json_object(text or "")
    if value is None:
        return None
    found = as_call(value)
    if found is None or not {"arguments", "parameters", "function"} & set(value):
        return value
    name, arguments = found
    return arguments if name == tool else None


def rejects_tools(status: int | None, message: str) -> bool:
    """Whether an HTTP error says the server does not take ``tools`` at all ("Unsupported
    param: tools", "model does not support tools")."""
    return status is not None and 400 <= status < 600 and _TOOLS.search(message) is not None
