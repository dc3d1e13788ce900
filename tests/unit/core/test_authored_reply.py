"""The file an authoring reply holds: a whole file in a fence, or search/replace blocks."""

from __future__ import annotations

from core.engine.authoring.replies import search_replace, whole_file

FILE = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def test_the_block_named_for_the_file_wins_over_an_example() -> None:
    reply = ("Here you go.\n\ncalc.py\n```python\ndef add(a, b):\n    return a + b\n```\n\n"
             "Use it like this:\n```python\nprint(add(1, 2))\n```\n")
    assert whole_file(reply, "src/calc.py").content == "def add(a, b):\n    return a + b\n"


def test_without_names_the_longest_complete_block_is_the_file() -> None:
    reply = "```\nx = 1\n```\n```python\nx = 1\ny = 2\nz = 3\n```\n```\nprint(x)\n```"
    assert whole_file(reply, "a.py").content == "x = 1\ny = 2\nz = 3\n"


def test_no_block_an_empty_block_and_a_cut_off_block_are_refused_with_why() -> None:
    assert "no fenced code block" in whole_file("def f(): pass", "a.py").problem
    assert "empty" in whole_file("```python\n\n```", "a.py").problem
    cut = whole_file("```python\ndef f():\n    return [1, 2,", "a.py")
    assert cut.content is None and "cut off" in cut.problem


def test_search_replace_blocks_apply_in_order() -> None:
    reply = ("calc.py\n<<<<<<< SEARCH\n    return a + b\n=======\n    return b + a\n"
             ">>>>>>> REPLACE\n\n<<<<<<< SEARCH\ndef sub(a, b):\n=======\ndef minus(a, b):\n"
             ">>>>>>> REPLACE\n")
    result = search_replace(reply, FILE)
    assert result.content == FILE.replace("a + b", "b + a").replace("def sub", "def minus")


def test_search_text_with_lost_trailing_spaces_or_indentation_still_matches() -> None:
    text = "class A:\n    def f(self):   \n        return 1\n"
    trailing = search_replace("<<<<<<< SEARCH\n    def f(self):\n=======\n    def g(self):\n"
                              ">>>>>>> REPLACE", text)
    assert trailing.content == "class A:\n    def g(self):\n        return 1\n"
    shifted = search_replace("<<<<<<< SEARCH\nreturn 1\n=======\nreturn 2\n>>>>>>> REPLACE",
                             text)
    assert shifted.content == "class A:\n    def f(self):   \n        return 2\n"


def test_a_search_that_is_not_in_the_file_fails_the_whole_reply() -> None:
    reply = ("<<<<<<< SEARCH\n    return a + b\n=======\n    return 0\n>>>>>>> REPLACE\n"
             "<<<<<<< SEARCH\n    return a * b\n=======\n    return 1\n>>>>>>> REPLACE\n")
    result = search_replace(reply, FILE)
    assert result.content is None
    assert "block 2" in result.problem and "return a * b" in result.problem
    assert "no search/replace block" in search_replace("```python\nx\n```", FILE).problem
