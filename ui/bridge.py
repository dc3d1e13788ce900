"""The one object the page talks to over QWebChannel.

Python → page: the ``event`` signal, one JSON object per emission (an engine event as
``ui.render.page_message`` renders it, or one of the window's messages of
``ui.page_messages``). Events sent before the page says ``ready`` are queued and flushed then.

Page → Python: slots taking one JSON string each. Every slot checks size, JSON type and
fields; anything malformed is logged (a warning) and ignored, and the page keeps working.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal, Slot

from core.approval import DECISIONS
from ui.page_messages import PageMessage, RenderedEvent, to_dict

log = logging.getLogger(__name__)

CHANNEL_NAME = "phasedesk"
MAX_PAYLOAD_CHARS = 200_000
MAX_REQUEST_CHARS = 100_000
MAX_PATH_CHARS = 4096
RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")  # as checkpoint_dir() takes them


class Bridge(QObject):
    """Registered on the page's QWebChannel as ``CHANNEL_NAME``."""

    event = Signal(str)

    page_ready = Signal()
    submitted = Signal(str, object)  # request text, previous analysis (dict | None)
    cancel_requested = Signal(bool)  # force: skip the model for the summary
    approval_answered = Signal(str, str)  # request id, decision
    settings_requested = Signal()
    workspace_requested = Signal()
    new_conversation_requested = Signal()
    undo_requested = Signal(str)  # run id
    file_undo_requested = Signal(str, str)  # run id, the file's workspace path
    mark_requested = Signal(str, bool)  # run id, marked
    retry_requested = Signal(str)  # run id: run its request again, in its conversation

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ready = False
        self._queue: list[str] = []

    @property
    def is_ready(self) -> bool:
        return self._ready

    def send(self, message: PageMessage | RenderedEvent) -> None:
        """Send one message or rendered engine event to the page (queued until it is ready)."""
        data = to_dict(message) if isinstance(message, PageMessage) else message
        if not shiboken6.isValid(self):  # the window closed while a run was still ending
            log.debug("the page is gone; %s not sent", data.get("kind"))
            return
        text = json.dumps(data, ensure_ascii=False)
        if self._ready:
            self.event.emit(text)
        else:
            self._queue.append(text)

    def reset(self) -> None:
        """The page is being (re)loaded: queue again until it reports ready."""
        self._ready = False

    def _parse(self, slot: str, payload: object, required: dict[str, type]) -> dict[str, Any] | None:
        problem = ""
        data: Any = None
        if not isinstance(payload, str):
            problem = f"payload is {type(payload).__name__}, not a JSON string"
        elif len(payload) > MAX_PAYLOAD_CHARS:
            problem = f"payload of {len(payload)} characters exceeds {MAX_PAYLOAD_CHARS}"
        else:
            try:
                data = json.loads(payload)
            except ValueError as exc:
                problem = f"invalid JSON ({exc})"
        if not problem and not isinstance(data, dict):
            problem = "payload is not a JSON object"
        if not problem:
            for name, kind in required.items():
                value = data.get(name)
                if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
                    problem = f"field {name!r} missing or not {kind.__name__}"
                    break
        if problem:
            log.warning("bridge.%s ignored: %s", slot, problem)
            return None
        return data

    @Slot(str)
    def ready(self, payload: str) -> None:
        if self._parse("ready", payload, {}) is None:
            return
        self._ready = True
        queued, self._queue = self._queue, []
        for text in queued:
            self.event.emit(text)
        self.page_ready.emit()

    @Slot(str)
    def submit(self, payload: str) -> None:
        data = self._parse("submit", payload, {"text": str})
        if data is None:
            return
        text = data["text"].strip()
        previous = data.get("previous_analysis")
        if not text or len(text) > MAX_REQUEST_CHARS:
            log.warning("bridge.submit ignored: empty or longer than %d characters", MAX_REQUEST_CHARS)
            return
        if previous is not None and not isinstance(previous, dict):
            log.warning("bridge.submit ignored: previous_analysis is not an object")
            return
        self.submitted.emit(text, previous)

    @Slot(str)
    def cancel(self, payload: str) -> None:
        data = self._parse("cancel", payload, {})
        if data is not None:
            self.cancel_requested.emit(data.get("force") is True)

    @Slot(str)
    def approve(self, payload: str) -> None:
        data = self._parse("approve", payload, {"request_id": str, "decision": str})
        if data is None:
            return
        if data["decision"] not in DECISIONS or not 0 < len(data["request_id"]) <= 200:
            log.warning("bridge.approve ignored: bad decision or request id")
            return
        self.approval_answered.emit(data["request_id"], data["decision"])

    @Slot(str)
    def open_settings(self, payload: str) -> None:
        if self._parse("open_settings", payload, {}) is not None:
            self.settings_requested.emit()

    @Slot(str)
    def pick_workspace(self, payload: str) -> None:
        if self._parse("pick_workspace", payload, {}) is not None:
            self.workspace_requested.emit()

    @Slot(str)
    def new_conversation(self, payload: str) -> None:
        if self._parse("new_conversation", payload, {}) is not None:
            self.new_conversation_requested.emit()

    def _run_id(self, slot: str, data: dict[str, Any] | None) -> str | None:
        """The payload's ``run_id`` when it looks like one (as the checkpoints name them)."""
        if data is None:
            return None
        if not RUN_ID.fullmatch(data["run_id"]):
            log.warning("bridge.%s ignored: not a run id", slot)
            return None
        return str(data["run_id"])

    @Slot(str)
    def undo_run(self, payload: str) -> None:
        run_id = self._run_id("undo_run", self._parse("undo_run", payload, {"run_id": str}))
        if run_id is not None:
            self.undo_requested.emit(run_id)

    @Slot(str)
    def undo_file(self, payload: str) -> None:
        """``{"run_id": str, "path": str}``: undo the run's change to that one file."""
        data = self._parse("undo_file", payload, {"run_id": str, "path": str})
        run_id = self._run_id("undo_file", data)
        if data is None or run_id is None:
            return
        path = data["path"]
        if not 0 < len(path) <= MAX_PATH_CHARS or "\x00" in path:
            log.warning("bridge.undo_file ignored: not a workspace path")
            return
        self.file_undo_requested.emit(run_id, path)

    @Slot(str)
    def mark_run(self, payload: str) -> None:
        """``{"run_id": str, "marked": bool}``: keep the run in the conversation's memory."""
        data = self._parse("mark_run", payload, {"run_id": str, "marked": bool})
        run_id = self._run_id("mark_run", data)
        if data is not None and run_id is not None:
            self.mark_requested.emit(run_id, data["marked"])

    @Slot(str)
    def retry_run(self, payload: str) -> None:
        """``{"run_id": str}``: start the finished run's request again, as a new run."""
        run_id = self._run_id("retry_run", self._parse("retry_run", payload, {"run_id": str}))
        if run_id is not None:
            self.retry_requested.emit(run_id)
