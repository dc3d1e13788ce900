"""A round that would only read back what the last round wrote ends the phase instead of
costing a plan's tasks and another verdict (the ``look_back`` assist, scripted model).

A clean write round is decided by the engine and ends the phase by itself; the judge sees a
write round when something speaks against it (a name the file no longer defines, a test of
the workspace that fails), and may then ask for more."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.script import (
    analysis, authored, judge, of, one_file_workspace, plan, run, summary, task)

CALC = ("def add_numbers(a, b):\n    return a + b\n\n\n"
        "def double(x):\n    return add_numbers(x, x)\n")
RENAMED = CALC.replace("add_numbers", "add")
RENAME = "Rename add_numbers to add in calc.py."
STUB = "def double(x):\n    raise NotImplementedError\n"
ASK = "Implement double(x) in calc.py: double(2) is 4 and double(5) is 10."
RIGHT = "def double(x):\n    return x + x\n"
WRONG = "def double(x):\n    return x + 2\n"  # double(5) is 7
OTHER_WRONG = "def double(x):\n    return 10 if x == 5 else x\n"  # double(2) is 2
TESTS = ("from calc import double\n\n\ndef test_two():\n    assert double(2) == 4\n\n\n"
         "def test_five():\n    assert double(5) == 10\n")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    folder = one_file_workspace(tmp_path, "calc.py", CALC)
    (folder / "notes.md").write_text("add must also take floats\n", encoding="utf-8")
    return folder


def renamed_round() -> list[dict]:
    """A rename whose draft drops add_numbers: the facts say so, the judge asks for more."""
    return [analysis("Rename add_numbers to add"),
            plan(task(1, "write_file", path="calc.py", instruction="rename add_numbers")),
            authored(RENAMED),
            judge([1], completed=False, action="continue_phase")]


def failing_round(ws: Path) -> list[dict]:
    """A draft that fails one of the workspace's tests, and a repair that fails another: the
    draft stays, and its failing test is the judge's to weigh."""
    (ws / "calc.py").write_text(STUB, encoding="utf-8")
    (ws / "test_calc.py").write_text(TESTS, encoding="utf-8")
    return [analysis("Implement double in calc.py"),
            plan(task(1, "write_file", path="calc.py", instruction="implement double")),
            authored(WRONG), authored(OTHER_WRONG),
            judge([1], completed=False, action="continue_phase")]


def test_reading_back_the_file_just_written_ends_the_phase(ws: Path) -> None:
    events, model = run(renamed_round() + [
        plan(task(1, "list_files", path="."), task(2, "read_file", path="./calc.py")),
        summary("## Done\n\nadd_numbers is add now."),
    ], ws, request=RENAME, think_stage="never")
    stages = [e.stage for e in events if e.kind == "llm_call"]
    assert stages == ["request_analyser", "plan", "author", "judge", "plan", "summarizer"]
    assert [e.tool for e in of(events, "task_started")] == ["write_file"]
    notice = [(e.assist, e.message) for e in of(events, "notice") if "reads back" in e.message]
    assert notice == [("look_back", "Phase 1, round 2: the plan only reads back calc.py, which "
                                    "round 1 wrote and the judge has the facts of; the phase "
                                    "ends without running it.")]
    assert of(events, "phase_finished")[0].status == "completed"
    assert (ws / "calc.py").read_text() == RENAMED
    assert events[-1].outcome == "succeeded"
    assert model.remaining == 0  # every scripted reply was used, none left over


def test_with_look_back_off_the_round_runs(ws: Path) -> None:
    events, model = run(renamed_round() + [
        plan(task(1, "list_files", path="."), task(2, "read_file", path="./calc.py")),
        judge([1, 2]), summary("## Done\n\nadd_numbers is add now."),
    ], ws, request=RENAME, think_stage="never", assists_off="look_back")
    assert [e.tool for e in of(events, "task_started")] == ["write_file", "list_files",
                                                            "read_file"]
    assert not [e for e in of(events, "notice") if e.assist == "look_back"]
    assert model.remaining == 0


@pytest.mark.parametrize("second, why", [
    ([task(1, "read_file", path="notes.md")], "reads a file the phase did not write"),
    ([task(1, "read_file", path="calc.py"), task(2, "run_command", command="python calc.py")],
     "does more than look"),
])
def test_a_round_that_learns_something_new_runs(ws: Path, second: list[dict], why: str) -> None:
    events, model = run(renamed_round() + [
        plan(*second), judge([1, 2]), summary("## Done\n\nadd_numbers is add now."),
    ], ws, request=RENAME, think_stage="never", command_approval="auto")
    assert len(of(events, "task_started")) == 1 + len(second), why
    assert not [e for e in of(events, "notice") if "reads back" in e.message]
    assert model.remaining == 0


def test_reading_back_a_file_whose_checks_still_fail_ends_the_phase_incomplete(
        ws: Path) -> None:
    events, model = run(failing_round(ws) + [
        plan(task(1, "list_files", path="."), task(2, "read_file", path="calc.py")),
        summary("## Partly done\n\ndouble is still wrong."),
    ], ws, request=ASK, think_stage="never")
    stages = [e.stage for e in events if e.kind == "llm_call"]
    assert stages == ["request_analyser", "plan", "author", "author", "judge", "plan",
                      "summarizer"]
    assert [e.tool for e in of(events, "task_started")] == ["write_file"]
    notice = [e for e in of(events, "notice") if "reads back" in e.message]
    assert [(e.level, e.assist, e.message) for e in notice] == [(
        "warning", "look_back", "Phase 1, round 2: the plan only reads back calc.py, which "
        "round 1 wrote and the judge has the facts of; the phase ends without running it. "
        "Checks still fail for calc.py after every try at it.")]
    finished = of(events, "phase_finished")[0]
    assert (finished.status, finished.rounds) == ("incomplete", 1)
    assert (ws / "calc.py").read_text() == WRONG
    assert events[-1].outcome == "partial" and events[-1].verification == "failing"
    assert model.remaining == 0


def test_a_new_write_after_failed_checks_still_runs(ws: Path) -> None:
    events, model = run(failing_round(ws) + [
        plan(task(1, "write_file", path="calc.py", instruction="double x instead of adding 2")),
        authored(RIGHT), summary("## Done\n\ndouble is implemented."),
    ], ws, request=ASK, think_stage="never")
    assert [e.tool for e in of(events, "task_started")] == ["write_file", "write_file"]
    assert (ws / "calc.py").read_text() == RIGHT
    assert events[-1].outcome == "succeeded" and events[-1].verification == "verified"
    assert model.remaining == 0
