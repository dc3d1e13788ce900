"""A run checked only by the request's examples succeeds only when every requirement that states
values between quote marks has an example using one of them (scripted model): the embedded
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
