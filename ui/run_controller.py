"""Runs the engine as an asyncio task and forwards its events to the page.

One run at a time: a second submit while a run is going is refused with a visible
message. Stop calls ``engine.cancel()`` once (the page shows "stopping…" and then the
summary the engine always emits); a forced stop calls it a second time, which makes the
engine compose the summary without the model.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal

from core.config import Settings
from core.events import Event, to_dict
from core.secrets import redact
from ui.bridge import Bridge
from ui.render import markdown_to_html

log = logging.getLogger(__name__)

# Fields the page never shows and that can be large (the model's full context and reply).
PAGE_OMITS: dict[str, tuple[str, ...]] = {"llm_call": ("context", "reply")}


class Engine(Protocol):
    run_id: str

    def run(self, request: str, *, previous_analysis: dict[str, Any] | None = None
            ) -> AsyncIterator[Event]: ...

    def cancel(self) -> None: ...

    def answer_approval(self, request_id: str, decision: str) -> bool: ...


EngineFactory = Callable[[Settings, Path], Engine]


def default_engine_factory(settings: Settings, workspace: Path) -> Engine:
    from core.runner import create_engine

    return create_engine(settings, workspace)


class RunController(QObject):
    """Owns the current run's task (a strong reference) and its engine."""

    state_changed = Signal(str)  # "idle" | "running" | "stopping"
    run_ended = Signal(str, str, str)  # run id, request, final status

    def __init__(self, bridge: Bridge, factory: EngineFactory | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._factory = factory or default_engine_factory
        self._engine: Engine | None = None
        self._task: asyncio.Task[None] | None = None
        self._state = "idle"
        self._cancels = 0

    @property
    def state(self) -> str:
        return self._state

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def message(self, text: str, level: str = "info") -> None:
        self._bridge.send({"kind": "ui_message", "level": level, "message": text})

    def _set_state(self, state: str) -> None:
        self._state = state
        self._bridge.send({"kind": "ui_state", "state": state})
        self.state_changed.emit(state)

    def start(self, settings: Settings, workspace: Path, text: str,
              previous_analysis: dict[str, Any] | None = None) -> bool:
        """Start a run; refused (with a visible message) while another one is going."""
        if self.running:
            self.message("A run is already going. Wait for its summary or press Stop first.",
                         "warning")
            return False
        try:
            engine = self._factory(settings, workspace)
        except Exception as exc:  # a bad configuration must not take the window down
            log.exception("could not create the engine")
            self.message(redact(f"Could not start the run: {exc}"), "error")
            return False
        self._engine = engine
        self._cancels = 0
        self._set_state("running")
        self._task = asyncio.get_running_loop().create_task(
            self._drive(engine, text, previous_analysis))
        return True

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

    async def _drive(self, engine: Engine, text: str,
                     previous_analysis: dict[str, Any] | None) -> None:
        status = "failed"
        try:
            async for event in engine.run(text, previous_analysis=previous_analysis):
                data = to_dict(event)
                for name in PAGE_OMITS.get(event.kind, ()):
                    data.pop(name, None)
                if event.kind == "summary":
                    data["final_summary_html"] = await asyncio.to_thread(
                        markdown_to_html, data["final_summary"])
                elif event.kind == "run_finished":
                    status = data["status"]
                self._bridge.send(data)
        except asyncio.CancelledError:
            status = "cancelled"
            raise
        except Exception as exc:  # the engine promises not to raise; never crash the window
            log.exception("the run stopped with an exception")
            self.message(redact(f"The run stopped unexpectedly: {exc}"), "error")
        finally:
            self._engine = None
            self._set_state("idle")
            self.run_ended.emit(getattr(engine, "run_id", ""), text, status)

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
