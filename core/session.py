"""Starting a run: the one place both front ends (the window, the terminal) start one.

A session builds the run's models (or takes the ones given: a scripted model, a test's),
records the run in the history before its engine exists (``core.store.runs``: the
conversation continued or created, what a follow-up remembers), builds the engine, and hands
back the recorded event stream. When the run cannot start, ``NotStarted`` says why: an
unknown conversation (nothing recorded), or an engine that cannot be built (the recorded run
is closed ``failed``, and ``start`` names it so the front end can show it); its ``close``
closes the models built for it. Closing a session closes the main model (the engine closes
the thinking model itself).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from core.config import Settings
from core.engine.build import build_models, create_engine
from core.events import Event
from core.llm.base import ChatModel
from core.store.history import Store
from core.store.runs import RunStart, start_recorded_run

class RunEngine(Protocol):
    """What a front end needs of an engine (``core.engine.base.EngineBase`` is one)."""

    run_id: str

    def run(self, request: str, *, previous_analysis: dict[str, Any] | None = None
            ) -> AsyncIterator[Event]: ...

    def cancel(self) -> None: ...

    def answer_approval(self, request_id: str, decision: str) -> bool: ...


Models = Callable[[Settings], tuple[ChatModel, ChatModel | None]]
Engines = Callable[..., RunEngine]


class NotStarted(Exception):
    """The run could not start; ``cause`` says why, ``start`` is the recorded run (None when
    nothing was recorded)."""

    def __init__(self, cause: Exception, start: RunStart | None,
                 models: tuple[ChatModel | None, ...]) -> None:
        super().__init__(cause.args[0] if isinstance(cause, KeyError) and cause.args
                         else str(cause))
        self.cause = cause
        self.start = start
        self.models = models

    async def close(self) -> None:
        """Close the models built for the run that did not start."""
        for model in self.models:
            if model is not None:
                await model.aclose()


@dataclass
class Session:
    """A started run: its engine, where it is recorded, its main model and its request."""

    engine: RunEngine
    start: RunStart
    model: ChatModel
    request: str
    previous_analysis: dict[str, Any] | None

    def events(self) -> AsyncIterator[Event]:
        """The run's events, each recorded in the history as it passes."""
        return self.start.recorder.wrap(self.engine.run(
            self.request, previous_analysis=self.previous_analysis))

    async def close(self) -> None:
        await self.model.aclose()


def start_session(store: Store, settings: Settings, workspace: Path, request: str, *,
                  conversation_id: int | None = None, model: ChatModel | None = None,
                  thinking: ChatModel | None = None, previous: dict[str, Any] | None = None,
                  can_ask: bool = True, models: Models = build_models,
                  engines: Engines = create_engine) -> Session:
    """Start a run of ``request`` on ``workspace`` (see the module's docstring). Raises
    ``ValueError`` (or ``ModelError``) when the models cannot be built, before anything is
    recorded, and ``NotStarted`` when the run cannot start."""
    if model is None:
        model, thinking = models(settings)
    try:
        start = start_recorded_run(store, settings, request, model.provider, model.name,
                                   conversation_id)
    except KeyError as exc:
        raise NotStarted(exc, None, (model, thinking)) from exc
    try:
        engine = engines(settings, workspace, model=model, memory=start.memory,
                         run_id=start.run_id, thinking=thinking, can_ask=can_ask)
    except Exception as exc:  # noqa: BLE001 (the recorded run ends failed, and says why)
        start.recorder.close("failed")
        raise NotStarted(exc, start, (model, thinking)) from exc
    return Session(engine, start, model, request, previous or start.pending_analysis)
