"""The window's own messages to the page: a closed set of kinds, as ``core.events`` is for runs.

Each message is a frozen dataclass with a ``kind`` class constant (``ui_…``); ``to_dict``
gives its one JSON shape, and the page's ``app.js`` switches on the same kinds. Everything
else the page receives is an engine event of ``core.events`` as ``ui.render.page_message``
renders it (a ``RenderedEvent``). ``Bridge.send`` takes either.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from core.tools.checkpoint import UndoReport

# An engine event as ``ui.render.page_message`` made it (``core.events.to_dict`` shape plus
# rendered HTML fields).
RenderedEvent = dict[str, Any]
UiLevel = Literal["info", "warning", "error"]
UiRunState = Literal["idle", "running", "stopping"]
# ``stored``: replayed from the history; ``done``/``refused``: the answer to a request.
MarkStatus = Literal["stored", "done", "refused"]
# ``undone``: replayed (undone since); the rest answer a request.
UndoStatus = Literal["done", "refused", "cancelled", "undone"]


@dataclass(frozen=True)
class PageMessage:
    kind: ClassVar[str] = "page_message"


@dataclass(frozen=True)
class UiMessage(PageMessage):
    """A line for the person in the timeline (not tied to a run's card)."""

    kind: ClassVar[str] = "ui_message"
    level: UiLevel
    message: str


@dataclass(frozen=True)
class UiState(PageMessage):
    """The run controller's state: the Stop button and the status line follow it."""

    kind: ClassVar[str] = "ui_state"
    state: UiRunState


@dataclass(frozen=True)
class UiContext(PageMessage):
    """The header: workspace, model (and the thinking model, when a separate one is set);
    ``demo`` when the model is the bundled offline demo model (the page then asks for a real
    one in a banner); ``workspace_missing`` when the chosen folder no longer exists."""

    kind: ClassVar[str] = "ui_context"
    workspace: str
    provider: str
    model: str
    engine: Literal["phase", "classic"]
    thinking: str
    demo: bool = False
    workspace_missing: bool = False


@dataclass(frozen=True)
class UiClear(PageMessage):
    """Empty the timeline (a new or another conversation)."""

    kind: ClassVar[str] = "ui_clear"


@dataclass(frozen=True)
class UiSubmitted(PageMessage):
    """The answer to a request the page sent (its input, a clarification's answer, a Retry):
    ``accepted`` when its run started; refused, the window said why in the timeline and the
    page keeps the text in its input."""

    kind: ClassVar[str] = "ui_submitted"
    accepted: bool
    text: str


@dataclass(frozen=True)
class UiCommand(PageMessage):
    """Do what the person asked from the window's menu (Run → Send)."""

    kind: ClassVar[str] = "ui_command"
    command: Literal["send"]


@dataclass(frozen=True)
class UiRunEnd(PageMessage):
    """The footer of a replayed run that never recorded its ``run_finished``."""

    kind: ClassVar[str] = "ui_run_end"
    run_id: str
    status: str  # as the history recorded it: a ``RunStatus``, ``running`` or ``interrupted``
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    elapsed_s: float


@dataclass(frozen=True)
class UiUndo(PageMessage):
    """The answer to an undo of a run (``path`` empty) or of one file of it; ``run_undone``:
    that file was the run's last changed one, so the run counts as undone."""

    kind: ClassVar[str] = "ui_undo"
    run_id: str
    status: UndoStatus
    message: str = ""
    restored: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    path: str = ""
    run_undone: bool = False

    @classmethod
    def answer(cls, run_id: str, status: UndoStatus, message: str = "",
               report: UndoReport | None = None, *, path: str = "",
               run_undone: bool = False) -> UiUndo:
        """The message for an undo whose ``report`` lists the files it touched."""
        return cls(run_id, status, message, list(report.restored) if report else [],
                   list(report.deleted) if report else [], path, run_undone)


@dataclass(frozen=True)
class UiMark(PageMessage):
    """Whether the run is kept in its conversation's memory (``marked`` None: not known)."""

    kind: ClassVar[str] = "ui_mark"
    run_id: str
    status: MarkStatus
    marked: bool | None = None
    message: str = ""


PAGE_MESSAGE_TYPES: dict[str, type[PageMessage]] = {cls.kind: cls for cls in (
    UiMessage, UiState, UiContext, UiClear, UiSubmitted, UiCommand, UiRunEnd, UiUndo, UiMark)}


def to_dict(message: PageMessage) -> dict[str, Any]:
    """The message as a plain dict with its ``kind`` first."""
    return {"kind": message.kind, **dataclasses.asdict(message)}
