"""Streaming through the real ``openai`` client against the local fake server: pieces as they
arrive, the whole reply put together, endpoints that do not stream, and Stop."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from core.engine.build import create_engine
from core.events import StageDelta, is_progress
from core.llm.base import CallOptions
from core.llm.openai_client import OpenAIModel
from core.store.history import Recorder, Store
from tests.support.fake_openai import FakeOpenAI
from tests.support.fault_replies import completion_body
from tests.support.script import analysis, judge, phases, plan, settings, summary, task

DRAFT = {"text": "The folder holds notes.md."}  # the one-shot draft answers in words
SUMMARY_TEXT = "## Done\n\nThe files were listed, and the \"notes\" are\nin notes.md."


def model_for(server: FakeOpenAI) -> OpenAIModel:
    return OpenAIModel(server.base_url, "fake-model", "sk-test-123", timeout_s=5, max_retries=0)


def complete(server: FakeOpenAI) -> tuple[Any, list[tuple[str, str]], OpenAIModel]:
    """One call with a delta sink: (reply, the pieces in order, the model)."""
    pieces: list[tuple[str, str]] = []

    async def go() -> Any:
        model = model_for(server)
        try:
            reply = await model.complete([{"role": "user", "content": "hi"}], [], "auto",
                                         CallOptions(on_delta=lambda k, p: pieces.append((k, p))))
        finally:
            await model.aclose()
        return reply, model

    reply, model = asyncio.run(go())
    return reply, pieces, model


def test_text_and_arguments_arrive_in_pieces_and_make_the_whole_reply() -> None:
    reply_spec = {"tool_calls": [{"tool": "summarizer", "arguments": {"final_summary": SUMMARY_TEXT}},
                                 {"tool": "read_file", "arguments": {"path": "a.md"}}],
                  "text": "Here it comes.", "stream": {"piece": 5},
                  "usage": {"prompt_tokens": 321, "completion_tokens": 54, "cached_tokens": 300}}
    with FakeOpenAI([reply_spec]) as server:
        reply, pieces, model = complete(server)
    assert server.requests[0]["body"]["stream"] is True
    assert server.requests[0]["body"]["stream_options"] == {"include_usage": True}
    assert len(pieces) > 10
    assert "".join(p for k, p in pieces if k == "text") == "Here it comes."
    arguments = [c["function"]["arguments"] for c in _sent_calls(reply_spec)]
    assert "".join(p for k, p in pieces if k == "arguments") == "".join(arguments)
    assert reply.text == "Here it comes."
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [
        ("summarizer", arguments[0]), ("read_file", arguments[1])]
    assert json.loads(reply.tool_calls[0].arguments)["final_summary"] == SUMMARY_TEXT
    assert reply.finish_reason == "tool_calls"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens,
            reply.usage.cached_tokens, reply.usage.estimated) == (321, 54, 300, False)
    assert model.capabilities.streams


def _sent_calls(reply: dict[str, Any]) -> list[dict[str, Any]]:
    return completion_body(reply, 1)["choices"][0]["message"]["tool_calls"]


def test_an_endpoint_that_answers_whole_is_used_and_not_asked_to_stream_again(
        tmp_path: Path) -> None:
    replies = [analysis(complexity="complex"), phases((1, "List", [])), DRAFT,
               plan(task(1, "list_files")), judge([1]), summary(SUMMARY_TEXT)]
    with FakeOpenAI(replies, streams=False) as server:
        events = _run(server, tmp_path)
    assert events[-1].status == "completed" and events[-1].llm_calls == 6
    assert events[-2].final_summary == SUMMARY_TEXT
    assert [r["body"].get("stream") for r in server.requests] == [True] + [None] * 5
    assert not any(isinstance(e, StageDelta) for e in events)
    assert [e.streams for e in events if e.kind == "stage_started"] == [True] + [False] * 5


def test_an_endpoint_that_refuses_to_stream_is_asked_again_without() -> None:
    refusal = {"error": {"status": 400, "message": "streaming is not supported by this server"}}
    with FakeOpenAI([refusal, {"text": "plain answer"}]) as server:
        reply, pieces, model = complete(server)
    assert reply.text == "plain answer" and pieces == []
    assert [r["body"].get("stream") for r in server.requests] == [True, None]
    assert not model.capabilities.streams


def test_a_stream_without_usage_is_estimated() -> None:
    with FakeOpenAI([{"text": "x" * 400}], stream_usage=False) as server:
        reply, pieces, _ = complete(server)
    assert "".join(p for _, p in pieces) == "x" * 400
    assert reply.usage.estimated and reply.usage.completion_tokens == 100


def test_stop_ends_the_stream_at_once() -> None:
    slow = {"text": "word " * 200, "stream": {"piece": 5, "delay_s": 0.1}}
    with FakeOpenAI([slow]) as server:
        pieces: list[str] = []

        async def go() -> None:
            model = model_for(server)
            call = asyncio.create_task(model.complete(
                [{"role": "user", "content": "hi"}], [], "auto",
                CallOptions(on_delta=lambda k, p: pieces.append(p))))
            while len(pieces) < 3:
                await asyncio.sleep(0.01)
            call.cancel()
            with pytest.raises(asyncio.CancelledError):
                await call
            seen = len(pieces)
            await asyncio.sleep(0.5)  # the server would have sent about five more pieces
            assert len(pieces) == seen
            await model.aclose()

        asyncio.run(go())
        record = server.requests[0]
        _wait(lambda: record.get("ended", False))
    assert record["sent"] < record["chunks"] / 2


def _wait(condition: Any, limit_s: float = 5.0) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.05)

    asyncio.run(asyncio.wait_for(poll(), limit_s))


def test_a_streamed_run_shows_the_summary_as_written_and_records_no_progress(
        tmp_path: Path) -> None:
    replies = [analysis(complexity="complex"), phases((1, "List", [])), DRAFT,
               plan(task(1, "list_files")),
               {**judge([1], summary="Listed the folder."), "stream": {"piece": 8, "delay_s": 0.03}},
               {**summary(SUMMARY_TEXT), "stream": {"piece": 6, "delay_s": 0.06}}]
    with FakeOpenAI(replies) as server, Store(tmp_path / "history.db") as store:
        conversation = store.create_conversation("t")
        run_id = store.start_run(conversation, "list", "phase", "openai", "fake-model", {})
        events = _run(server, tmp_path, Recorder(store, run_id))
        stored = [e["kind"] for e in store.events(run_id)]
    shown = [e.text for e in events if isinstance(e, StageDelta) and e.stage == "summarizer"]
    assert len(shown) >= 3
    assert all(a != b and b.startswith(a) for a, b in zip(shown, shown[1:]))
    assert SUMMARY_TEXT.startswith(shown[-1]) and len(shown[-1]) > len(SUMMARY_TEXT) // 2
    judged = [e.text for e in events if isinstance(e, StageDelta) and e.stage == "judge"]
    assert judged and "Listed the folder.".startswith(judged[-1])
    assert events[-2].final_summary == SUMMARY_TEXT
    started = [(e.stage, e.phase_id, e.round) for e in events if e.kind == "stage_started"]
    assert started == [("request_analyser", 0, 0), ("phase_planner", 0, 0), ("author", 1, 1),
                       ("plan", 1, 1), ("judge", 1, 1), ("summarizer", 0, 0)]
    assert stored == [e.kind for e in events if not is_progress(e)]


def _run(server: FakeOpenAI, workspace: Path, recorder: Recorder | None = None) -> list:
    async def go() -> list:
        model = model_for(server)
        engine = create_engine(settings(), workspace, model=model)
        stream = engine.run("list the folder")
        events = [e async for e in (recorder.wrap(stream) if recorder else stream)]
        await model.aclose()
        return events

    return asyncio.run(go())


def test_the_classic_loop_streams_its_text_answer(tmp_path: Path) -> None:
    answer = "The folder holds one file, notes.md, with three lines of notes in it."
    replies = [analysis("Say what the folder holds"),  # the classic loop reads the request first
               {"tool_calls": [{"tool": "list_files", "arguments": {}}]},
               {"text": answer, "stream": {"piece": 7, "delay_s": 0.06}}]
    with FakeOpenAI(replies) as server:
        async def go() -> list:
            model = model_for(server)
            engine = create_engine(settings(use_phase_task=False), tmp_path, model=model)
            events = [e async for e in engine.run("what is in the folder?")]
            await model.aclose()
            return events

        events = asyncio.run(go())
    shown = [e for e in events if isinstance(e, StageDelta) and e.stage != "request_analyser"]
    assert len(shown) >= 3 and {(e.stage, e.field) for e in shown} == {("classic", "text")}
    assert all(answer.startswith(e.text) for e in shown)
    assert [(e.stage, e.phase_id, e.round) for e in events if e.kind == "stage_started"][:3] == [
        ("request_analyser", 0, 0), ("classic", 1, 1), ("classic", 1, 2)]
    assert events[-1].status == "completed"
