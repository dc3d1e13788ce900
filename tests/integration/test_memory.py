"""A follow-up request sees earlier runs' structured goals and summaries, never their raw text."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.llm.scripted import ScriptedModel
from core.engine.memory import MEMORY_CHAR_CAP, UNMARKED_SUMMARY_CHARS, format_memory
from core.engine.build import create_engine
from core.store.history import Store
from core.store.runs import memory_window, start_recorded_run
from tests.support.script import analysis, authored, judge, phases, plan, reading, settings, \
    summary, task


async def recorded_run(store: Store, conversation: int, request: str, replies: list,
                       workspace: Path, recent: int = 3) -> ScriptedModel:
    """A run started as the front ends start one (``start_recorded_run``)."""
    model = ScriptedModel(replies)
    start = start_recorded_run(store, settings(history_runs=recent), request, model.provider,
                               model.name, conversation)
    engine = create_engine(settings(), workspace, model=model, memory=start.memory,
                           run_id=start.run_id)
    async for _ in start.recorder.wrap(engine.run(
            request, previous_analysis=start.pending_analysis)):
        pass
    return model


def simple(goal: str, text: str) -> list:
    """A run that answers in words: the draft's prose makes it a question, round 1 lists the
    files."""
    return [analysis(goal, complexity="complex"), phases((1, "Do", [])),
            {"text": "The folder holds a few files."},  # the draft
            plan(task(1, "list_files")), judge([1]), summary(f"{text} and the work is done")]


def test_follow_up_sees_previous_summary_not_raw_text(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.sqlite3")
    conversation = store.create_conversation("demo")

    async def go() -> ScriptedModel:
        await recorded_run(store, conversation, "RAW-FIRST: pls look at files, kthx",
                           simple("Inspect the files", "SUMMARY-ONE: two files found"), tmp_path)
        return await recorded_run(store, conversation, "now the second thing",
                                  simple("Second goal", "done"), tmp_path)

    model = asyncio.run(go())
    planner_messages = str(model.requests[1]["messages"])
    assert "SUMMARY-ONE: two files found" in planner_messages
    assert "Inspect the files" in planner_messages
    assert "RAW-FIRST" not in planner_messages
    assert all("RAW-FIRST" not in str(r["messages"]) for r in model.requests)


def test_window_keeps_recent_runs_and_milestones(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.sqlite3")
    conversation = store.create_conversation("demo")
    (tmp_path / "a.txt").write_text("old\n")

    async def go() -> None:
        await recorded_run(store, conversation, "r1: write hello.py", [
            analysis("Write a file", complexity="complex",
                     **reading("change", create=("hello.py",))),
            phases((1, "Write", [])),
            authored('GREETING = "hi"\n', "hello.py"),  # the draft writes the file in round 1
            judge([1]), summary("MILESTONE-WRITE wrote a new file")], tmp_path)
        for i in range(2, 6):
            await recorded_run(store, conversation, f"r{i}",
                               simple(f"Goal {i}", f"SUMMARY-{i}"), tmp_path)

    asyncio.run(go())
    memory, previous = memory_window(store, conversation, 2)
    summaries = [m["summary"] for m in memory]
    assert summaries == ["MILESTONE-WRITE wrote a new file", "SUMMARY-4 and the work is done",
                         "SUMMARY-5 and the work is done"]
    assert memory[0]["milestone"] == "changed files" and previous is None


def test_clarification_answer_continues_the_analysis(tmp_path: Path) -> None:
    store = Store(tmp_path / "h.sqlite3")
    conversation = store.create_conversation("demo")

    async def go() -> ScriptedModel:
        await recorded_run(store, conversation, "fix it",
                           [analysis("Fix something", questions=["Which file?"])], tmp_path)
        return await recorded_run(store, conversation, "config.py",
                                  simple("Fix config.py", "fixed"), tmp_path)

    model = asyncio.run(go())
    analyser_prompt = model.requests[0]["messages"][-1]["content"]
    assert "Earlier analysis" in analyser_prompt and "Fix something" in analyser_prompt
    assert "config.py" in analyser_prompt


def long_summary(tag: str) -> str:
    """About 1,400 characters: three of them exceed the memory's cap."""
    return f"{tag} " + " ".join(f"{tag.lower()}-detail-{n}" for n in range(60))


def test_over_the_cap_milestones_stay_whole_and_unmarked_runs_go_oldest_first(
        tmp_path: Path) -> None:
    store = Store(tmp_path / "h.sqlite3")
    conversation = store.create_conversation("demo")
    tags = ["KEPT-OLDEST", "PLAIN-TWO", "PLAIN-THREE", "PLAIN-FOUR", "PLAIN-NEWEST"]

    async def go() -> ScriptedModel:
        for n, tag in enumerate(tags):
            await recorded_run(store, conversation, f"r{n}",
                               simple(f"Goal {tag}", long_summary(tag)), tmp_path)
            if n == 0:
                store.mark_run(store.runs(conversation)[0]["id"], True)
        return await recorded_run(store, conversation, "and now?",
                                  simple("Follow up", "followed up"), tmp_path, recent=5)

    model = asyncio.run(go())
    window, _ = memory_window(store, conversation, 6)
    assert len(window) == 6 and len(format_memory(window[:5], cap=10**6)) > MEMORY_CHAR_CAP
    memory = format_memory(window[:5])
    assert len(memory) <= MEMORY_CHAR_CAP
    seen = [tag for tag in tags if tag in memory]
    assert seen == ["KEPT-OLDEST", "PLAIN-FOUR", "PLAIN-NEWEST"]
    kept = long_summary("KEPT-OLDEST") + " and the work is done"
    assert f"[milestone: marked by the person]: goal «Goal KEPT-OLDEST» ended completed. " \
           f"Summary: {kept}" in memory
    assert f"{long_summary('PLAIN-NEWEST')[:UNMARKED_SUMMARY_CHARS - 1]}…" in memory
    follow_up = str(model.requests[1]["messages"])
    assert kept in follow_up and "PLAIN-TWO" not in follow_up and "PLAIN-THREE" not in follow_up
