"""The reading fields of the analysis stage: what the request asks, as the model reads it.

Bounded like every stage schema. ``raw_reading`` takes them from a reply as given (each checked
for shape only); ``core.engine.reading`` checks what they say against the request and the
workspace. A reply without them (older scripts, a model that left them out) has no reading:
the engine then knows only what it finds itself and what the draft shows; one with a field of
the wrong shape is sent back with the error, as any invalid stage reply.
"""

from __future__ import annotations

from typing import Any, Mapping

from core.schema import coerce

ROLES = ["change", "create", "read", "forbid"]


def _quote(most: int) -> dict[str, Any]:
    return {"type": "string", "maxLength": most,
            "description": "The words of the request (or file) it comes from, copied exactly."}


READING: dict[str, Any] = {
    "kind": {"type": "string", "enum": ["change", "question", "both"]},
    "files": {"type": "array", "maxItems": 6, "items": {
        "type": "object", "properties": {
            "path": {"type": "string", "maxLength": 120},
            "role": {"type": "string", "enum": ROLES},
            "quote": _quote(100)},
        "required": ["path", "role", "quote"]}},
    "examples": {"type": "array", "maxItems": 8, "items": {
        "type": "object", "properties": {
            "call": {"type": "string", "maxLength": 120,
                     "description": "The request's function called with the example's "
                                    "arguments, as Python literals."},
            "result": {"type": "string", "maxLength": 80,
                       "description": "What the call gives, as a Python literal, or raises "
                                      "and the exception's name."},
            "quote": _quote(100)},
        "required": ["call", "result", "quote"]}},
    "renames": {"type": "array", "maxItems": 4, "items": {
        "type": "object", "properties": {
            "old": {"type": "string", "maxLength": 80},
            "new": {"type": "string", "maxLength": 80},
            "quote": _quote(100)},
        "required": ["old", "new", "quote"]}},
    "tools": {"type": "array", "maxItems": 3, "items": {
        "type": "object", "properties": {
            "name": {"type": "string", "maxLength": 64},
            "quote": _quote(100)},
        "required": ["name", "quote"]}},
}
READING_REQUIRED = ["kind", "files", "examples"]


def raw_reading(args: Mapping[str, Any]) -> dict[str, Any]:
    """The reading fields an analysis reply gives ({} for none); ``SchemaError`` when one has
    the wrong shape. An example written whole as ``code`` (replies recorded before examples
    had ``call`` and ``result``) is taken as its call."""
    given = dict(args)
    if isinstance(given.get("examples"), list):
        given["examples"] = [
            {"call": item["code"], "result": "",
             **{k: v for k, v in item.items() if k != "code"}}
            if isinstance(item, Mapping) and "code" in item and "call" not in item else item
            for item in given["examples"]]
    return {key: coerce(given[key], schema, f"$.{key}") for key, schema in READING.items()
            if key in given}

