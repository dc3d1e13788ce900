"""A scripted model that answers by stage: each call takes the next reply scripted for the tool
it is forced to call (``request_analyser``, ``plan_tool_call``, ``summarizer`` …), for a free
call offering the workspace tools (``"free"``: the classic loop) or for a call offering no tool
(``"text"``: drafts and authoring). Tests that care about what reaches the model, not about the
order of the engine's stages, stay true when a stage is added or moved.

A stage with no reply left takes its ``DEFAULTS`` reply where it has one; ``requests`` keeps
every call's messages, in order, as ``ScriptedModel`` does."""

from __future__ import annotations

import copy
from typing import Any

from core.llm.base import NO_OPTIONS, CallOptions, Capabilities, Message, Reply
from core.llm.scripted import ScriptedModel
from tests.support.script import analysis, phases, summary, think

DEFAULTS: dict[str, dict[str, Any]] = {"request_analyser": analysis("Do what was asked"),
                                       "phase_planner": phases((1, "Main", [])),
                                       "think": think(True, False),
                                       "summarizer": summary("Done.")}


class StagedModel:
    provider = "scripted"

    def __init__(self, replies: dict[str, list[dict[str, Any]]], endpoint: str = "") -> None:
        self._models = {key: ScriptedModel(list(queue)) for key, queue in replies.items()}
        self.capabilities = Capabilities(endpoint=endpoint)
        self.requests: list[dict[str, Any]] = []

    @property
    def name(self) -> str:
        return "staged"

    @staticmethod
    def key(tools: list[dict[str, Any]], tool_choice: dict[str, Any] | str | None) -> str:
        if isinstance(tool_choice, dict):
            return str(tool_choice["function"]["name"])
        names = [t["function"]["name"] for t in tools]
        if not names:
            return "text"
        return names[0] if len(names) == 1 else "free"

    async def complete(self, messages: list[Message], tools: list[dict[str, Any]],
                       tool_choice: dict[str, Any] | str | None,
                       options: CallOptions = NO_OPTIONS) -> Reply:
        self.requests.append({"messages": copy.deepcopy(messages), "tools": tools,
                              "tool_choice": tool_choice})
        key = self.key(tools, tool_choice)
        model = self._models.get(key)
        if (model is None or model.remaining == 0) and key in DEFAULTS:
            model = self._models[key] = ScriptedModel([DEFAULTS[key]])
        if model is None:
            model = self._models[key] = ScriptedModel([])
        return await model.complete(messages, tools, tool_choice, options)

    async def aclose(self) -> None:
        return None
