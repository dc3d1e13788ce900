"""The examples a request writes as code, read without a model, and their run against a file."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.engine.reading.check import parse_example
from core.tools.code_in_text import code_examples
from core.tools.request_examples import Example, examples_for, run_examples


def calls(text: str) -> list[tuple[str, str]]:
    return [(e.call, e.expected) for e in code_examples(text)]


def stated(*codes: str) -> tuple[Example, ...]:
    """The examples as the request's reading gives them (code the model wrote)."""
    found = tuple(parse_example(code) for code in codes)
    assert all(found), codes
    return found  # type: ignore[return-value]


def test_examples_written_as_code_are_read_without_a_model() -> None:
    text = ('to_int("1.2.3.4") == 16909060\nwrap_text("a b", 1) -> ["a", "b"]\n'
            'parse_version("2.0.0-rc1") => (2, 0, 0, "rc1"), and check("x") → None.\n'
            "在函数中，square(4) ==> 16。例如cube(2)==8，而cube(3)得到27。")
    assert calls(text) == [
        ('to_int("1.2.3.4")', "16909060"),
        ('wrap_text("a b", 1)', '["a", "b"]'),
        ('parse_version("2.0.0-rc1")', '(2, 0, 0, "rc1")'),
        ('check("x")', "None"),
        ("square(4)", "16"),
        ("cube(2)", "8")]


def test_examples_in_words_are_left_to_the_model() -> None:
    text = ('to_int("1.2.3.4") is 16909060. wrap_text("a b", 1) gives ["a", "b"]. '
            'Money(100, "EUR").split(3) == [34, 33, 33]. len([1, 2]) == 2. f(x) == 2. '
            'check("abc") raises WeakPasswordError. leap(1997) ist False.')
    assert calls(text) == []


def test_doctests_count_and_each_example_is_listed_once() -> None:
    text = ">>> square(3)\n9\n>>> square(3)\n9\n>>> square(x)\n9\nsquare(3) == 9.\n"
    assert calls(text) == [("square(3)", "9")]


def test_the_readings_code_is_parsed_into_examples() -> None:
    assert parse_example("leap_year(1997) == False") == Example("leap_year", "leap_year(1997)",
                                                                "False")
    assert parse_example("assert f(2, 3) == 5") == Example("f", "f(2, 3)", "5")
    assert parse_example('check("abc") raises WeakPasswordError') == Example(
        "check", 'check("abc")', "", "WeakPasswordError")
    assert parse_example("is_ok(1) is True") == Example("is_ok", "is_ok(1)", "True")
    for wrong in ("f(x) == 2", "f(1) is 3", "Money(1).split(3) == [1]", "len([1]) == 1",
                  "f(1) == g(2)", "leap_year 1997 is False", ""):
        assert parse_example(wrong) is None, wrong


def test_only_examples_of_functions_the_file_defines_apply() -> None:
    examples = stated("add(1, 2) == 3", "sub(3, 1) == 2")
    source = "def add(a, b):\n    return a + b\n\nclass K:\n    def sub(self, a, b):\n        pass\n"
    assert [e.name for e in examples_for(source, examples)] == ["add"]
    assert examples_for("def add(:\n", examples) == ()


def run(tmp_path: Path, source: str, examples: tuple[Example, ...]):  # type: ignore[no-untyped-def]
    (tmp_path / "calc.py").write_text("raise SystemExit('the workspace file is not the one run')\n")
    return asyncio.run(run_examples(tmp_path, {"calc.py": source}, "calc.py", examples, "auto"))


def test_a_file_meeting_the_examples_passes_and_one_that_prints_fails(tmp_path: Path) -> None:
    examples = stated("is_leap(2000) == True", "is_leap(1900) == False",
                      'label(2024) == "leap"')
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
              stated("f(1) == 1"))
    assert not ran.ran and "importing it failed: ModuleNotFoundError" in ran.problem


def test_an_example_of_raising_passes_only_when_that_exception_is_raised(tmp_path: Path) -> None:
    examples = stated('parse("x") raises ValueError', 'parse("") raises ValueError')
    good = ("class BadInput(ValueError):\n    pass\n\n"
            "def parse(text):\n    if not text.isdigit():\n        raise BadInput(text)\n"
            "    return int(text)\n")
    assert (run(tmp_path, good, examples).passed, run(tmp_path, good, examples).failed) == (2, 0)
    lax = "def parse(text):\n    if text == 'x':\n        raise TypeError(text)\n    return 0\n"
    ran = run(tmp_path, lax, examples)
    assert ran.failures == (
        'parse("x"): the request says it raises ValueError, it raised TypeError: x',
        'parse(""): the request says it raises ValueError, it gave 0')
