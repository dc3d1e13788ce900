"""A round that would only read back what the last round wrote ends the phase instead of
costing a plan's tasks and another verdict (scripted model)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.script import (
    analysis, authored, checks, judge, of, one_file_workspace, plan, run, summary, task)

STUB = "def double(x):\n    raise NotImplementedError\n"
ASK = "Implement double(x) in calc.py: double(2) is 4."
RIGHT = "def double(x):\n    return x + x\n"
WRONG = "def double(x):\n    return x\n"
SCRIPT = "from calc import double\nassert double(2) == 4\n"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    folder = one_file_workspace(tmp_path, "calc.py", STUB)
    (folder / "notes.md").write_text("double must also take floats\n", encoding="utf-8")
    return folder


def first_round(content: str) -> list[dict]:
    return [analysis("Implement double in calc.py"),
            plan(task(1, "write_file", path="calc.py", instruction="implement double")),
            authored(content), checks(SCRIPT)]


def test_reading_back_the_file_just_written_ends_the_phase(ws: Path) -> None:
    events, model = run(first_round(RIGHT) + [
        judge([1], completed=False, action="continue_phase"),
        plan(task(1, "list_files", path="."), task(2, "read_file", path="./calc.py")),
        summary("## Done\n\ndouble is implemented."),
    ], ws, request=ASK, check_examples=True, think_stage="never")
    stages = [e.stage for e in events if e.kind == "llm_call"]
    assert stages == ["request_analyser", "plan", "author", "checks", "judge", "plan",
                      "summarizer"]
    assert [e.tool for e in of(events, "task_started")] == ["write_file"]
    notice = [e.message for e in of(events, "notice") if "reads back" in e.message]
    assert notice == ["Phase 1, round 2: the plan only reads back calc.py, which round 1 wrote "
                      "and the judge has the facts of; the phase ends without running it."]
    assert of(events, "phase_finished")[0].status == "completed"
    assert (ws / "calc.py").read_text() == RIGHT
    assert events[-1].outcome == "succeeded"
    assert model.remaining == 0  # every scripted reply was used, none left over


@pytest.mark.parametrize("second, why", [
    ([task(1, "read_file", path="notes.md")], "reads a file the phase did not write"),
    ([task(1, "read_file", path="calc.py"), task(2, "run_command", command="python calc.py")],
     "does more than look"),
])
def test_a_round_that_learns_something_new_runs(ws: Path, second: list[dict], why: str) -> None:
    events, _ = run(first_round(RIGHT) + [
        judge([1], completed=False, action="continue_phase"),
        plan(*second), judge([1, 2]), summary("## Done\n\ndouble is implemented."),
    ], ws, request=ASK, check_examples=True, think_stage="never", command_approval="auto")
    assert len(of(events, "task_started")) == 1 + len(second), why
    assert not [e for e in of(events, "notice") if "reads back" in e.message]


def test_reading_back_a_file_whose_checks_still_fail_ends_the_phase_incomplete(
        ws: Path) -> None:
    events, model = run(first_round(WRONG) + [
        authored(WRONG), authored(WRONG),
        judge([1], completed=False, action="continue_phase"),
        plan(task(1, "list_files", path="."), task(2, "read_file", path="calc.py")),
        summary("## Partly done\n\ndouble is still wrong."),
    ], ws, request=ASK, check_examples=True, think_stage="never")
    stages = [e.stage for e in events if e.kind == "llm_call"]
    assert stages == ["request_analyser", "plan", "author", "checks", "author", "author",
                      "judge", "plan", "summarizer"]
    assert [e.tool for e in of(events, "task_started")] == ["write_file"]
    notice = [e for e in of(events, "notice") if "reads back" in e.message]
    assert [(e.level, e.message) for e in notice] == [(
        "warning", "Phase 1, round 2: the plan only reads back calc.py, which round 1 wrote "
                   "and the judge has the facts of; the phase ends without running it. Checks "
                   "of the request's examples still fail for calc.py after every try at it.")]
    finished = of(events, "phase_finished")[0]
    assert (finished.status, finished.rounds) == ("incomplete", 1)
    assert (ws / "calc.py").read_text() == WRONG
    assert events[-1].outcome == "partial"
    assert model.remaining == 0


def test_a_new_write_after_failed_checks_still_runs(ws: Path) -> None:
    events, _ = run(first_round(WRONG) + [
        authored(WRONG), authored(WRONG),
        judge([1], completed=False, action="continue_phase"),
        plan(task(1, "write_file", path="calc.py", instruction="return twice x")),
        authored(RIGHT), judge([1]), summary("## Done\n\ndouble is implemented."),
    ], ws, request=ASK, check_examples=True, think_stage="never")
    assert [e.tool for e in of(events, "task_started")] == ["write_file", "write_file"]
    assert (ws / "calc.py").read_text() == RIGHT
    assert events[-1].outcome == "succeeded"
