"""Real engines on scripted models for the window tests, recording what they streamed."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from core.config import Settings
from core.events import Event
from core.llm.base import Capabilities
from core.llm.scripted import ScriptedModel
from core.engine.build import create_engine
from tests.support.script import analysis, judge, phases, plan, reading, summary, task, think

Reply = dict[str, Any]

SUMMARY_MD = """# Port moved to 8080

Both phases are done and the config is **updated**.

- Read `config.py` and found the port
- Changed `PORT` from 8000 to 8080

```python
def port() -> int:
    return 8080
```
"""


NO_DRAFT: Reply = {"text": "I need to read the config before I can change the port."}
# The one-shot draft of a request about the workspace's config.py: an answer in words, no
# file, so the run is a question and its first round is planned.
ANSWER_DRAFT: Reply = {"text": "`config.py` sets `PORT = 8000`."}


def two_phase_replies(summary_md: str = SUMMARY_MD, delay_judge_s: float = 0.0,
                      draft: Reply = NO_DRAFT) -> list[Reply]:
    """Phase 1: the one-shot draft the engine asks before its first round gives no file
    (``draft``), so that round is planned: a failed task, Think, a second round; phase 2: edit
    and check, a clean write round the engine decides from the facts (no judge call)."""
    first_judge = judge([1, 3], [2], completed=False, action="continue_phase",
                        summary="Two of three reads worked.", reason="missing.py does not exist")
    if delay_judge_s:
        first_judge["delay_s"] = delay_judge_s
    return [
        analysis("Move the server to port 8080", phases=2),
        phases((1, "Understand", [], 2), (2, "Change", [1], 1)),
        draft,
        plan(task(1, "read_file", path="config.py"), task(2, "read_file", path="missing.py"),
             task(3, "list_files", [1]), reasoning="Read first, then look around."),
        first_judge,
        think(False, True, "Skip missing.py; search for the port instead."),
        plan(task(1, "search_code", pattern="PORT")),
        judge([1], completed=True),
        plan(task(1, "edit_file", path="config.py", old_text="PORT = 8000", new_text="PORT = 8080"),
             task(2, "read_file", [1], path="config.py")),
        summary(summary_md, highlights=["PORT is 8080 now", "No new dependencies"]),
    ]


def port_move_replies(summary_md: str = SUMMARY_MD, delay_judge_s: float = 0.0) -> list[Reply]:
    """``two_phase_replies`` (the name the tests of a request that asks for the change use)."""
    return two_phase_replies(summary_md, delay_judge_s)


LEAP_STUB = "def is_leap(year):\n    raise NotImplementedError\n"
LEAP = "def is_leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"
LEAP_WRONG = "def is_leap(year):\n    return year % 4 == 0\n"  # is_leap(1900) is True
LEAP_ASK = "Implement is_leap(year) in leap.py. is_leap(2000) is True, is_leap(1900) is False."
LEAP_EXAMPLES = ("is_leap(2000) == True", "is_leap(1900) == False")


def leap_analysis(goal: str = "Implement is_leap", **extra: Any) -> Reply:
    """The analysis of ``LEAP_ASK``: leap.py to change, its two examples (stated in words)
    quoted from the request."""
    return analysis(goal, **extra, **reading(
        change=("leap.py",), examples=LEAP_EXAMPLES,
        quotes={LEAP_EXAMPLES[0]: "is_leap(2000) is True",
                LEAP_EXAMPLES[1]: "is_leap(1900) is False"}))


class RecordingEngine:
    """The real engine, with every event it streamed kept in ``events``."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.run_id = engine.run_id
        self.events: list[Event] = []
        self.previous_analysis: dict[str, Any] | None = None
        self.cancels = 0

    async def run(self, request: str, *, previous_analysis: dict[str, Any] | None = None
                  ) -> AsyncIterator[Event]:
        self.previous_analysis = previous_analysis
        async for event in self.engine.run(request, previous_analysis=previous_analysis):
            self.events.append(event)
            yield event

    def cancel(self) -> None:
        self.cancels += 1
        self.engine.cancel()

    def answer_approval(self, request_id: str, decision: str) -> bool:
        return bool(self.engine.answer_approval(request_id, decision))

    def of(self, kind: str) -> list[Any]:
        return [e for e in self.events if e.kind == kind]


class ScriptedFactory:
    """An engine factory for the window: each run gets the next script on a real engine.

    ``models`` keeps every run's scripted model (its ``requests`` are what the engine sent)."""

    def __init__(self, *scripts: list[Reply], provider: str = "", **overrides: Any) -> None:
        self.scripts = list(scripts)
        self.provider = provider
        self.overrides = {"think_stage": "auto", "command_approval": "auto",
                          "write_approval": "auto", **overrides}
        self.models: list[ScriptedModel] = []
        self.engines: list[RecordingEngine] = []

    def make_models(self, settings: Settings) -> tuple[Any, Any]:
        return self.make_model(settings), None

    def make_model(self, settings: Settings) -> ScriptedModel:
        model = ScriptedModel(self.scripts.pop(0))
        if self.provider:
            model.provider = self.provider  # type: ignore[misc]
            model.capabilities = Capabilities(  # type: ignore[misc]
                clarification_trusted=self.provider != "embedded")
        self.models.append(model)
        return model

    def make_engine(self, settings: Settings, workspace: Path, model: Any, *, thinking: Any,
                    memory: list[dict[str, Any]], run_id: str,
                    can_ask: bool = True) -> RecordingEngine:
        engine = create_engine(dataclasses.replace(settings, **self.overrides), workspace,
                               model=model, memory=memory, run_id=run_id, thinking=thinking,
                               can_ask=can_ask)
        recording = RecordingEngine(engine)
        self.engines.append(recording)
        return recording

    @property
    def last(self) -> RecordingEngine:
        return self.engines[-1]
