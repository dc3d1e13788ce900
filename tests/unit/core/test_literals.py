"""Container literals found in a text and compared by value, as the reading checks an
example's lists and dicts."""

from __future__ import annotations

from typing import Any

import pytest

from core.engine.reading.literals import written
from core.engine.reading.pairing import containers, example_parts, parts_together
from core.shapes.reading import Example


@pytest.mark.parametrize(("value", "text", "found"), [
    ([1, 2], "merge returns [1,2] here", True),
    ((1, 2), "returns [1, 2]", True),                      # a tuple is the list it lists
    ({"a": True, "b": None}, 'JSON {"a": true, "b": null}', True),
    ([[1, 3], [2, 6]], "输入[[1,3],[2,6]]，输出[[1,6]]", True),   # nested, no spaces, CJK around
    ([1, 6], "输入[[1,3],[2,6]]，输出[[1,6]]", True),          # a literal inside another
    ([1, 2, 3], "1, 2 and 3 give [6]", False),             # parts, never the list
    ([1, True], "the list [1, 1]", False),                 # True is not 1
    (["a)"], "x ['a)'] y", True),                          # brackets inside quotes
    ([1], "an unclosed [1, 2 and more", False),
])
def test_a_container_is_found_whole(value: Any, text: str, found: bool) -> None:
    assert written(value, text) is found


def test_the_containers_of_an_example_are_its_arguments_and_result() -> None:
    example = Example("f", "f([3, 1], key={'k': 2}, n=4)", "[1, 3]")
    assert containers(example) == [[3, 1], {"k": 2}, [1, 3]]
    assert containers(Example("f", "f([], 'x')", "()")) == []    # empty ones prove nothing


def test_an_examples_parts_pair_as_whole_literals() -> None:
    example = Example("f", "f(b'x', [1, 2], flag=True)", "[2, 1]")
    assert example_parts(example) == [[1, 2], [2, 1]]      # bytes and True left out
    assert parts_together(example, ["f turns [1, 2] into [2, 1]."])
    assert not parts_together(example, ["[1, 2] is the input." + " " * 80 + "[2, 1] elsewhere"])
