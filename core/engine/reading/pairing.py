"""Where an example's values stand in the request or the file, and whether they stand together:
an example whose quote is not in the request still holds when the request's own text pairs its
call with its result, in whatever words the model quoted it.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from core.engine.reading.literals import spans
from core.shapes.reading import Example

TOGETHER = 60  # characters within which an example's values pair up in the request


def together(values: list[Any], sources: list[str]) -> bool:
    """Whether two or more different values all occur within ``TOGETHER`` characters of one
    another in one of ``sources``: the request's own text then pairs the call with its result
    (``"XMLParser"得到"xml_parser"``), whatever words the model quoted it in. A number is found
    as a number (12 is not in 123), as :func:`occurs` finds it."""
    distinct: dict[str, Any] = {}
    for value in values:
        distinct.setdefault(str(value), value)
    if len(distinct) < 2:
        return False
    for source in sources:
        starts = [positions(value, source) for value in distinct.values()]
        if any(not found for found in starts):
            continue
        for anchor in starts[0]:
            if all(any(abs(at - anchor) <= TOGETHER for at in found) for found in starts[1:]):
                return True
    return False


def parts_together(example: Example, sources: list[str]) -> bool:
    """For an example that passes or gives a list or dict: whether its arguments and its result,
    each as a whole (a list where it is written as one literal), stand within ``TOGETHER``
    characters of one another in one of ``sources``. Its single keys and numbers pair up
    anywhere in a request full of them; the literals pair only where the request states this
    example (not one example's input beside another's result)."""
    parts = example_parts(example)
    if len(parts) < 2:
        return False
    for source in sources:
        where = [spans(part, source) if isinstance(part, (list, tuple, dict, set))
                 else [(at, at + len(str(part))) for at in positions(part, source)]
                 for part in parts]
        if any(not found for found in where):
            continue
        for anchor in where[0]:
            if all(any(gap(anchor, span) <= TOGETHER for span in found) for found in where[1:]):
                return True
    return False


def gap(one: tuple[int, int], other: tuple[int, int]) -> int:
    """Characters between two spans of a text (0 when they touch or overlap)."""
    return max(0, other[0] - one[1], one[0] - other[1])


def containers(example: Example) -> list[Any]:
    """The non-empty lists, tuples, dicts and sets an example passes as arguments or gives as
    its result (nested ones count as part of their outer value)."""
    return [part for part in example_parts(example)
            if isinstance(part, (list, tuple, dict, set)) and part]


def example_parts(example: Example) -> list[Any]:
    """An example's arguments and result as values: strings, numbers and containers (``True``,
    ``False``, ``None``, bytes and what is no literal left out)."""
    texts: list[str] = []
    try:
        call = ast.parse(example.call, mode="eval").body
    except SyntaxError:
        return []
    texts += [ast.get_source_segment(example.call, node) or "" for node in
              [*getattr(call, "args", []), *(k.value for k in getattr(call, "keywords", []))]]
    texts.append(example.expected)
    parts: list[Any] = []
    for text in texts:
        try:
            value = ast.literal_eval(text.strip())
        except (ValueError, SyntaxError, TypeError, RecursionError):
            continue
        if isinstance(value, (str, int, float, list, tuple, dict, set)) \
                and not isinstance(value, bool) and value not in parts:
            parts.append(value)
    return parts


def occurs(value: Any, text: str) -> bool:
    """Whether a string or number occurs in ``text`` (a number as a number: 12 not in 123)."""
    if isinstance(value, str) and not value.strip():
        return True
    return bool(positions(value, text))


def positions(value: Any, text: str) -> list[int]:
    """Where a string (as written, or with its escapes spelled out) or a number (as a number)
    starts in ``text``."""
    if isinstance(value, str):
        forms = {value, value.encode("unicode_escape").decode("ascii", "replace")}
        return sorted({m.start() for form in forms if form
                       for m in re.finditer(re.escape(form), text)})
    forms = {repr(abs(value)), str(abs(value))}
    if isinstance(value, float) and value.is_integer():
        forms.add(str(int(abs(value))))
    return sorted({m.start() for form in forms
                   for m in re.finditer(rf"(?<![\d.]){re.escape(form)}(?![\d])", text)})
