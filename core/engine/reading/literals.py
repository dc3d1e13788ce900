"""Container literals (lists, tuples, dicts, sets) as a text writes them, compared by value.

An example's list or dict argument, or its list or dict result, is checked whole: it must be a
value the request (or the file it is about) writes as one literal, in Python or JSON notation,
whatever spacing or quote marks it uses. Its parts occurring here and there is not enough: a
small model splices two of the request's examples into one (``unflatten({'a.b': 1, 'a.c.d':
2, 'd': 3}) == {…, 'e': 3}``), and every key and number of the splice is in the request.
"""

from __future__ import annotations

import ast
import json
from functools import lru_cache
from typing import Any


OPEN = {"[": "]", "{": "}", "(": ")"}
LONGEST = 4000  # characters of one literal scanned for
SCANNED = 200_000  # characters of one text scanned
STEPS = 2_000_000  # characters stepped over in all, across every bracket of one text


def written(value: Any, text: str) -> bool:
    """Whether ``text`` writes ``value`` as one literal (lists and tuples alike)."""
    try:
        return normal(value) in literals_in(text[:SCANNED])
    except TypeError:
        return False


def spans(value: Any, text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes ``value`` as one literal: (start, end) of each."""
    try:
        return list(literals_in(text[:SCANNED]).get(normal(value), ()))
    except TypeError:
        return []


@lru_cache(maxsize=64)
def literals_in(text: str) -> dict[Any, tuple[tuple[int, int], ...]]:
    """Every bracketed span of ``text`` that parses as a Python or JSON literal: its value,
    normalised, and where it is written (scanning stops after ``STEPS`` characters, so a text
    of unclosed brackets stays quick). The mapping is shared: never change it."""
    found: dict[Any, list[tuple[int, int]]] = {}
    steps = 0
    for start, char in enumerate(text):
        if char not in OPEN:
            continue
        if steps > STEPS:
            break
        span = _span(text, start)
        steps += len(span) if span is not None else min(LONGEST, len(text) - start)
        if span is None:
            continue
        value = _parsed(span)
        if value is not _NONE:
            try:
                found.setdefault(normal(value), []).append((start, start + len(span)))
            except TypeError:
                continue
    return {key: tuple(where) for key, where in found.items()}


_NONE = object()


def _parsed(span: str) -> Any:
    """``span`` as a Python literal, else as JSON; ``_NONE`` when it is neither."""
    try:
        return ast.literal_eval(span)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    try:
        return json.loads(span)
    except (ValueError, RecursionError):
        return _NONE


def _span(text: str, start: int) -> str | None:
    """The text from the bracket at ``start`` to the one that closes it (quotes respected),
    or None when it does not close within ``LONGEST`` characters."""
    closing: list[str] = []
    quote = ""
    end = min(len(text), start + LONGEST)
    index = start
    while index < end:
        char = text[index]
        if quote:
            if char == "\\":
                index += 2
                continue
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in OPEN:
            closing.append(OPEN[char])
        elif char in ")]}":
            if not closing or char != closing.pop():
                return None
            if not closing:
                return text[start:index + 1]
        index += 1
    return None


def normal(value: Any) -> Any:
    """A hashable form of a literal value in which a list equals a tuple with the same items,
    and ``True`` is not ``1``."""
    if isinstance(value, (list, tuple)):
        return ("sequence", tuple(normal(v) for v in value))
    if isinstance(value, dict):
        return ("dict", frozenset((normal(k), normal(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(normal(v) for v in value))
    if isinstance(value, bool) or value is None:
        return ("const", repr(value))
    if isinstance(value, (int, float, complex)):
        return ("number", value)
    return (type(value).__name__, value)
