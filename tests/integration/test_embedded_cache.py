"""The embedded model on the real SmolLM2 file reuses its KV cache: a call whose prompt starts
like the previous one evaluates only the rest, and says so in ``usage.cached_tokens``."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from core.llm.base import CallOptions
from core.llm.embedded import EmbeddedModel

pytestmark = pytest.mark.slow

SYSTEM = ("You are PhaseDesk, an agent working on a workspace folder. " * 12).strip()
ANSWER = {"type": "object", "required": ["answer"], "additionalProperties": False,
          "properties": {"answer": {"type": "string", "maxLength": 40}}}
TOOL = [{"type": "function", "function": {"name": "answer", "description": "Answer briefly.",
                                          "parameters": ANSWER}}]
FORCED = {"type": "function", "function": {"name": "answer"}}


def _conversation(turns: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM},
                                      {"role": "user", "content": "Name a colour."}]
    for i in range(turns):
        messages += [{"role": "assistant", "content": None, "tool_calls": [
                         {"id": f"c{i}", "type": "function", "function": {
                             "name": "answer", "arguments": json.dumps({"answer": "red"})}}]},
                     {"role": "tool", "tool_call_id": f"c{i}", "content": "noted"},
                     {"role": "user", "content": f"Name another colour ({i + 2})."}]
    return messages


async def _calls() -> list[tuple[int, int]]:
    model = EmbeddedModel()
    usage = []
    try:
        for turns, clear in ((0, False), (1, False), (2, False), (2, True)):
            if clear:
                await model.clear_cache()
            reply = await model.complete(_conversation(turns), TOOL, FORCED)
            assert json.loads(reply.tool_calls[0].arguments)["answer"]
            usage.append((reply.usage.prompt_tokens, reply.usage.cached_tokens))
    finally:
        await model.aclose()
    return usage


def test_a_follow_up_call_evaluates_only_what_follows_the_shared_prefix() -> None:
    (first, first_cached), (second, second_cached), (third, third_cached), (again, again_cached) \
        = asyncio.run(_calls())
    assert first_cached == 0
    assert 100 < second_cached < second  # at least the system prompt came from the cache
    assert second_cached <= first
    assert third_cached > second_cached  # the conversation grew; so did the reused prefix
    assert (again, again_cached) == (third, 0)  # after clear_cache: the whole prompt again


async def _auto_calls() -> list[tuple[int, int]]:
    model = EmbeddedModel()
    tools = TOOL + [{"type": "function", "function": {
        "name": "read_file", "description": "Read a file of the workspace.",
        "parameters": {"type": "object", "required": ["path"],
                       "properties": {"path": {"type": "string", "maxLength": 60}}}}}]
    usage = []
    try:
        for turns in (0, 1):
            reply = await model.complete(_conversation(turns), tools, "auto")
            usage.append((reply.usage.prompt_tokens, reply.usage.cached_tokens))
    finally:
        await model.aclose()
    return usage


def test_the_offered_tools_stay_in_the_cached_prefix_of_auto_calls() -> None:
    """The tool list is the same on every call of a classic run, so it is part of the system
    turn: only the turns after the last call's conversation are evaluated again."""
    (first, _), (second, cached) = asyncio.run(_auto_calls())
    assert second > first
    assert cached >= first - 30  # all but the closing reminder of the first prompt


PROMPT = [{"role": "system", "content": "You are a helpful assistant."},
          {"role": "user", "content": "Write a Python function that returns the n-th Fibonacci "
                                      "number, with a short docstring."}]
BEFORE = [{"role": "system", "content": "You are a helpful assistant."},
          {"role": "user", "content": "List three rivers of Europe, one per line."}]


async def _same_prompt_after(previous: list[list[dict[str, Any]]]) -> tuple[str, int]:
    """The greedy reply to ``PROMPT`` (and its reused tokens) after ``previous`` calls, on a
    freshly loaded model."""
    model = EmbeddedModel()
    options = CallOptions(max_tokens=96, temperature=0.0)
    try:
        for messages in previous:
            await model.complete(messages, [], None, options)
        reply = await model.complete(PROMPT, [], None, options)
    finally:
        await model.aclose()
    return reply.text or "", reply.usage.cached_tokens


def test_a_prompt_gets_the_same_greedy_reply_whatever_the_call_before() -> None:
    """A prompt that shares less than half of itself with the previous call is evaluated
    whole: the phase engine's draft and the one-shot call send the same prompt after different
    calls, and must write the same file."""
    alone, _ = asyncio.run(_same_prompt_after([]))
    after, reused = asyncio.run(_same_prompt_after([BEFORE]))
    assert alone and after == alone
    assert reused == 0  # only the system turn was shared: evaluated whole
