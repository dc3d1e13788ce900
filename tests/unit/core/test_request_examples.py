"""The examples a request states, read from its words and run against a file."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.tools.request_examples import Example, examples_for, run_examples, stated_examples


def calls(text: str) -> list[tuple[str, str]]:
    return [(e.call, e.expected) for e in stated_examples(text)]


def test_examples_in_prose_end_where_the_sentence_does() -> None:
    text = ('to_int("1.2.3.4") is 16909060. weekdays_between("2024-03-01", "2024-03-11") is 6 '
            '(2024-03-01 is a Friday).\nadd_months("2024-01-31", 1) is "2024-02-29", and '
            'wrap_text("a b", 1) gives ["a", "b"].\nlast(2.5) returns 3.5\n'
            'parse_version("2.0.0-rc1") gives (2, 0, 0, "rc1"). check("x") returns None;')
    assert calls(text) == [
        ('to_int("1.2.3.4")', "16909060"),
        ('weekdays_between("2024-03-01", "2024-03-11")', "6"),
        ('add_months("2024-01-31", 1)', '"2024-02-29"'),
        ('wrap_text("a b", 1)', '["a", "b"]'),
        ("last(2.5)", "3.5"),
        ('parse_version("2.0.0-rc1")', '(2, 0, 0, "rc1")'),
        ('check("x")', "None")]


def test_what_is_not_clearly_an_example_is_left_out() -> None:
    text = ('Money(100, "EUR").split(3) gives [34, 33, 33] cents. to_int(text) returns the '
            "number. limiter.allow(3) is False. len([1, 2]) is 2. f(1) gives [1, 2] items\n"
            "g(1) is not 2. h(2) is twice the input. k(1) returns (1,")
    assert calls(text) == []


def test_doctests_count_and_each_example_is_listed_once() -> None:
    text = ">>> square(3)\n9\n>>> square(3)\n9\n>>> square(x)\n9\nsquare(3) is 9.\n"
    assert calls(text) == [("square(3)", "9")]


def test_only_examples_of_functions_the_file_defines_apply() -> None:
    examples = stated_examples("add(1, 2) is 3. sub(3, 1) is 2.")
    source = "def add(a, b):\n    return a + b\n\nclass K:\n    def sub(self, a, b):\n        pass\n"
    assert [e.name for e in examples_for(source, examples)] == ["add"]
    assert examples_for("def add(:\n", examples) == ()


def run(tmp_path: Path, source: str, examples: tuple[Example, ...]):  # type: ignore[no-untyped-def]
    (tmp_path / "calc.py").write_text("raise SystemExit('the workspace file is not the one run')\n")
    return asyncio.run(run_examples(tmp_path, {"calc.py": source}, "calc.py", examples, "auto"))


def test_a_file_meeting_the_examples_passes_and_one_that_prints_fails(tmp_path: Path) -> None:
    examples = stated_examples('is_leap(2000) is True, is_leap(1900) is False. '
                               'label(2024) gives "leap".')
    good = ("def is_leap(y):\n    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)\n\n"
            "def label(y):\n    return 'leap' if is_leap(y) else 'common'\n")
    ran = run(tmp_path, good, examples)
    assert (ran.passed, ran.failed, ran.failures) == (3, 0, ())
    assert ran.describe() == "the request's 3 examples give what it says"
    printing = "def is_leap(y):\n    print('Leap year')\n\ndef label(y):\n    raise ValueError(y)\n"
    ran = run(tmp_path, printing, examples)
    assert (ran.passed, ran.failed) == (0, 3)
    assert ran.failures == (
        "is_leap(2000): the request says True, it gave None",
        "is_leap(1900): the request says False, it gave None",
        'label(2024): the request says "leap", it raised ValueError: 2024')
    assert ran.describe() == "3 of the request's 3 examples give something else"
    assert (tmp_path / "calc.py").read_text().startswith("raise SystemExit")  # untouched


def test_a_file_that_cannot_be_imported_is_a_problem_not_a_pass(tmp_path: Path) -> None:
    ran = run(tmp_path, "import no_such_module\n\ndef f(x):\n    return x\n",
              stated_examples("f(1) is 1."))
    assert not ran.ran and "importing it failed: ModuleNotFoundError" in ran.problem


def test_a_result_longer_than_the_span_is_no_example_not_a_cut_one() -> None:
    items = ", ".join(["1"] * 20_000)
    line = " ".join([f"f(1) gives [{items}] here." for _ in range(50)])
    assert calls(line) == []  # each result runs past the span; the scan stays bounded
    assert calls("f(1) gives [1, 2]" + " x" * 300) == []
    assert calls("f(1) gives [1, 2]\n" + "x" * 1000) == [("f(1)", "[1, 2]")]


def test_an_input_and_its_result_count_under_the_line_describing_their_function() -> None:
    text = ('Implement to_snake(name) and to_camel(name) in naming.py.\n'
            '"a" gives "b" here is no example: the line above names two functions.\n\n'
            'to_snake(name) turns camelCase into snake_case:\n'
            '- "parseHttp" gives "parse_http"; "ParseJSON" gives "parse_json".\n'
            '- Digits stay: "v2Beta" gives "v2_beta", and "" gives "".\n'
            '- A single word is just lowercased ("Word" gives "word").\n'
            '- "x" and "y" give "z" is no example, nor is a word gives "b".\n'
            'split(line, sep=",") splits a line: "a," gives ["a", ""].\n'
            'pad(text, width) pads: "a" gives "a " is no example (two arguments).\n'
            'Example: split("1;2", ";") gives ["1", "2"].')
    assert calls(text) == [
        ('split("1;2", ";")', '["1", "2"]'),
        ('to_snake("parseHttp")', '"parse_http"'),
        ('to_snake("ParseJSON")', '"parse_json"'),
        ('to_snake("v2Beta")', '"v2_beta"'),
        ('to_snake("")', '""'),
        ('to_snake("Word")', '"word"'),
        ('split("a,")', '["a", ""]')]


def test_a_line_opening_with_a_function_the_request_declares_scopes_its_examples() -> None:
    text = ('Implement rotate(rows), mirror(rows) and pad(rows, width) in grid.py.\n'
            '- rotate turns the grid right: ["ab", "cd"] gives ["ca", "db"].\n'
            '- mirror flips it: ["ab"] gives ["ba"]. An empty grid ([]) gives [].\n'
            '- pad widens each row: ["a"] gives ["a "] is no example (two arguments).\n'
            '- Each returns a new grid: ["x"] gives ["x"] is no example either.\n'
            'The grid is ["ab"] gives ["ba"], not an example: no line names a function here.')
    assert calls(text) == [('rotate(["ab", "cd"])', '["ca", "db"]'),
                           ('mirror(["ab"])', '["ba"]'), ("mirror(([]))", "[]")]


def test_is_states_a_result_on_the_describing_line_or_after_the_word_example() -> None:
    text = ('Implement evaluate(expression) in rpn.py: "3 4 +" is 7.\n'
            '- Operators follow their operands ("10 4 -" is 6).\n'
            '- Escapes are decoded, so "%41" is "A".\n'
            '- Spaces may separate parts. Examples: "1  2 +" is 3, "2 2 *" is 4.')
    assert calls(text) == [('evaluate("3 4 +")', "7"), ('evaluate("1  2 +")', "3"),
                           ('evaluate("2 2 *")', "4")]


def test_stated_errors_are_examples_of_raising() -> None:
    text = ('check("abc") raises WeakPasswordError with problems ["too short"].\n'
            'Implement evaluate(expression) in rpn.py.\n'
            '- Raise ValueError for an unknown token ("3 4 ^" or "3 x +") and a lone operator '
            '("+"). Anything else ("1.5h") is fine.\n'
            '- "" raises ValueError too.\n'
            '- Raise TypeError for a number and ValueError for ("x").\n'
            '- Raise KeyError for (1, 2) or as in KeyError("k").')
    assert [(e.call, e.raises) for e in stated_examples(text)] == [
        ('check("abc")', "WeakPasswordError"), ("evaluate('3 4 ^')", "ValueError"),
        ("evaluate('3 x +')", "ValueError"), ("evaluate('+')", "ValueError"),
        ('evaluate("")', "ValueError")]
    assert stated_examples(text)[0].words() == 'check("abc") should raise WeakPasswordError'


def test_an_example_of_raising_passes_only_when_that_exception_is_raised(tmp_path: Path) -> None:
    examples = stated_examples('Implement parse(text) in calc.py. Raise ValueError for ("x") '
                               'and ("").')
    good = ("class BadInput(ValueError):\n    pass\n\n"
            "def parse(text):\n    if not text.isdigit():\n        raise BadInput(text)\n"
            "    return int(text)\n")
    assert (run(tmp_path, good, examples).passed, run(tmp_path, good, examples).failed) == (2, 0)
    lax = "def parse(text):\n    if text == 'x':\n        raise TypeError(text)\n    return 0\n"
    ran = run(tmp_path, lax, examples)
    assert ran.failures == (
        "parse('x'): the request says it raises ValueError, it raised TypeError: x",
        "parse(''): the request says it raises ValueError, it gave 0")
