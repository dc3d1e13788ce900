"""A phase is not complete while a write of it failed and nothing else wrote that path."""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path

import pytest

from core.engine.build import create_engine
from core.llm.scripted import ScriptedModel
from tests.support.script import analysis, judge, of, plan, run, settings, summary, task, think


# The one-shot draft, asked first in round 1, is cut off inside its block: it gives no file and
# is no answer in words, so round 1 is planned.
NO_DRAFT = {"text": "todo_count.txt\n```text\n"}
# What checks a run that writes the count: the workspace's test, run by the test command.
CHECK = ("from pathlib import Path\n\nHERE = Path(__file__).parent\n\n\n"
         "def test_the_count_is_the_number_of_marked_lines():\n"
         "    lines = (HERE / 'app.py').read_text().splitlines()\n"
         "    marked = [line for line in lines if line.startswith('# T')]\n"
         "    assert (HERE / 'todo_count.txt').read_text().strip() == str(len(marked))\n")
TESTS = f"{shlex.quote(sys.executable)} -m pytest -q test_count.py"


def checked(ws: Path) -> str:
    """The test command of a run whose count the workspace's test checks."""
    (ws / "test_count.py").write_text(CHECK, encoding="utf-8")
    return TESTS


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "app.py").write_text("# TODO one\n# TODO two\nprint('hi')\n", encoding="utf-8")
    return folder


def test_a_phase_called_complete_whose_only_write_failed_goes_on_with_that_write(
        ws: Path) -> None:
    events, model = run([
        analysis("Count the TODO lines into todo_count.txt"), NO_DRAFT,
        plan(task(1, "search_code", pattern="TODO"),
             task(2, "write_file", path="todo_count.txt", content="{count}")),
        judge([1, 2], summary="Counted the TODO lines and wrote them."),
        think(True, False, ""),
        plan(task(1, "write_file", path="todo_count.txt", content="2")),
        summary(),  # the clean write is decided by the engine
    ], ws, test_command=checked(ws))
    notices = [n.message for n in of(events, "notice") if n.stage == "judge"]
    assert notices == ["Phase 1, round 1: the phase was called complete, but the write of "
                       "todo_count.txt (round 1 task 2) failed and no task of the phase wrote it; "
                       "the phase goes on with the failed writes."]
    assert [t.mode for t in of(events, "tasks_planned")] == ["plan", "retry"]
    assert (ws / "todo_count.txt").read_text() == "2"
    assert of(events, "phase_finished")[0].status == "completed"
    assert events[-1].outcome == "succeeded" and model.remaining == 0


def test_a_phase_whose_write_never_succeeds_is_not_completed(ws: Path) -> None:
    events, _ = run([
        analysis("Count the TODO lines into todo_count.txt"), NO_DRAFT,
        plan(task(1, "write_file", path="todo_count.txt", content="{count}")),
        judge([1], summary="Wrote the count."),
        think(True, False, ""),
        plan(task(1, "write_file", path="todo_count.txt", content="<number>")),
        judge([1], summary="Wrote the count."),
        think(True, False, ""),
        summary(),
    ], ws, max_rounds_per_phase=2)
    notices = [n.message for n in of(events, "notice") if n.stage == "judge"]
    assert len(notices) == 2 and "write of todo_count.txt (round 1 task 1, round 2 task 1) " \
        "failed" in notices[1]
    assert of(events, "phase_finished")[0].status != "completed"
    assert not (ws / "todo_count.txt").exists()
    assert events[-1].outcome in ("failed", "partial")


def test_a_write_the_person_denied_does_not_keep_the_phase_open(ws: Path) -> None:
    async def answered() -> list:
        model = ScriptedModel([
            analysis("Write a note"),
            {"text": "A short note saying hello."},  # the one-shot draft gives no file
            plan(task(1, "write_file", path="note.txt", content="hello")),
            judge([1], summary="The person did not want the note."),
            think(True, False, ""),
            summary(),
        ])
        engine = create_engine(settings(write_approval="ask"), ws, model=model)
        events = []
        async for event in engine.run("write a note"):
            events.append(event)
            if event.kind == "approval_requested":
                engine.answer_approval(event.request_id, "deny")  # type: ignore[attr-defined]
        return events

    events = asyncio.run(answered())
    assert of(events, "task_finished")[0].error == "denied by user"
    assert [n for n in of(events, "notice") if n.stage == "judge"] == []
    assert of(events, "phase_finished")[0].status == "completed"
    assert not (ws / "note.txt").exists()


def test_a_write_that_failed_in_an_earlier_round_keeps_the_phase_open_with_why(
        ws: Path) -> None:
    events, model = run([
        analysis("Count the TODO lines into todo_count.txt"), NO_DRAFT,
        plan(task(1, "write_file", path="todo_count.txt", content="{count}")),
        judge([], [1], completed=False, action="continue_phase", summary="Nothing counted yet."),
        think(False, True, "Search for the TODO lines first."),
        plan(task(1, "search_code", pattern="TODO")),
        judge([1], summary="Found the two TODO lines."),
        plan(task(1, "write_file", path="todo_count.txt", content="2")),
        summary(),  # the clean write is decided by the engine
    ], ws, max_rounds_per_phase=3, test_command=checked(ws))
    notices = [n.message for n in of(events, "notice") if n.stage == "judge"]
    assert notices == ["Phase 1, round 2: the phase was called complete, but the write of "
                       "todo_count.txt (round 1 task 1) failed and no task of the phase wrote it; "
                       "the phase goes on with the failed writes."]
    plans = [r for r in model.requests if r["tools"]
             and r["tools"][0]["function"]["name"] == "plan_tool_call"]
    assert ("Write what is still missing: round 1 task 1 write_file failed: not run: content is "
            "the placeholder '{count}'") in plans[2]["messages"][-1]["content"]
    assert (ws / "todo_count.txt").read_text() == "2"
    assert events[-1].outcome == "succeeded"
