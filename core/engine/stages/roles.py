"""Which model serves which stage.

The thinking stages (request analysis, phase planning, judge, summary) may use a separate,
often stronger model; Plan, Think and the classic loop always use the main one. Without a
thinking model every stage uses the main model.
"""

from __future__ import annotations

from core.llm.base import ChatModel

THINKING_STAGES = frozenset({"request_analyser", "phase_planner", "judge", "summarizer"})


def describe(model: ChatModel) -> str:
    """The model's name, with the host serving it where it has one ("gpt-4o @ api.openai.com")."""
    host = getattr(model, "host", "")
    return f"{model.name} @ {host}" if host else model.name


class ModelRoles:
    """The main model and the optional thinking model of one run."""

    def __init__(self, main: ChatModel, thinking: ChatModel | None = None) -> None:
        self.main = main
        self.thinking = thinking

    def models(self) -> dict[str, ChatModel]:
        """The run's models by role: ``main``, and ``thinking`` when there is one."""
        return {"main": self.main} | ({"thinking": self.thinking} if self.thinking else {})

    def role(self, stage: str) -> str:
        """``"thinking"`` when the stage goes to the thinking model, else ``"main"``."""
        return "thinking" if self.thinking is not None and stage in THINKING_STAGES else "main"

    def for_stage(self, stage: str) -> ChatModel:
        if self.thinking is not None and stage in THINKING_STAGES:
            return self.thinking
        return self.main

    def label(self, stage: str) -> str:
        """What the ``LlmCall`` of ``stage`` records as its model: "name @ host", and
        "(thinking)" after it for a call to the thinking model."""
        model = self.for_stage(stage)
        return describe(model) + (" (thinking)" if model is not self.main else "")

    def failure(self, stage: str, message: str) -> str:
        """A failure's message naming the model that failed, when a run has two."""
        if self.thinking is None:
            return message
        return f"the {self.role(stage)} model ({describe(self.for_stage(stage))}): {message}"

    async def aclose_thinking(self) -> None:
        if self.thinking is not None:
            await self.thinking.aclose()
