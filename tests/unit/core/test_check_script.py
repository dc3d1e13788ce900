"""A small model's check script, read as it meant it and kept to what the request states.

The replies here are the embedded Qwen2.5-Coder-1.5B's own, from the evaluation's exercises
(shortened where they repeat), run against each exercise's reference solution."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from core.engine.assists.check_reading import MAX_CHECKS, checks_in_reply, said_checks
from core.tools.check_runs import run_checks

TASKS = Path(__file__).resolve().parents[3] / "bench" / "evals" / "tasks"
RPN_REPLY = '''```python
from rpn import evaluate

assert evaluate("3 4 +") == 7
assert evaluate("5 1 2 + 4 * + 3 -") == 14
assert evaluate("7 2 /") == 3.5
assert evaluate("3 4 ^") == ValueError
assert evaluate("3 x +") == ValueError
assert evaluate("3 4") == ValueError
```'''
HISTOGRAM_REPLY = '''```python
from histogram import bin_counts

# Test cases
assert bin_counts([0, 1, 2, 5, 9, 10, 11], 0, 10, 2) == [3, 3]
assert bin_counts([0, 1, 2, 5, 9, 10, 11], 0, 10, 3) == [3, 2, 2]
assert bin_counts([0, 1, 2, 5, 9, 10, 11], 0, 10, 4) == [3, 2, 1, 1]
assert bin_counts([0, 1, 2, 5, 9, 10, 11], 0, 10, 5) == [3, 2, 1, 1, 1]
assert bin_counts([0, 1, 2, 5, 9, 10, 11], 0, 10, 6) == [3, 2, 1'''
DURATION_REPLY = '''```python
from durations import parse_duration, format_duration
import pytest

assert parse_duration('1h30m') == 5400
assert parse_duration('2d') == 172800
assert parse_duration('1.5h') == raises(ValueError, parse_duration, '1.5h')
assert raises(ValueError, parse_duration("-1h"))
assert parse_duration("1 h") raises ValueError
with pytest.raises(ValueError):
    parse_duration("30m1h")
assert parse_duration('7w') == 604800
assert parse_duration('2d') == 172800
```'''


def solved(task: str, script: str):
    folder = TASKS / task
    solution = next((folder / "solution").iterdir())
    return asyncio.run(run_checks(folder / "workspace", solution.name, solution.read_text(),
                                  script, "auto"))


def request(task: str) -> str:
    return (TASKS / task / "request.txt").read_text()


def test_an_expected_error_written_as_a_value_becomes_a_raise_check() -> None:
    script = checks_in_reply(RPN_REPLY, request("ex-rpn-calc"))
    assert script is not None
    assert "assert raises(ValueError, lambda: evaluate('3 4 ^'))" in script
    literal = solved("ex-rpn-calc", RPN_REPLY.strip("`").removeprefix("python\n"))
    assert len(literal.failed) == 3  # read as written, a right file fails them
    run = solved("ex-rpn-calc", script)
    assert (run.asserts, run.failed) == (6, [])


def test_a_cut_off_reply_keeps_its_whole_statements_and_only_stated_values() -> None:
    script = checks_in_reply(HISTOGRAM_REPLY, request("ex-histogram"))
    assert script == ("from histogram import bin_counts\n"
                      "assert bin_counts([0, 1, 2, 5, 9, 10, 11], 0, 10, 2) == [3, 3]\n")
    assert solved("ex-histogram", script).failed == []
    invented = HISTOGRAM_REPLY.strip("`").removeprefix("python\n").rsplit("\n", 1)[0] + "\n"
    assert len(solved("ex-histogram", invented).failed) == 3  # the model's own values: wrong


def test_raise_checks_in_every_form_run_as_meant_and_bad_lines_go() -> None:
    script = checks_in_reply(DURATION_REPLY, request("ex-parse-duration"))
    assert script is not None
    assert "import pytest" not in script and "1 h\") raises" not in script
    assert script.count("parse_duration('2d') == 172800") == 1
    assert "7w" not in script and "604800" not in script  # not in the request
    assert "with raises(ValueError):" in script
    run = solved("ex-parse-duration", script)
    assert (run.asserts, run.failed) == (5, [])
    wrong = solved("ex-parse-duration", script.replace("'2d') == 172800", "'2d') == 2"))
    assert wrong.failed and "2d" in wrong.failed[0]


def test_an_error_the_request_never_names_is_not_checked() -> None:
    said = "insert(position, text): raise IndexError if position is below 0. 'Hello' works."
    script = ("from buffer import TextBuffer\n"
              "assert raises(ValueError, TextBuffer().insert, -1, 'Hello')\n"
              "assert raises(IndexError, TextBuffer().insert, -1, 'Hello')\n")
    assert said_checks(script, said) == ("from buffer import TextBuffer\n"
                                         "assert raises(IndexError, TextBuffer().insert, -1, "
                                         "'Hello')\n")


def test_a_reply_without_a_code_block_has_no_checks() -> None:
    assert checks_in_reply("I would check insert() with a few values.", "insert") is None


@pytest.mark.parametrize("script", [
    "from m import f\nprint(f(1))\n",  # nothing checked
    "from m import f\nassert f('never said') == 'nor this'\n",  # nothing stated
    "```\nnot python at all (\n",
    "",
])
def test_a_script_with_nothing_checkable_left_is_none(script: str) -> None:
    assert said_checks(script, "f(1) is 2") is None


def test_at_most_fifteen_distinct_checks_are_kept() -> None:
    script = "from m import f\n" + "".join(f"assert f({n}) == {n}\n" for n in range(40))
    tidied = said_checks(script, " ".join(str(n) for n in range(40)))
    assert tidied is not None and tidied.count("assert ") == MAX_CHECKS == 15


def test_a_test_function_is_a_check_and_its_asserts_are_read_as_meant() -> None:
    script = ("from m import f\n\n\ndef test_f():\n    assert f('x') == ValueError\n")
    tidied = said_checks(script, "f('x') raises ValueError")
    assert tidied is not None
    assert "def test_f():\n    assert raises(ValueError, lambda: f('x'))" in tidied


def test_the_last_line_of_a_reply_cut_off_inside_its_block_is_dropped_even_if_it_parses(
        ) -> None:
    # The end of ex-lru-cache's checks reply, which ran out of tokens repeating itself.
    cut = ("```python\nfrom lru import LRUCache\n\n"
           "assert raises(ValueError, LRUCache, 0)\nassert LRUCache(1).get(1) == None\n"
           "assert LR")
    assert checks_in_reply(cut, request("ex-lru-cache")) == (
        "from lru import LRUCache\nassert raises(ValueError, LRUCache, 0)\n")
    # Cut off right after a whole stated check: that line goes too; closed, it stays.
    ended = ("```python\nfrom lru import LRUCache\n\nassert LRUCache(1).get(1) == None\n"
             "assert raises(ValueError, LRUCache, 0)")
    assert checks_in_reply(ended, request("ex-lru-cache")) is None
    assert checks_in_reply(ended + "\n```", request("ex-lru-cache")) == (
        "from lru import LRUCache\nassert raises(ValueError, LRUCache, 0)\n")


def test_a_check_made_only_of_zeros_ones_and_none_is_the_models_guess_and_dropped() -> None:
    # ex-lru-cache's checks: every value is "stated" (0 and 1 always are), and the first two
    # are wrong: put returns None. The reference solution fails them.
    reply = ("```python\nfrom lru import LRUCache\n"
             "assert LRUCache(1).put(1, 1) == 1\nassert LRUCache(1).get(1) == 1\n"
             "assert raises(ValueError, LRUCache, 0)\nassert LRUCache(1).get(1) is None\n```")
    script = checks_in_reply(reply, request("ex-lru-cache"))
    assert script == "from lru import LRUCache\nassert raises(ValueError, LRUCache, 0)\n"
    assert solved("ex-lru-cache", script).failed == []
    assert len(solved("ex-lru-cache", reply.strip("`").removeprefix("python\n")).failed) == 2
