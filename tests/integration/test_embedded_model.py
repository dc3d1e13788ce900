"""The embedded offline model on the real SmolLM2 gguf: forced tool calls under a grammar,
multi-turn rendering, one call at a time, a loop that stays responsive, clear errors."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.config import Settings
from core.llm.base import CallOptions, ModelError, Reply
from core.llm.embedded import INSTALL_HINT, TEXT_TOKENS, EmbeddedModel, model_path
from core.llm.embedded_grammar import bound_schema, schema_to_gbnf
from core.llm.embedded_prompt import fit_turns, render_conversation
from core.llm.factory import make_model
from core.schema import coerce

pytestmark = pytest.mark.slow

TOOLS = ["read_file", "write_file", "list_dir", "run_command"]
PATH = {"type": "string", "minLength": 1, "maxLength": 100}
TOOL_PARAMETERS: dict[str, dict[str, Any]] = {  # run_command's are left unknown on purpose
    "read_file": {"type": "object", "required": ["path"], "additionalProperties": False,
                  "properties": {"path": PATH, "start_line": {"type": "integer", "minimum": 1}}},
    "write_file": {"type": "object", "required": ["path", "content"],
                   "additionalProperties": False,
                   "properties": {"path": PATH, "content": {"type": "string", "maxLength": 5000}}},
    "list_dir": {"type": "object", "additionalProperties": False, "properties": {"path": PATH}}}
COMPLEXITY = ["simple", "medium", "complex"]
ANALYSIS = {"type": "object", "required": ["core_goal", "requirements", "complexity",
                                           "estimated_phases"], "properties": {
    "core_goal": {"type": "string", "maxLength": 200, "minLength": 3,
                  "description": "The core goal in one sentence."},
    "requirements": {"type": "array", "maxItems": 4,
                     "items": {"type": "string", "maxLength": 200}},
    "complexity": {"type": "string", "enum": COMPLEXITY},
    "estimated_phases": {"type": "integer", "minimum": 1, "maximum": 5}}}
PLAN = {"type": "object", "required": ["tasks"], "properties": {"tasks": {
    "type": "array", "minItems": 1, "maxItems": 3, "items": {
        "type": "object", "required": ["id", "title", "tool", "arguments", "dependencies"],
        "properties": {"id": {"type": "integer", "minimum": 1, "maximum": 99},
                       "title": {"type": "string", "maxLength": 80, "minLength": 1},
                       "tool": {"type": "string", "enum": TOOLS},
                       "arguments": {"type": "object", "description": "The tool's arguments."},
                       "dependencies": {"type": "array", "maxItems": 4,
                                        "items": {"type": "integer", "minimum": 1,
                                                  "maximum": 99}}}}}}}
UNBOUNDED: dict[str, Any] = {
    "type": "object", "required": ["notes", "tags", "extra"], "properties": {
        "notes": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}},
        "extra": {"type": "object"}}}
REQUEST: list[dict[str, Any]] = [
    {"role": "system", "content": "You analyse requests for an agent working on a folder."},
    {"role": "user", "content": "Add a README.md explaining how to run main.py, "
                                "and write a unit test for utils.py."}]
MULTI_TURN: list[dict[str, Any]] = [
    {"role": "system", "content": "You plan tasks for an agent working on a folder."},
    {"role": "user", "content": "Read notes.txt and summarise it."},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_a", "type": "function",
         "function": {"name": "read_file", "arguments": json.dumps({"path": "notes.txt"})}}]},
    {"role": "tool", "tool_call_id": "call_a", "content": "buy milk; call Ann; fix the bike"},
    {"role": "user", "content": "Plan the next tasks."}]


def tool(name: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function",
            "function": {"name": name, "description": f"The {name} step.",
                         "parameters": parameters}}


def forced(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name}}


@pytest.fixture(scope="module")
def model() -> Iterator[EmbeddedModel]:
    embedded = EmbeddedModel(tool_parameters=TOOL_PARAMETERS)
    yield embedded
    asyncio.run(embedded.aclose())


def call(model: EmbeddedModel, messages: list[dict[str, Any]], schema: dict[str, Any],
         name: str = "step") -> tuple[Reply, Any]:
    reply = asyncio.run(model.complete(messages, [tool(name, schema)], forced(name)))
    assert reply.text is None and len(reply.tool_calls) == 1
    assert reply.tool_calls[0].name == name and reply.tool_calls[0].id.startswith("call_")
    assert reply.finish_reason == "tool_calls"
    assert reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0
    return reply, json.loads(reply.tool_calls[0].arguments)


def test_forced_analysis_call_fits_its_schema(model: EmbeddedModel) -> None:
    _, args = call(model, REQUEST, ANALYSIS, "request_analyser")
    assert set(ANALYSIS["required"]) <= set(args)
    assert args["complexity"] in COMPLEXITY
    assert 1 <= args["estimated_phases"] <= 5
    assert len(args["requirements"]) <= 4
    coerce(args, ANALYSIS)
    assert model.load_seconds is not None and model.load_seconds < 30


def test_forced_plan_after_tool_traffic_fits_each_tools_parameters(
        model: EmbeddedModel) -> None:
    turns = render_conversation(MULTI_TURN)
    assert [t["role"] for t in turns] == ["system", "user", "assistant", "user"]
    assert 'call read_file({"path": "notes.txt"})' in turns[2]["content"]
    assert "Result of read_file (call_a)" in turns[3]["content"]
    assert "buy milk" in turns[3]["content"] and "Plan the next tasks." in turns[3]["content"]
    _, args = call(model, MULTI_TURN, PLAN, "plan_tool_call")
    assert 1 <= len(args["tasks"]) <= 3
    for task in args["tasks"]:
        assert task["tool"] in TOOLS
        assert isinstance(task["arguments"], dict) and len(task["arguments"]) <= 4
        if task["tool"] in TOOL_PARAMETERS:
            coerce(task["arguments"], TOOL_PARAMETERS[task["tool"]])
    coerce(args, PLAN)


def test_an_unbounded_schema_is_bounded_so_generation_ends(model: EmbeddedModel) -> None:
    reply, args = call(model, REQUEST, UNBOUNDED, "notes")
    assert isinstance(args["notes"], str) and len(args["notes"]) <= 200
    assert isinstance(args["tags"], list) and len(args["tags"]) <= 4
    assert isinstance(args["extra"], dict) and len(args["extra"]) <= 4
    assert reply.usage.completion_tokens < 1000


def test_auto_choice_answers_or_calls_an_offered_tool(model: EmbeddedModel) -> None:
    tools = [tool("read_file", {"type": "object", "required": ["path"], "properties": {
        "path": {"type": "string", "maxLength": 100}}})]
    reply = asyncio.run(model.complete(MULTI_TURN[:2], tools, "auto"))
    if reply.tool_calls:
        assert reply.tool_calls[0].name == "read_file"
        assert isinstance(json.loads(reply.tool_calls[0].arguments)["path"], str)
    else:
        assert reply.text and reply.finish_reason == "stop"
    text = asyncio.run(model.complete(MULTI_TURN, [], None))
    assert text.text and not text.tool_calls


def test_a_text_reply_keeps_to_the_calls_max_tokens(model: EmbeddedModel) -> None:
    """A plain call's ``max_tokens`` bounds it (the one-shot baseline sizes it to the files it
    asks for); without one the reply may run to ``TEXT_TOKENS``."""
    ask = [{"role": "user", "content": "Count from 1 to 300, one number a line."}]
    short = asyncio.run(model.complete(ask, [], None, CallOptions(max_tokens=5)))
    assert short.finish_reason == "length" and short.usage.completion_tokens == 5
    long = asyncio.run(model.complete(ask, [], None, CallOptions(max_tokens=TEXT_TOKENS + 64)))
    assert long.usage.completion_tokens > 5
    assert long.finish_reason == "stop" or long.usage.completion_tokens == TEXT_TOKENS + 64


def test_a_sampled_call_of_the_same_conversation_draws_a_new_reply() -> None:
    """A sampled call is asked for because the likely reply did not do: calls of the same
    conversation at a temperature do not all draw the same reply (one fixed seed did), while
    greedy calls repeat themselves once the prompt is in the cache (a cold first call may
    round differently). One thread: the same arithmetic on every call."""
    model = EmbeddedModel(n_threads=1)
    ask = [{"role": "user", "content": "Write one sentence about a cat."}]
    try:
        greedy, sampled = ([asyncio.run(model.complete(ask, [], None, CallOptions(
            max_tokens=24, temperature=heat))).text for _ in range(3)] for heat in (0.0, 1.0))
    finally:
        asyncio.run(model.aclose())
    assert greedy[1] == greedy[2]
    assert all(sampled) and len(set(sampled)) >= 2


def test_concurrent_calls_take_turns_and_the_loop_keeps_ticking(
        model: EmbeddedModel, monkeypatch: pytest.MonkeyPatch) -> None:
    spans: list[tuple[float, float]] = []
    serve = model._serve

    def recorded(*args: Any) -> Reply:
        started = time.perf_counter()
        try:
            return serve(*args)
        finally:
            spans.append((started, time.perf_counter()))

    monkeypatch.setattr(model, "_serve", recorded)

    async def scenario() -> tuple[list[Reply], list[float]]:
        ticks: list[float] = []

        async def ticker() -> None:
            while True:
                ticks.append(time.perf_counter())
                await asyncio.sleep(0.02)

        beat = asyncio.create_task(ticker())
        replies = await asyncio.gather(
            model.complete(REQUEST, [tool("request_analyser", ANALYSIS)],
                           forced("request_analyser")),
            model.complete(REQUEST, [tool("notes", UNBOUNDED)], forced("notes")))
        beat.cancel()
        return list(replies), ticks

    replies, ticks = asyncio.run(scenario())
    assert replies[0].tool_calls and replies[1].tool_calls
    (_, first_end), (second_start, _) = sorted(spans)
    assert second_start >= first_end, "the two calls overlapped"
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert len(ticks) > 10 and max(gaps) < 0.5, f"the loop stalled for {max(gaps):.2f}s"


def test_a_cancelled_call_stops_and_the_next_one_runs(model: EmbeddedModel) -> None:
    async def scenario() -> Reply:
        pending = asyncio.create_task(model.complete(REQUEST, [], None))
        await asyncio.sleep(0.3)
        pending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await pending
        return await model.complete(REQUEST, [tool("request_analyser", ANALYSIS)],
                                    forced("request_analyser"))

    assert asyncio.run(scenario()).tool_calls


def test_bounding_copies_and_tightens_the_schema() -> None:
    original = json.dumps(UNBOUNDED, sort_keys=True)
    bounded = bound_schema({**UNBOUNDED, "properties": {
        **UNBOUNDED["properties"], "maybe": {"type": ["string", "null"]},
        "level": {"type": "integer", "minimum": 1, "maximum": 3}}})
    assert json.dumps(UNBOUNDED, sort_keys=True) == original
    props = bounded["properties"]
    assert props["notes"]["maxLength"] == 200 and props["tags"]["maxItems"] == 4
    assert props["extra"]["additionalProperties"]["anyOf"][0]["maxLength"] == 200
    assert [s["type"] for s in props["maybe"]["anyOf"]] == ["string", "null"]
    assert props["level"]["enum"] == [1, 2, 3]
    gbnf = schema_to_gbnf(bounded)
    assert "(char{0,199} prose-end)?" in gbnf and "){0,3}" in gbnf
    assert r'char ::= [^"\\\x00-\x1F\x7F]' in gbnf, "raw control characters are invalid JSON"


def test_a_long_conversation_is_cut_to_fit_keeping_system_and_last_turn() -> None:
    turns = [{"role": "system", "content": "rules " * 50}]
    for i in range(40):
        turns.append({"role": "user" if i % 2 else "assistant", "content": f"turn {i} " * 300})
    turns.append({"role": "user", "content": "the question"})
    fitted = fit_turns(turns, lambda text: len(text) // 4, 2000)
    assert sum(len(t["content"]) // 4 + 6 for t in fitted) <= 2000
    assert fitted[0]["content"].startswith("rules") and fitted[-1]["content"] == "the question"
    assert "turn 39" in fitted[-2]["content"]


def test_a_missing_model_file_is_a_clear_model_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "nowhere" / "model.gguf"
    monkeypatch.setenv("PHASEDESK_GGUF", str(missing))
    with pytest.raises(ModelError) as raised:
        model_path()
    assert INSTALL_HINT in raised.value.message and str(missing) in raised.value.message
    fresh = make_model(Settings(provider="embedded"))
    assert isinstance(fresh, EmbeddedModel) and fresh.provider == "embedded"
    with pytest.raises(ModelError, match="embedded model not installed"):
        asyncio.run(fresh.complete(REQUEST, [], None))
    asyncio.run(fresh.aclose())
    monkeypatch.delenv("PHASEDESK_GGUF")
    assert model_path().name.endswith(".gguf") and make_model(Settings()).provider == "embedded"
