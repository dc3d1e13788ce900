"""Conversations, runs and events: what goes in comes back out, rows go when deleted."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from core.appdirs import data_dir
from core.events import Event, LlmCall, Notice, RunFinished, from_dict
from core.store.history import Recorder, Store


def _row_counts(path: Path) -> tuple[int, int, int]:
    with sqlite3.connect(path) as conn:
        return tuple(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                     for table in ("conversations", "runs", "events"))


def test_full_run_round_trips_through_the_recorder(store: Store, run_events: list[Event],
                                                   settings: dict[str, Any]) -> None:
    conversation = store.create_conversation("Notes report")
    run_id = store.start_run(conversation, "Summarise my notes into report.md", "phase", "openai",
                             "test-model", settings)
    recorder = Recorder(store, run_id)
    seqs = [recorder(event) for event in run_events]

    assert seqs == list(range(1, len(run_events) + 1))
    assert store.path == data_dir() / "history.sqlite3"
    reopened = Store()
    try:
        assert [from_dict(data) for data in reopened.events(run_id)] == run_events
        run = reopened.run(run_id)
    finally:
        reopened.close()
    assert run is not None
    assert run["status"] == "completed" and run["finished_at"] is not None
    assert (run["llm_calls"], run["prompt_tokens"], run["completion_tokens"]) == (6, 4430, 995)
    assert run["changed_files"] == 2  # report.md twice and old.md: distinct paths
    assert run["request"] == "Summarise my notes into report.md"
    assert (run["engine"], run["provider"], run["model"]) == ("phase", "openai", "test-model")
    assert run["settings_snapshot"]["max_iterations"] == 30
    assert "api_key" not in run["settings_snapshot"]
    assert run["marked"] is False and recorder.finished


def test_totals_follow_llm_calls_while_the_run_is_live(store: Store) -> None:
    run_id = store.start_run(store.create_conversation("c"), "r", "classic", "embedded", "m", {})
    for tokens in (100, 250):
        store.append_event(run_id, LlmCall("step", tokens, 10, True, 1, 30, tokens, True))
    run = store.run(run_id)
    assert run is not None and run["status"] == "running" and run["finished_at"] is None
    assert (run["llm_calls"], run["prompt_tokens"], run["completion_tokens"]) == (2, 350, 20)


def test_conversations_list_rename_and_delete(store: Store, run_events: list[Event]) -> None:
    kept = store.create_conversation("  kept   one ")
    doomed = store.create_conversation("doomed")
    for conversation in (kept, doomed, doomed):
        recorder = Recorder(store, store.start_run(conversation, "r", "phase", "p", "m", {}))
        for event in run_events:
            recorder(event)
    store.rename_conversation(kept, "Renamed\nconversation")
    listed = store.list_conversations()
    assert [c["id"] for c in listed] == [kept, doomed]  # renaming counts as activity
    assert listed[0]["title"] == "Renamed conversation" and listed[1]["run_count"] == 2
    assert _row_counts(store.path) == (2, 3, 3 * len(run_events))

    store.delete_conversation(doomed)

    assert [c["id"] for c in store.list_conversations()] == [kept]
    assert store.conversation(doomed) is None and store.runs(doomed) == []
    assert _row_counts(store.path) == (1, 1, len(run_events))
    assert len(store.events(store.runs(kept)[0]["id"])) == len(run_events)
    with pytest.raises(KeyError):
        store.rename_conversation(doomed, "x")
    with pytest.raises(KeyError):
        store.delete_conversation(doomed)
    assert store.conversation(store.create_conversation("   ")) is not None


def test_runs_are_listed_oldest_first_and_can_be_marked(store: Store) -> None:
    conversation = store.create_conversation("c")
    first = store.start_run(conversation, "one", "phase", "p", "m", {})
    second = store.start_run(conversation, "two", "phase", "p", "m", {})
    store.mark_run(second, True)
    assert [(r["id"], r["marked"]) for r in store.runs(conversation)] == [(first, False),
                                                                           (second, True)]
    store.mark_run(second, False)
    assert store.run(second)["marked"] is False  # type: ignore[index]
    assert store.run("no-such-run") is None
    with pytest.raises(KeyError):
        store.mark_run("no-such-run", True)


def test_mark_interrupted_ends_only_running_runs(store: Store) -> None:
    conversation = store.create_conversation("c")
    live = store.start_run(conversation, "a", "phase", "p", "m", {})
    silent = store.start_run(conversation, "b", "phase", "p", "m", {})
    done = store.start_run(conversation, "c", "phase", "p", "m", {})
    store.append_event(live, Notice("info", "working"))
    store.finish_run(done, "cancelled", 1, 2, 3)

    assert sorted(store.mark_interrupted()) == sorted([live, silent])
    assert store.mark_interrupted() == []
    statuses = {r["id"]: r["status"] for r in store.runs(conversation)}
    assert statuses == {live: "interrupted", silent: "interrupted", done: "cancelled"}
    assert all(r["finished_at"] is not None for r in store.runs(conversation))


def test_bad_input_is_refused(store: Store) -> None:
    run_id = store.start_run(store.create_conversation("c"), "r", "phase", "p", "m", {})
    with pytest.raises(ValueError):
        store.finish_run(run_id, "running")
    with pytest.raises(ValueError):
        store.finish_run(run_id, "done")
    with pytest.raises(KeyError):
        store.finish_run("no-such-run", "completed")
    with pytest.raises(sqlite3.IntegrityError):
        store.append_event("no-such-run", Notice("info", "x"))
    with pytest.raises(sqlite3.IntegrityError):
        store.start_run(12345, "r", "phase", "p", "m", {})
    assert store.events(run_id) == []


def test_wrapped_stream_that_breaks_leaves_an_interrupted_run(store: Store) -> None:
    run_id = store.start_run(store.create_conversation("c"), "r", "phase", "p", "m", {})

    async def engine() -> AsyncIterator[Event]:
        yield LlmCall("plan", 5, 5, True, 1, 30, 10, True)
        raise RuntimeError("engine bug")

    async def consume() -> list[Event]:
        return [event async for event in Recorder(store, run_id).wrap(engine())]

    with pytest.raises(RuntimeError):
        asyncio.run(consume())
    run = store.run(run_id)
    assert run is not None and run["status"] == "interrupted" and run["llm_calls"] == 1
    assert [e["kind"] for e in store.events(run_id)] == ["llm_call"]


def test_wrapped_stream_keeps_the_engine_status(store: Store) -> None:
    run_id = store.start_run(store.create_conversation("c"), "r", "phase", "p", "m", {})

    async def engine() -> AsyncIterator[Event]:
        yield RunFinished("budget_exhausted", 31, 100, 50)

    async def consume() -> list[Event]:
        return [event async for event in Recorder(store, run_id).wrap(engine())]

    assert len(asyncio.run(consume())) == 1
    assert store.run(run_id)["status"] == "budget_exhausted"  # type: ignore[index]


def test_two_thousand_appends_are_fast(store: Store, run_events: list[Event]) -> None:
    run_id = store.start_run(store.create_conversation("c"), "r", "phase", "p", "m", {})
    recorder = Recorder(store, run_id)
    batch = [e for e in run_events if not isinstance(e, RunFinished)]
    started = time.perf_counter()
    for index in range(2000):
        recorder(batch[index % len(batch)])
    elapsed = time.perf_counter() - started
    print(f"2000 appends: {elapsed:.3f} s ({2000 / elapsed:.0f} events/s)")
    assert len(store.events(run_id)) == 2000
    assert elapsed < 20.0


def test_run_finished_ends_the_run_in_the_same_commit(store: Store) -> None:
    run_id = store.start_run(store.create_conversation("c"), "r", "phase", "p", "m", {})
    store.append_event(run_id, LlmCall("plan", 5, 5, True, 1, 30, 10, True))
    store.append_event(run_id, RunFinished("clarification_needed", 1, 7, 3))
    run = store.run(run_id)
    assert run is not None and run["status"] == "clarification_needed"
    assert (run["llm_calls"], run["prompt_tokens"], run["completion_tokens"]) == (1, 7, 3)
    assert store.mark_interrupted() == []
