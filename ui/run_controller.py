"""Runs the engine as an asyncio task, records it in the history and forwards its events.

One run at a time: a second submit while a run is going is refused with a visible
message. The run starts as every run does (``core.session``: models, the recorded run, the
engine), and its recorded stream goes to the page. Stop calls ``engine.cancel()`` once (the page shows
"stopping…" and then the summary the engine always emits); a forced stop calls it a
second time, which makes the engine compose the summary without the model.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any, Protocol

import shiboken6
from PySide6.QtCore import QObject, Signal

from core.config import Settings
from core.events import to_dict
from core.llm.base import ChatModel
from core.secrets import redact
from core.session import NotStarted, RunEngine, Session, start_session
from ui.bridge import Bridge
from ui.history import History
from ui.page_messages import UiLevel, UiMessage, UiRunState, UiState
from ui.render import page_message

log = logging.getLogger(__name__)


class EngineFactory(Protocol):
    """Where a run's models and engine come from (tests and ``--model-script`` swap it)."""

    def make_models(self, settings: Settings) -> tuple[ChatModel, ChatModel | None]: ...

    def make_engine(self, settings: Settings, workspace: Path, model: ChatModel, *,
                    thinking: ChatModel | None, memory: list[dict[str, Any]],
                    run_id: str, can_ask: bool = True) -> RunEngine: ...


class DefaultEngineFactory:
    """The configured models and the engine ``settings.use_phase_task`` selects, as
    ``core.engine.build`` builds them."""

    def make_models(self, settings: Settings) -> tuple[ChatModel, ChatModel | None]:
        from core.engine.build import build_models

        return build_models(settings)

    def make_engine(self, settings: Settings, workspace: Path, model: ChatModel, *,
                    thinking: ChatModel | None, memory: list[dict[str, Any]],
                    run_id: str, can_ask: bool = True) -> RunEngine:
        from core.engine.build import create_engine

        return create_engine(settings, workspace, model=model, memory=memory, run_id=run_id,
                             thinking=thinking, can_ask=can_ask)


class RunController(QObject):
    """Owns the current run's task (a strong reference) and its engine."""

    run_began = Signal(int, str)  # conversation id, run id
    run_ended = Signal(int, str, str)  # conversation id, run id, final status

    def __init__(self, bridge: Bridge, history: History, factory: EngineFactory | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._history = history
        self._factory: EngineFactory = factory or DefaultEngineFactory()
        self._engine: RunEngine | None = None
        self._task: asyncio.Task[None] | None = None
        self._cancels = 0
        self._active = False
        self._closing: set[asyncio.Task[None]] = set()

    @property
    def running(self) -> bool:
        """A run is going (its task may still be finishing after it reported idle)."""
        return self._active

    def message(self, text: str, level: UiLevel = "info") -> None:
        self._bridge.send(UiMessage(level, text))

    def _set_state(self, state: UiRunState) -> None:
        self._bridge.send(UiState(state))

    def start(self, settings: Settings, workspace: Path, text: str,
              previous_analysis: dict[str, Any] | None = None,
              conversation_id: int | None = None) -> bool:
        """Start a run in the conversation (a new one when ``None``); refused, with a visible
        message, while another run is going or when the model or engine cannot be built."""
        if self.running:
            self.message("A run is already going. Wait for its summary or press Stop first.",
                         "warning")
            return False
        if conversation_id is not None and self._history.conversation(conversation_id) is None:
            conversation_id = None  # deleted meanwhile: the request starts a new one
        try:
            session = start_session(self._history.store, settings, workspace, text,
                                    conversation_id=conversation_id, previous=previous_analysis,
                                    models=self._factory.make_models,
                                    engines=self._factory.make_engine)
        except NotStarted as exc:
            self._close_later(exc)
            if exc.start is not None:
                self.run_began.emit(exc.start.conversation_id, exc.start.run_id)
                self.run_ended.emit(exc.start.conversation_id, exc.start.run_id, "failed")
            return self._refuse(exc.cause)
        except Exception as exc:  # noqa: BLE001 (a bad configuration is shown, not raised)
            return self._refuse(exc)
        start, engine = session.start, session.engine
        self.run_began.emit(start.conversation_id, start.run_id)
        self._engine = engine
        self._cancels = 0
        self._active = True
        self._set_state("running")
        task = asyncio.get_running_loop().create_task(self._drive(session))
        task.add_done_callback(self._task_done)
        self._task = task
        return True

    def _task_done(self, task: asyncio.Task[None]) -> None:
        """A task cancelled before it ever ran skipped its own clean-up."""
        if task is self._task and self._active:
            self._active = False
            self._engine = None
            self._set_state("idle")

    def _refuse(self, exc: Exception) -> bool:
        log.exception("could not start the run")
        self.message(redact(f"Could not start the run: {exc}"), "error")
        return False

    def cancel(self, force: bool = False) -> None:
        """Stop the run: once (summary by the model), or forced (summary without the model)."""
        if not self.running or self._engine is None:
            return
        if self._cancels == 0 or (force and self._cancels == 1):
            self._cancels += 1
            self._engine.cancel()
            self._set_state("stopping")

    def answer_approval(self, request_id: str, decision: str) -> None:
        if self._engine is None or not self._engine.answer_approval(request_id, decision):
            self.message("That approval request is no longer waiting for an answer.", "warning")

    def _close_later(self, refused: NotStarted) -> None:
        """Close the models of a run that did not start, without blocking the window."""
        task = asyncio.get_running_loop().create_task(refused.close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _drive(self, session: Session) -> None:
        """Stream the run to the page. Its footer (``run_finished``) is sent last, once the
        controller is idle again: from then on the window takes the next action at once."""
        status = "failed"
        footer: dict[str, Any] | None = None
        conversation_id, run_id = session.start.conversation_id, session.start.run_id
        stream = session.events()
        try:
            async with contextlib.aclosing(stream):
                async for event in stream:
                    data = await page_message(to_dict(event))
                    if event.kind == "run_finished":
                        status, footer = data["status"], data
                    else:
                        self._bridge.send(data)
        except asyncio.CancelledError:
            status = "interrupted"
            raise
        except Exception as exc:  # the engine promises not to raise; never crash the window
            log.exception("the run stopped with an exception")
            self.message(redact(f"The run stopped unexpectedly: {exc}"), "error")
        finally:
            try:
                await session.close()
            except BaseException as exc:  # noqa: BLE001 (closing must not hide the run's end)
                log.debug("closing the model failed: %r", exc)
            self._engine = None
            self._active = False
            self._set_state("idle")
            if footer is not None:
                self._bridge.send(footer)
            if shiboken6.isValid(self):  # not when the window closed mid-run
                self.run_ended.emit(conversation_id, run_id, status)

    @property
    def task(self) -> asyncio.Task[None] | None:
        return self._task

    def abort(self) -> None:
        """The window is closing: stop the engine at once and cancel the task."""
        if self._engine is not None:
            self._engine.cancel()
            self._engine.cancel()
        if self._task is not None and not self._task.done():
            self._task.cancel()
