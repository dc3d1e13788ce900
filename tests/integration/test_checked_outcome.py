"""Both engines' outcomes are checked against the same facts: a request to change files in
which no write succeeded is never `succeeded`, and a search is no evidence that a function
was implemented; the draft's write (round 1 of a request to change files, no Plan call) whose
facts are clean (it parses, the workspace's tests pass) is decided by the engine, and
otherwise the judge gets the facts of each write and of the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.script import (
    analysis, authored, judge, one_file_workspace, plan, reading, run, summary, task, think)

STUB = "def slugify(text):\n    raise NotImplementedError\n"
REQUEST = "Implement slugify(text) in textutils.py: lower case, words joined by dashes."
CHANGE = reading("change", change=("textutils.py",))
# A draft cut off inside its block: no file is taken from it, and it is no answer in words.
CUT_OFF = {"text": "textutils.py\n```python\ndef slugify(text):\n    return"}


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return one_file_workspace(tmp_path, "textutils.py", STUB)


def claimed_done(requirement: str) -> dict:
    return {"requirement": requirement, "status": "done", "evidence": "task 1 search_code"}


def test_a_phase_run_that_only_searched_is_not_succeeded_whatever_the_judge_says(ws: Path) -> None:
    reply = summary("## Done\n\nslugify is implemented.")
    reply["arguments"]["requirements"] = [claimed_done("slugify(text) is implemented"),
                                          claimed_done("words are joined by dashes")]
    events, _ = run([
        analysis("Implement slugify", requirements=[
            {"requirement": "slugify(text) is implemented", "quote": "Implement slugify(text)"},
            {"requirement": "words are joined by dashes", "quote": "words joined by dashes"}],
            **CHANGE),
        CUT_OFF,  # the draft gives no file: round 1 is planned
        plan(task(1, "search_code", pattern="slugify")),
        judge([1]),  # the judge ends the phase as complete
        reply,
    ], ws, request=REQUEST, max_rounds_per_phase=1)
    final, finished = events[-2], events[-1]
    assert [e.stage for e in events if e.kind == "llm_call"] == [
        "request_analyser", "author", "plan", "judge", "summarizer"]
    assert finished.outcome == "failed" and final.outcome == "failed"
    assert [r["status"] for r in final.requirements] == ["failed", "failed"]
    assert all(r["evidence"] == "No file was changed." for r in final.requirements)
    assert (ws / "textutils.py").read_text() == STUB


def test_the_classic_loop_that_never_wrote_is_not_succeeded(ws: Path) -> None:
    events, _ = run([
        analysis("Implement slugify", **CHANGE),
        {"tool_calls": [{"tool": "search_code", "arguments": {"pattern": "slugify"}}]},
        {"text": "slugify is implemented in textutils.py."},
        {"text": "slugify is implemented in textutils.py."},  # after the reminder to write
    ], ws, request=REQUEST, use_phase_task=False)
    assert events[-1].outcome == "failed"
    final = events[-2]
    assert final.requirements == [{"requirement": REQUEST, "status": "failed",
                                   "evidence": "No file was changed."}]
    assert (ws / "textutils.py").read_text() == STUB


def test_a_question_needs_no_write(ws: Path) -> None:
    """The answer cites a line of the file the run showed: that is what checks it."""
    events, _ = run([
        analysis("Say where slugify is defined",
                 **reading("question", forbid=("*",), quotes={"*": "Do not change any file"})),
        {"tool_calls": [{"tool": "search_code", "arguments": {"pattern": "slugify"}}]},
        {"text": "slugify is defined in textutils.py (`def slugify(text):`) and raises "
                 "NotImplementedError."},
    ], ws, request="Where is slugify defined? Do not change any file.", use_phase_task=False)
    assert events[-1].outcome == "succeeded"
    assert events[-1].verification_line == "the answer cites textutils.py, line 1"
    assert [r["status"] for r in events[-2].requirements] == ["done"]  # the answer counts
    assert (ws / "textutils.py").read_text() == STUB


def with_test(ws: Path) -> None:
    (ws / "test_textutils.py").write_text(
        "from textutils import slugify\n\n\ndef test_slug():\n    assert slugify('A b') == 'a-b'\n",
        encoding="utf-8")


RUN_TESTS = task(1, "run_command", command="python3 -m pytest -q -p no:cacheprovider "
                "test_textutils.py")


def test_a_write_that_passes_the_tests_is_decided_by_the_engine(ws: Path) -> None:
    with_test(ws)
    solved = "def slugify(text):\n    return '-'.join(text.lower().split())\n"
    events, model = run([
        analysis("Implement slugify"),
        authored(solved, "textutils.py"),  # the draft: round 1 writes it, no Plan call
        summary("## Done\n\nslugify is implemented and its test passes."),
    ], ws, request=REQUEST)
    draft_prompt = model.requests[1]["messages"][-1]["content"]
    assert "test_textutils.py\n```python\nfrom textutils import slugify" in draft_prompt
    write = [e for e in events if e.kind == "task_finished"][0]
    assert "textutils.py parses" in write.result
    assert "Checked: the workspace's tests: 1 test pass" in write.result
    assert [e.stage for e in events if e.kind == "llm_call"] == [
        "request_analyser", "author", "summarizer"]  # no plan, no judge: the facts decide
    judged = [e for e in events if e.kind == "judged"][0]
    assert judged.by_engine and judged.user_summary.startswith("Decided from the facts:")
    assert events[-1].outcome == "succeeded" and events[-1].verification == "verified"
    assert (ws / "textutils.py").read_text() == solved


def test_the_judge_gets_the_facts_of_a_write_and_of_the_tests(ws: Path) -> None:
    with_test(ws)
    wrong = "def slugify(text):\n    return text.lower()\n"
    events, model = run([
        analysis("Implement slugify", **CHANGE),
        CUT_OFF,  # the draft gives no file: round 1 is planned
        plan(task(1, "write_file", path="textutils.py", instruction="join words by dashes")),
        authored(wrong, "textutils.py"),  # the planned write fails the workspace's test
        authored(wrong),  # the one candidate sampled of the same prompt fails it alike
        judge([1], completed=False, action="continue_phase", next_tasks=[RUN_TESTS]),
        judge([], [1], completed=False, action="end_phase"),
        think(False, False),
        summary("## Not done\n\nslugify does not join words by dashes yet."),
    ], ws, request=REQUEST, max_rounds_per_phase=2, candidates=1)
    first, candidate = model.requests[3], model.requests[4]
    assert candidate["messages"] == first["messages"] and candidate["temperature"] == 0.8
    write_judged = model.requests[5]["messages"]  # round 1: the planned write
    assert "textutils.py parses" in write_judged[-1]["content"]
    assert "Checked: the workspace's tests: 1 of 1 tests fail" in write_judged[-2]["content"]
    assert "1 candidate tried: candidate 1: passes 0 of 1 checks" in write_judged[-2]["content"]
    tests_judged = model.requests[6]["messages"][-1]["content"]  # round 2: the test command
    assert "tests: 1 failed" in tests_judged
    assert [e.stage for e in events if e.kind == "llm_call"] == [
        "request_analyser", "author", "plan", "author", "author", "judge", "judge", "think",
        "summarizer"]
    assert model.remaining == 0
    assert events[-1].outcome != "succeeded" and events[-1].verification == "failing"
    assert (ws / "textutils.py").read_text() == wrong
