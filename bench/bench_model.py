"""The benchmark's model: scripted replies chosen by stage, and a simulated prompt cache.

``StageScriptedModel`` answers a forced stage call (``tool_choice`` names the stage tool)
with the next reply queued for that stage, and any other call with the next reply of the
``"auto"`` queue, so one scenario script fits whatever order the engine calls its stages
in. A stage asked for without a queued reply (Think, when the engine decides it wants
one) gets that stage's default reply. Usage is the scripted model's estimate (about 4
characters a token) with two refinements that apply to both engines alike: completion
tokens count each tool call's name with its arguments (a model generates the name too, and
endpoints bill it), and ``cached_tokens`` comes from ``PrefixCache``.

``PrefixCache`` reproduces the rule of OpenAI's prompt cache: a request is served from
the cache for the longest prefix it shares with an earlier request — tool definitions
first, then messages in order, compared whole — when that prefix is at least 1,024
tokens, in steps of 128 tokens.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.llm.base import NO_OPTIONS, CallOptions, Capabilities, Message, Reply, estimate_tokens  # noqa: E402
from core.llm.scripted import ScriptedModel  # noqa: E402

CACHE_MIN_TOKENS = 1024
CACHE_STEP_TOKENS = 128


class PrefixCache:
    def __init__(self) -> None:
        self._seen: list[list[str]] = []

    def lookup(self, tools: list[dict[str, Any]], messages: list[Message]) -> int:
        """Tokens of this request the cache serves; the request is remembered afterwards."""
        parts = [json.dumps(tools, sort_keys=True)] + [json.dumps(m, sort_keys=True)
                                                       for m in messages]
        sizes = [estimate_tokens(tools)] + [estimate_tokens(m) for m in messages]
        shared = max((_common(parts, earlier) for earlier in self._seen), default=0)
        self._seen.append(parts)
        tokens = sum(sizes[:shared])
        if tokens < CACHE_MIN_TOKENS:
            return 0
        return tokens - tokens % CACHE_STEP_TOKENS


def _common(a: list[str], b: list[str]) -> int:
    count = 0
    for x, y in zip(a, b):
        if x != y:
            break
        count += 1
    return count


class StageScriptedModel:
    provider = "scripted"
    capabilities = Capabilities()
    name = "bench"

    def __init__(self, queues: dict[str, list[dict[str, Any]]],
                 defaults: dict[str, dict[str, Any]] | None = None) -> None:
        self.queues = {stage: list(replies) for stage, replies in queues.items()}
        self.defaults = defaults or {}
        self.cache = PrefixCache()
        self.stages: list[str] = []

    async def complete(self, messages: list[Message], tools: list[dict[str, Any]],
                       tool_choice: dict[str, Any] | str | None,
                       options: CallOptions = NO_OPTIONS) -> Reply:
        stage = tool_choice["function"]["name"] if isinstance(tool_choice, dict) else "auto"
        self.stages.append(stage)
        queue = self.queues.get(stage, [])
        script = [queue.pop(0)] if queue else (
            [self.defaults[stage]] if stage in self.defaults else [])
        reply = await ScriptedModel(script).complete(messages, tools, tool_choice)
        cached = self.cache.lookup(tools, messages)
        generated = (reply.text or "") + "".join(c.name + c.arguments for c in reply.tool_calls)
        return replace(reply, usage=replace(reply.usage, cached_tokens=cached,
                                            completion_tokens=estimate_tokens(generated)))

    def left_over(self) -> dict[str, int]:
        """Queued replies no call asked for: a script that does not fit the engine."""
        return {stage: len(queue) for stage, queue in self.queues.items() if queue}

    async def aclose(self) -> None:
        return None
