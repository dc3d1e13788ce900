"""The summary is in the person's language where its script shows it (scripted model): a
summary in another script is translated in one more call, taken only when the translation is
in that script and keeps every name of the original. Both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.script import analysis, authored, files_workspace, of, reading, run, summary

STUB = "def add(a, b):\n    raise NotImplementedError\n"
DONE = "def add(a, b):\n    return a + b\n"
ZH = "在calc.py中实现add(a, b)，返回两数之和。"
FR = "Implémente add(a, b) dans calc.py : elle renvoie la somme."
EN_SUMMARY = "## Done\n\nadd is implemented in calc.py and returns the sum."
ZH_SUMMARY = "## 完成\n\n已在calc.py中实现add，返回两数之和。"
EN_NAMED = "## Done\n\n`add` is implemented in calc.py and returns the sum."


def _run(tmp_path: Path, request: str, language: str, *summaries: str
         ) -> tuple[list, object]:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, model = run([
        analysis("Implement add", language=language,
                 **reading("change", change=("calc.py",))),
        authored(DONE, "calc.py"),
        *(summary(text) if i == 0 else {"text": text} for i, text in enumerate(summaries)),
    ], ws, request=request)
    assert model.remaining == 0
    return events, model


def test_a_summary_in_another_script_is_translated_into_the_persons_language(
        tmp_path: Path) -> None:
    events, model = _run(tmp_path, ZH, "Chinese", EN_SUMMARY, ZH_SUMMARY)
    calls = of(events, "llm_call")
    assert [e.stage for e in calls][-2:] == ["summarizer", "summarizer"]
    final = of(events, "summary")[0]
    assert final.final_summary == ZH_SUMMARY and final.generated_by == "model"
    ask = model.requests[-1]
    assert ask["tools"] == [] and len(ask["messages"]) == 2  # the text alone, no tools
    assert ask["messages"][0] == {"role": "system", "content": (
        "Translate the user's text into Chinese (简体中文). Keep code, paths and names as they "
        "are. Reply with the translation only.")}
    assert ask["messages"][1] == {"role": "user", "content": EN_SUMMARY}
    assert final.requirements and final.requirements[0]["status"] == "done"


@pytest.mark.parametrize("translation", [
    "## Done again\n\nStill in English.",  # not in the person's script
    "## 完成\n\n已在calc.py中实现`plus`。",  # the code span `add` lost
    "## 完成\n\n已在calc2.py中实现`add`。",  # the file name changed
])
def test_a_translation_that_is_no_better_leaves_the_summary(tmp_path: Path,
                                                            translation: str) -> None:
    events, _ = _run(tmp_path, ZH, "Chinese", EN_NAMED, translation)
    assert of(events, "summary")[0].final_summary == EN_NAMED


def test_a_translation_keeping_every_name_is_taken(tmp_path: Path) -> None:
    translated = "## 完成\n\n`add` 已在 calc.py 中实现，返回两数之和。"
    events, _ = _run(tmp_path, ZH, "Chinese", EN_NAMED, translated)
    assert of(events, "summary")[0].final_summary == translated


JA = "calc.pyにadd(a, b)を実装して、和を返してください。"


@pytest.mark.parametrize(("request_", "language", "translation", "shown"), [
    # handed back as a quotation (the embedded model, Japanese): the marks come off
    (JA, "Japanese", "「`add` は calc.py に実装され、和を返します。」",
     "`add` は calc.py に実装され、和を返します。"),
    (ZH, "Chinese", "“`add` 已在 calc.py 中实现。”", "`add` 已在 calc.py 中实现。"),
    # marks that quote parts of the text stay
    (JA, "Japanese", "「`add`」は calc.py の「和」を返します", "「`add`」は calc.py の「和」を返します"),
])
def test_quote_marks_around_the_whole_translation_come_off(
        tmp_path: Path, request_: str, language: str, translation: str, shown: str) -> None:
    events, _ = _run(tmp_path, request_, language, EN_NAMED, translation)
    assert of(events, "summary")[0].final_summary == shown


@pytest.mark.parametrize(("request_", "language", "text"), [
    (ZH, "Chinese", ZH_SUMMARY),  # already in the person's script
    (FR, "French", EN_SUMMARY),  # a Latin-script language: the script cannot tell
])
def test_no_second_call_when_the_script_matches_or_cannot_tell(
        tmp_path: Path, request_: str, language: str, text: str) -> None:
    events, _ = _run(tmp_path, request_, language, text)
    assert [e.stage for e in of(events, "llm_call")].count("summarizer") == 1
    assert of(events, "summary")[0].final_summary == text


def test_the_classic_loop_asks_again_the_same_way(tmp_path: Path) -> None:
    """The loop's budget (one call) ends before it answers, so the summarizer writes its
    summary."""
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, model = run([
        analysis("Implement add", language="Chinese", **reading("change", change=("calc.py",))),
        {"tool": "read_file", "arguments": {"path": "calc.py"}},
        summary(EN_SUMMARY), {"text": ZH_SUMMARY},
    ], ws, request=ZH, use_phase_task=False, max_iterations=1)
    assert model.remaining == 0
    assert of(events, "summary")[0].final_summary == ZH_SUMMARY
    assert [e.stage for e in of(events, "llm_call")].count("summarizer") == 2
