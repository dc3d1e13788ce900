"""A rename the request asks for is checked by the engine on the files in question, without a
model: a run that leaves the old name in use does not end `succeeded`, whatever the judge and
the summary say, in both engines (issue 36), with the scripted model."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.script import analysis, authored, files_workspace, judge, of, reading, run, \
    summary

CALC = "def add_numbers(a, b):\n    return a + b\n"
MAIN = "from calc import add_numbers\n\nprint(add_numbers(2, 3))\n"
CALC_RENAMED = "def add(a, b):\n    return a + b\n"
MAIN_RENAMED = "from calc import add\n\nprint(add(2, 3))\n"
ASK = "Rename the function add_numbers to add everywhere: in calc.py and in main.py."
CLAIM = "add_numbers is now add everywhere, and the tests pass."
# The model's reading of ASK: both files change, and the rename, with the words it rests on.
RENAME = analysis("Rename add_numbers", **reading(
    "change", change=("calc.py", "main.py"), renames=(("add_numbers", "add"),),
    quotes={"add_numbers": "Rename the function add_numbers to add"}))


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return files_workspace(tmp_path, {"calc.py": CALC, "main.py": MAIN,
                                      "notes.md": "Call `add_numbers` to add.\n"})


def test_a_rename_left_undone_in_one_file_fails_the_run_in_the_phase_engine(ws: Path) -> None:
    events, model = run([
        RENAME,
        authored(MAIN_RENAMED, "main.py"),  # the draft: main.py only, calc.py left as it was
        judge([1], summary="add_numbers is renamed."),
        summary(CLAIM),
    ], ws, request=ASK, max_rounds_per_phase=1)
    assert (ws / "calc.py").read_text() == CALC
    assert [e.stage for e in of(events, "llm_call")] == [
        "request_analyser", "author", "judge", "summarizer"]
    judged = of(events, "judged")[0]
    assert not judged.by_engine  # a check fails that the draft's repair cannot see: the judge
    judge_prompt = model.requests[2]["messages"][-1]["content"]
    assert "1 of 1 requested rename fails (calc.py still uses add_numbers)" in judge_prompt
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == (
        "failing", "1 of 1 requested rename fails")
    assert "On the final files, 1 of 1 requested rename fails (calc.py still uses " \
           "add_numbers)." in final.verification_sentences
    # the model's words stay its own (no sentence is rewritten); the engine's facts beside
    # them say what ran, and no test did
    assert final.final_summary == CLAIM
    assert not any("test" in sentence for sentence in final.verification_sentences)
    assert of(events, "run_finished")[0].outcome == "partial"


def test_a_rename_done_in_every_named_file_is_said_and_not_taken_for_a_test(ws: Path) -> None:
    """notes.md is not named by the request, so its `add_numbers` is not in question. The
    rename check is said, but it is no test of the code: the run ends 'unverified'."""
    events, _ = run([
        RENAME,
        {"text": f"calc.py\n```python\n{CALC_RENAMED}```\n\nmain.py\n```python\n"
                 f"{MAIN_RENAMED}```\n"},
        summary("add_numbers is now add in calc.py and main.py."),
    ], ws, request=ASK)
    assert (ws / "calc.py").read_text() == CALC_RENAMED
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("unverified", "not verified")
    assert "The renames the request asks for are done: add_numbers is used in none of " \
           "calc.py, main.py." in final.verification_sentences
    assert of(events, "run_finished")[0].outcome == "unverified"


def test_the_classic_loop_is_held_to_the_same_rename_check(ws: Path) -> None:
    events, _ = run([
        RENAME,
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "main.py", "instruction": "use add instead of add_numbers"}}]},
        authored(MAIN_RENAMED),
        {"text": CLAIM},
    ], ws, request=ASK, use_phase_task=False)
    assert (ws / "main.py").read_text() == MAIN_RENAMED
    final = of(events, "summary")[0]
    assert final.verification == "failing"
    assert "calc.py still uses add_numbers" in " ".join(final.verification_sentences)
    assert of(events, "run_finished")[0].outcome == "partial"


def test_the_classic_loop_writes_the_drafts_named_files_its_answer_left_unwritten(
        ws: Path) -> None:
    """Seen on the embedded model (rename-key): the loop wrote config.json from a draft that
    gave all three files, then answered; the draft is the floor in both engines. The rename
    done is said, but no test checks the code: the run ends 'unverified'."""
    draft = (f"calc.py\n```python\n{CALC_RENAMED}```\n\nmain.py\n```python\n"
             f"{MAIN_RENAMED}```\n")
    events, model = run([
        RENAME,
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "calc.py", "instruction": "rename add_numbers to add"}}]},
        {"text": draft},  # the one-shot draft, asked by the write: both files
        {"text": "calc.py now defines add."},  # main.py left as it was
        {"text": "add_numbers is now add in calc.py and main.py."},
    ], ws, request=ASK, use_phase_task=False)
    assert (ws / "calc.py").read_text() == CALC_RENAMED
    assert (ws / "main.py").read_text() == MAIN_RENAMED
    planned = of(events, "tasks_planned")
    assert [(p.mode, [t["arguments"]["path"] for t in p.tasks]) for p in planned] == [
        ("plan", ["calc.py"]), ("draft", ["main.py"])]
    told = model.requests[4]["messages"][-1]["content"]
    assert told.startswith("Before taking your answer, the engine ran the writes") \
        and "wrote main.py" in told
    assert [e.stage for e in of(events, "llm_call")] == ["request_analyser", "classic", "author",
                                                         "classic", "classic"]
    final = of(events, "summary")[0]
    assert final.final_summary == "add_numbers is now add in calc.py and main.py."
    assert final.verification != "failing"
    assert of(events, "run_finished")[0].outcome == "unverified"
