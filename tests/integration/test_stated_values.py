"""A run checked only by the request's examples succeeds only when every value between quote
marks that a requirement states is used by an example (scripted model): the embedded
model's ex-top-words runs ended `succeeded` on one example while the request's "don't" and
"o'clock" were never tried, and the hidden tests failed on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.script import analysis, authored, files_workspace, of, reading, run, summary

STUB = "def top(text):\n    raise NotImplementedError\n"
DONE = "def top(text):\n    return text.lower().split()[0]\n"
ASK = ('Implement top(text) in words.py. Apostrophes stay inside words: "don\'t" is one '
       'word. Example: top("The cat") gives "the".')
WORDS = 'Apostrophes stay inside words: "don\'t" is one word.'


def _run(tmp_path: Path, examples: tuple[str, ...], ask: str = ASK, words: str = WORDS
         ) -> tuple[object, object]:
    ws = files_workspace(tmp_path, {"words.py": STUB})
    events, _ = run([
        analysis("Implement top", requirements=[
            {"requirement": "top keeps apostrophes inside words", "quote": words}],
            **reading("change", change=("words.py",), examples=examples)),
        authored(DONE, "words.py"),
        summary("top is implemented."),
    ], ws, request=ask)
    return of(events, "summary")[0], of(events, "run_finished")[0]


def test_a_requirement_whose_values_no_example_uses_is_not_verified(tmp_path: Path) -> None:
    final, finished = _run(tmp_path, ('top("The cat") == "the"',))
    assert finished.verification_line == "1 check of the request's examples passes"
    assert finished.outcome == "unverified"
    [requirement] = final.requirements
    assert requirement["evidence"].startswith(
        "No check the engine ran uses what it states (\"don't\"), so it is not verified.")


@pytest.mark.parametrize("ask", [
    ASK.replace('top("The cat") gives "the"', 'top("don\'t stop") gives "don\'t"'),
    # the same requirement written in Chinese quote marks
    ASK.replace('"don\'t"', "“don't”").replace('top("The cat") gives "the"',
                                              'top("don\'t stop") gives "don\'t"'),
])
def test_an_example_using_a_stated_value_checks_the_requirement(tmp_path: Path,
                                                                 ask: str) -> None:
    words = ask.split(". ")[1] + "."
    _, finished = _run(tmp_path, ('top("don\'t stop") == "don\'t"',), ask, words)
    assert finished.outcome == "succeeded"


def test_a_stated_value_in_an_examples_result_checks_the_requirement(tmp_path: Path) -> None:
    ask = 'Implement top(text) in words.py: it gives "the" for The cat, so top("The cat") is "the".'
    _, finished = _run(tmp_path, ('top("The cat") == "the"',), ask, 'it gives "the" for The cat')
    assert finished.outcome == "succeeded"


def test_a_requirement_checked_on_one_of_its_values_only_is_not_verified(tmp_path: Path) -> None:
    ask = ('Implement top(text) in words.py. Apostrophes stay inside words: "don\'t" and '
           '"o\'clock" are words. Example: top("don\'t stop") gives "don\'t".')
    words = 'Apostrophes stay inside words: "don\'t" and "o\'clock" are words.'
    final, finished = _run(tmp_path, ('top("don\'t stop") == "don\'t"',), ask, words)
    assert finished.outcome == "unverified"
    assert final.requirements[0]["evidence"].startswith(
        "No check the engine ran uses what it states (\"o'clock\"), so it is not verified.")


def _run_unlisted(tmp_path: Path, ask: str, example: str) -> tuple[object, object]:
    """A run whose analysis lists no requirement of the person's (only assumptions)."""
    ws = files_workspace(tmp_path, {"words.py": STUB})
    events, _ = run([
        analysis("Implement top", requirements=[], assumptions=["words are split on spaces"],
                 **reading("change", change=("words.py",), examples=(example,))),
        authored(DONE, "words.py"),
        summary("top is implemented."),
    ], ws, request=ask)
    return of(events, "summary")[0], of(events, "run_finished")[0]


def test_with_no_requirement_listed_the_whole_request_is_held_to_the_checks(
        tmp_path: Path) -> None:
    # the request is longer than the 200 characters the requirement's text keeps
    ask = ("在words.py中实现top(text)，返回text中出现次数最多的单词。" + "单词之间用空格分隔。" * 20
           + "撇号属于单词：“don't”是一个单词。例如top(\"The cat\")返回\"the\"。")
    final, finished = _run_unlisted(tmp_path, ask, 'top("The cat") == "the"')
    [requirement] = final.requirements
    assert len(requirement["requirement"]) == 200
    assert finished.verification_line == "1 check of the request's examples passes"
    assert finished.outcome == "unverified"
    assert requirement["checked"] is False and "\"don't\"" in requirement["evidence"]


def test_with_no_requirement_listed_an_example_using_every_stated_value_succeeds(
        tmp_path: Path) -> None:
    ask = "在words.py中实现top(text)，返回出现次数最多的单词。例如top(\"The cat\")返回\"the\"。"
    final, finished = _run_unlisted(tmp_path, ask, 'top("The cat") == "the"')
    assert finished.outcome == "succeeded"
    assert "checked" not in final.requirements[0]
