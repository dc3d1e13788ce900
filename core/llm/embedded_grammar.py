"""Bounded JSON schemas and GBNF grammars for the embedded model.

A grammar built from an unbounded schema (a string without ``maxLength``, an array
without ``maxItems``, a free object) lets a small model run on until ``max_tokens``
and return cut JSON. Everything here works on copies: the caller's schema is never
changed, and the engine still validates the reply against the original.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from llama_cpp import Llama

Schema = dict[str, Any]

STRING_CHARS = 200  # strings without a maxLength
STRING_CHARS_CAP = 600  # longest string the grammar allows (llama.cpp refuses counts >= 2000)
ARRAY_ITEMS = 4  # arrays without a maxItems, and the most any array of scalars may hold
OBJECT_ITEMS = 3  # the most any array of objects may hold: a small model fills every slot
FREE_OBJECT_KEYS = 4  # a free object becomes at most this many text, number or boolean fields
KEY_CHARS = 40
INTEGER_ENUM_SPAN = 128  # an integer range this small becomes an enum the grammar enforces
ANSWER_CHARS = 600  # a plain answer in "auto" mode

_FREE_VALUE: Schema = {"type": "string", "maxLength": STRING_CHARS}
_FREE_FIELD: Schema = {"anyOf": [dict(_FREE_VALUE), {"type": "integer"}, {"type": "boolean"}]}
_NESTED_KEYS = ("anyOf", "oneOf", "allOf")


def bound_schema(schema: Schema) -> Schema:
    """A copy of ``schema`` in which every string, array and object has an upper bound."""
    return _bound(copy.deepcopy(schema))


def with_tool_arguments(schema: Schema,
                        parameters: Mapping[str, Schema]) -> tuple[Schema, list[str]]:
    """A copy of ``schema`` in which an object choosing a ``tool`` from an enum, with free-form
    ``arguments``, becomes one variant per tool whose ``parameters`` are known, so the grammar
    also holds each task's arguments to its tool's parameters. Returns the tools it used."""
    used: list[str] = []
    return _tool_variants(copy.deepcopy(schema), parameters, used), used


def _tool_variants(schema: Schema, parameters: Mapping[str, Schema], used: list[str]) -> Schema:
    if not isinstance(schema, dict):
        return schema
    for key in ("properties", "$defs", "definitions"):
        if isinstance(schema.get(key), dict):
            schema[key] = {k: _tool_variants(v, parameters, used) for k, v in schema[key].items()}
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            schema[key] = _tool_variants(schema[key], parameters, used)
    for key in _NESTED_KEYS:
        if key in schema:
            schema[key] = [_tool_variants(s, parameters, used) for s in schema[key]]
    fields = schema.get("properties", {})
    names = fields.get("tool", {}).get("enum", [])
    free = fields.get("arguments")
    if not any(n in parameters for n in names) or not isinstance(free, dict) \
            or free.get("properties"):
        return schema
    variants = []
    for name in names:
        known = name in parameters
        used += [name] if known else []
        first = {"tool": {"const": name},
                 "arguments": copy.deepcopy(parameters[name]) if known else free}
        rest = {k: v for k, v in fields.items() if k not in first}
        variants.append({**schema, "properties": {**first, **rest}})
    return {"anyOf": variants}


def _bound(schema: Schema) -> Schema:
    if not isinstance(schema, dict) or "enum" in schema or "const" in schema:
        return schema
    kind = schema.get("type")
    if isinstance(kind, list):
        rest = {k: v for k, v in schema.items() if k != "type"}
        return {"anyOf": [_bound({**copy.deepcopy(rest), "type": t}) for t in kind]}
    for key in _NESTED_KEYS:
        if key in schema:
            schema[key] = [_bound(s) for s in schema[key]]
    for key in ("$defs", "definitions"):
        if isinstance(schema.get(key), dict):
            schema[key] = {name: _bound(s) for name, s in schema[key].items()}
    if kind == "string":
        _bound_string(schema)
    elif kind == "integer":
        _bound_integer(schema)
    elif kind == "array":
        items = schema["items"] = _bound(schema.get("items") or dict(_FREE_VALUE))
        alternatives = items.get("anyOf", [items])
        objects = all(a.get("type") == "object" for a in alternatives)
        cap = OBJECT_ITEMS if objects else ARRAY_ITEMS
        least = schema.get("minItems", 0)
        schema["maxItems"] = max(min(schema.get("maxItems", cap), cap), least)
    elif kind == "object" or "properties" in schema:
        _bound_object(schema)
    elif kind is None and not any(k in schema for k in (*_NESTED_KEYS, "$ref")):
        schema.update(dict(_FREE_VALUE))
    return schema


def _bound_string(schema: Schema) -> None:
    schema.pop("format", None)  # formats and patterns may be unbounded: the length rules
    schema.pop("pattern", None)
    schema["maxLength"] = min(schema.get("maxLength", STRING_CHARS), STRING_CHARS_CAP)
    schema["minLength"] = min(schema.get("minLength", 0), schema["maxLength"])


def _bound_integer(schema: Schema) -> None:
    low, high = schema.get("minimum"), schema.get("maximum")
    if isinstance(low, (int, float)) and isinstance(high, (int, float)):
        first, last = int(-(-low // 1)), int(high // 1)
        if 0 <= last - first < INTEGER_ENUM_SPAN:
            schema["enum"] = list(range(first, last + 1))


def _bound_object(schema: Schema) -> None:
    extra = schema.get("additionalProperties", True)
    if "properties" in schema and not isinstance(extra, dict):
        schema["properties"] = {name: _bound(s) for name, s in schema["properties"].items()}
        schema["additionalProperties"] = False
        return
    if "properties" in schema:
        schema["properties"] = {name: _bound(s) for name, s in schema["properties"].items()}
    if extra is False:
        schema["properties"] = schema.get("properties", {})
        return
    schema["additionalProperties"] = (_bound(extra) if isinstance(extra, dict) and extra
                                      else copy.deepcopy(_FREE_FIELD))


def answer_or_tool_schema(tools: list[Schema], allow_answer: bool = True) -> Schema:
    """The union "auto" mode generates: ``{"answer": text}`` or
    ``{"tool": name, "arguments": {...}}`` with that tool's (bounded) arguments."""
    choices: list[Schema] = []
    if allow_answer:
        choices.append({"type": "object", "required": ["answer"], "additionalProperties": False,
                        "properties": {"answer": {"type": "string", "minLength": 1,
                                                  "maxLength": ANSWER_CHARS}}})
    for tool in tools:
        function = tool.get("function", tool)
        parameters = function.get("parameters") or {"type": "object", "properties": {}}
        choices.append({"type": "object", "required": ["tool", "arguments"],
                        "additionalProperties": False,
                        "properties": {"tool": {"const": function["name"]},
                                       "arguments": parameters}})
    return bound_schema({"anyOf": choices} if len(choices) > 1 else choices[0])


def max_json_chars(schema: Schema) -> int:
    """Roughly the longest JSON text a bounded schema admits (for a ``max_tokens`` budget)."""
    if not isinstance(schema, dict):
        return 16
    if "enum" in schema or "const" in schema:
        values = schema.get("enum", [schema.get("const")])
        return max(len(json.dumps(v)) for v in values) if values else 4
    alternatives = [s for key in _NESTED_KEYS for s in schema.get(key, [])]
    if alternatives:
        return max(max_json_chars(s) for s in alternatives)
    kind = schema.get("type")
    if kind == "string":
        return int(schema.get("maxLength", STRING_CHARS)) + 4
    if kind == "array":
        count = int(schema.get("maxItems", ARRAY_ITEMS))
        return 4 + count * (max_json_chars(schema.get("items", {})) + 2)
    if kind == "object":
        total = 4
        for name, sub in schema.get("properties", {}).items():
            total += len(name) + 5 + max_json_chars(sub)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            total += FREE_OBJECT_KEYS * (KEY_CHARS + 5 + max_json_chars(extra))
        return total
    return 20


_CHAR_RULE = re.compile(r'^char ::= \[\^"\\\\\]', re.MULTILINE)
_FREE_KEYS_RULE = re.compile(r'^(\S*additional-kvs ::= (\S+) )\( "," space \2 \)\*$', re.MULTILINE)
_STRING_RULE = re.compile(r'^string ::= .*$', re.MULTILINE)
_BOUNDED_STRING_RULE = re.compile(r'^(\S+ ::= "\\"" )([char()? ]+)( "\\"" space)$', re.MULTILINE)
_PROSE_END_NAME = "prose-end"
# the last character of a text field: not a space, an opening bracket, "=" or ":"
PROSE_END = (r'[^"\\\x00-\x20\x7F(\[{=:] | "\\" (["\\/] | "u" [0-9a-fA-F] [0-9a-fA-F] '
             r'[0-9a-fA-F] [0-9a-fA-F])')


def schema_to_gbnf(schema: Schema) -> str:
    """GBNF text for a bounded schema, tightened where llama.cpp's converter is loose.

    JSON strings may not hold raw control characters (a strict ``json.loads`` rejects
    them); a free object's keys are capped in number and length; a bounded string is
    written as a counted repetition ``char{m,n}`` instead of ``n`` nested optional groups,
    which llama.cpp refuses to parse beyond a few hundred levels. A text field outside a
    tool's arguments (a summary, a comment, a requirement) may not end in a space or an
    opening bracket, ``=`` or ``:``: a small model that quotes inside one writes a bare
    ``"``, which the grammar takes as the string's end, and the field is cut where the
    quote began (about 3% of the text fields of the embedded 1.5B model's stage replies in
    this project's evaluation runs, one summary cut at ``raise ValueError(`` before the
    answer it was asked for). Barred there, the quote is written escaped. A tool's
    arguments (paths, patterns, commands, instructions) keep every ending.
    """
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    grammar = json_schema_to_gbnf(json.dumps(schema))
    grammar = _CHAR_RULE.sub(r'char ::= [^"\\\\\\x00-\\x1F\\x7F]', grammar)
    grammar = _BOUNDED_STRING_RULE.sub(_counted_string, grammar)
    if _PROSE_END_NAME in grammar:
        grammar += f"\n{_PROSE_END_NAME} ::= {PROSE_END}\n"
    grammar = _FREE_KEYS_RULE.sub(
        lambda m: f'{m.group(1)}( "," space {m.group(2)} ){{0,{FREE_OBJECT_KEYS - 1}}}', grammar)
    if "additional-kvs" in grammar:
        grammar = _STRING_RULE.sub(
            f'string ::= "\\"" char{{1,{KEY_CHARS}}} "\\"" space', grammar)
    return grammar


def _counted_string(match: re.Match[str]) -> str:
    body = match.group(2)
    most = body.count("char")
    least = most - body.count("?")
    name = match.group(1).split(" ", 1)[0]
    if "arguments" in name.split("-") or most == 0:
        return f"{match.group(1)}char{{{least},{most}}}{match.group(3)}"
    text = f"char{{{max(least - 1, 0)},{most - 1}}} {_PROSE_END_NAME}"
    return f"{match.group(1)}{text if least else f'({text})?'}{match.group(3)}"


def grammar_parses(llama: Llama, gbnf: str) -> bool:
    """Whether llama.cpp accepts ``gbnf`` (a grammar it rejects would crash the sampler)."""
    import llama_cpp

    vocab = llama_cpp.llama_model_get_vocab(llama.model)
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, gbnf.encode("utf-8"), b"root")
    if not sampler:
        return False
    llama_cpp.llama_sampler_free(sampler)
    return True
