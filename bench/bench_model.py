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
tokens, in steps of 128 tokens. ``LastPromptCache`` is llama.cpp's instead: only the previous
request's prompt is kept.

Every request's characters are counted as they go over the wire (``request_chars``: the
messages and the tools offered, as JSON), in all and per stage. A ``full`` model fills
every field the forced stage's schema offers (``fit``): its scripted reply is cut to the
offered fields, and a reply that lacks one is refused (``ScriptGap``), so that what is
measured is a model that writes every optional field, whatever the schemas offer today.
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
from core.engine.authoring.draft import SYSTEM as DRAFT_SYSTEM  # noqa: E402

CACHE_MIN_TOKENS = 1024
KEPT_AS_GIVEN = ("arguments",)  # a task's tool arguments are the scenario's, not filled
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


class LastPromptCache:
    """The cache of llama.cpp (the embedded model, a llama.cpp server's slot): the previous
    request's prompt, of which the longest shared prefix is not evaluated again. The prompt
    is laid out as the embedded model renders it: a forced stage's schema ends the last user
    turn, a free call's tools end the system turn."""

    def __init__(self) -> None:
        self._previous: list[str] = []

    def uncached(self, tools: list[dict[str, Any]], messages: list[Message],
                 forced: bool) -> int:
        """Tokens of this request evaluated anew; the request is remembered afterwards."""
        parts = [json.dumps(m, sort_keys=True) for m in messages]
        sizes = [estimate_tokens(m) for m in messages]
        where = -1 if forced else 0
        if tools and parts:
            parts[where] += json.dumps(tools, sort_keys=True)
            sizes[where] += estimate_tokens(tools)
        shared = _common(parts, self._previous)
        self._previous = parts
        return sum(sizes[shared:])


def _common(a: list[str], b: list[str]) -> int:
    count = 0
    for x, y in zip(a, b):
        if x != y:
            break
        count += 1
    return count


class ScriptGap(ValueError):
    """A full model's scripted reply lacks a field the stage schema offers."""


def request_chars(messages: list[Message], tools: list[dict[str, Any]]) -> int:
    """The characters of a request's messages and tools as the client sends them (JSON
    without spaces, non-ASCII as is)."""
    size = len(json.dumps(messages, ensure_ascii=False, separators=(",", ":")))
    if tools:
        size += len(json.dumps(tools, ensure_ascii=False, separators=(",", ":")))
    return size


def fit(value: Any, schema: dict[str, Any], where: str = "$") -> Any:
    """``value`` with exactly the fields ``schema`` offers (objects inside arrays and
    ``anyOf`` branches included); raises ``ScriptGap`` for an offered field it lacks."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [fit(item, schema["items"], f"{where}[{i}]") for i, item in enumerate(value)]
    properties = dict(schema.get("properties") or {})
    for branch in schema.get("anyOf") or []:
        properties.update(branch.get("properties") or {})
    if not isinstance(value, dict) or not properties:
        return value
    missing = [name for name in properties if name not in value]
    if missing:
        raise ScriptGap(f"{where}: the full reply lacks {missing}")
    return {name: value[name] if name in KEPT_AS_GIVEN else fit(value[name], sub,
                                                                f"{where}.{name}")
            for name, sub in properties.items()}


class StageScriptedModel:
    provider = "scripted"
    capabilities = Capabilities()
    name = "bench"

    def __init__(self, queues: dict[str, list[dict[str, Any]]],
                 defaults: dict[str, dict[str, Any]] | None = None, full: bool = False
                 ) -> None:
        self.queues = {stage: list(replies) for stage, replies in queues.items()}
        self.defaults = defaults or {}
        self.full = full
        self.cache = PrefixCache()
        self.last_prompt = LastPromptCache()
        self.local_uncached = 0  # tokens evaluated anew under ``LastPromptCache``
        self.stages: list[str] = []
        self.drafts: list[int] = []  # where in ``stages`` the one-shot draft was asked
        self.chars = 0
        self.chars_by_stage: dict[str, int] = {}
        self.given: dict[str, list[dict[str, Any]]] = {}  # the replies used, per stage
        self.unscripted: list[str] = []  # stages asked for with no reply left (the call fails)

    async def complete(self, messages: list[Message], tools: list[dict[str, Any]],
                       tool_choice: dict[str, Any] | str | None,
                       options: CallOptions = NO_OPTIONS) -> Reply:
        stage = tool_choice["function"]["name"] if isinstance(tool_choice, dict) else "auto"
        self.stages.append(stage)
        queue = self.queues.get(stage, [])
        script = [queue.pop(0)] if queue else (
            [self.defaults[stage]] if stage in self.defaults else [])
        if self.full and script and stage != "auto" and "arguments" in script[0]:
            schema = tools[0]["function"]["parameters"]
            script = [{**script[0], "arguments": fit(script[0]["arguments"], schema, stage)}]
        if script:
            self.given.setdefault(stage, []).append(script[0])
        else:
            self.unscripted.append(stage)
        size = request_chars(messages, tools)
        self.chars += size
        key = "author" if stage == "auto" and not tools else stage
        if key == "author" and messages and messages[0].get("content") == DRAFT_SYSTEM:
            key = "draft"
            self.drafts.append(len(self.stages) - 1)
        self.chars_by_stage[key] = self.chars_by_stage.get(key, 0) + size
        reply = await ScriptedModel(script).complete(messages, tools, tool_choice)
        cached = self.cache.lookup(tools, messages)
        self.local_uncached += self.last_prompt.uncached(tools, messages, stage != "auto")
        generated = (reply.text or "") + "".join(c.name + c.arguments for c in reply.tool_calls)
        return replace(reply, usage=replace(reply.usage, cached_tokens=cached,
                                            completion_tokens=estimate_tokens(generated)))

    def left_over(self) -> dict[str, int]:
        """Queued replies no call asked for: a script that does not fit the engine."""
        return {stage: len(queue) for stage, queue in self.queues.items() if queue}

    async def aclose(self) -> None:
        return None
