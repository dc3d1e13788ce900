"""The window's side of the history: conversations, recorded runs, replay and export.

One ``Store`` is opened when the window starts, and runs that a killed or crashed process
left ``running`` are marked ``interrupted`` (and the temp files of their unfinished writes
swept) before this process starts any of its own.
A run is recorded exactly as the terminal records it (``core.store.runs``): the run is
started first, then every event goes through ``Recorder.wrap``. Replay sends the stored
events through the same ``page_message`` path as a live run, so the cards look the same;
a run whose file changes were undone since (its checkpoint says so) gets its card marked,
and a run the person keeps in memory (``runs.marked``) gets its footer's toggle set.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from core.events import RunStarted, to_dict
from core.store.export import export_text
from core.store.history import ConversationInfo, RunInfo, Store
from core.tools.checkpoint import sweep_interrupted_runs
from core.tools.undo import undone_files, was_undone
from ui.page_messages import PageMessage, RenderedEvent, UiMark, UiRunEnd, UiUndo
from ui.render import page_message

log = logging.getLogger(__name__)
MEMORY = ":memory:"
YIELD_EVERY = 500
Send = Callable[[PageMessage | RenderedEvent], None]


class History:
    """Conversations and runs of one open ``Store`` (the UI thread owns it)."""

    def __init__(self, store: Store, problem: str = "") -> None:
        self.store = store
        self.problem = problem
        self.closed = False

    @classmethod
    def open(cls) -> History:
        """The history in the data dir, with orphaned runs marked interrupted.

        When that database cannot be used (unreadable, from a newer PhaseDesk) the window
        still works on an in-memory history, and ``problem`` says why nothing is kept.
        """
        try:
            store = Store()
            sweep_interrupted_runs(store.mark_interrupted())
        except (sqlite3.Error, RuntimeError, OSError) as exc:
            log.warning("history unavailable: %s", exc)
            return cls(Store(Path(MEMORY)), f"The history could not be opened ({exc}); runs "
                                            "of this session will not be kept.")
        return cls(store)

    def conversations(self) -> list[ConversationInfo]:
        """All conversations, most recently active first."""
        return self.store.list_conversations()

    def conversation(self, conversation_id: int) -> ConversationInfo | None:
        return self.store.conversation(conversation_id)

    def rename(self, conversation_id: int, title: str) -> None:
        self.store.rename_conversation(conversation_id, title)

    def delete(self, conversation_id: int) -> None:
        self.store.delete_conversation(conversation_id)

    def mark(self, run_id: str, marked: bool) -> bool:
        """Keep the run in its conversation's memory (or stop); returns the stored state.

        Raises ``KeyError`` when the history holds no such run.
        """
        self.store.mark_run(run_id, marked)
        run = self.store.run(run_id)
        if run is None:
            raise KeyError(f"no run {run_id}")
        return run["marked"]

    def run(self, run_id: str) -> RunInfo | None:
        return self.store.run(run_id)

    def last_run(self, conversation_id: int) -> RunInfo | None:
        runs = self.store.runs(conversation_id)
        return runs[-1] if runs else None

    def export(self, run_id: str, fmt: Literal["json", "md"]) -> str:
        """The run as JSON (a replayable model script) or Markdown; secrets redacted."""
        return export_text(self.store, run_id, fmt)

    async def replay(self, conversation_id: int, send: Send) -> int:
        """Send every run of the conversation to the page, oldest first; returns the count."""
        runs = self.store.runs(conversation_id)
        sent = 0
        for run in runs:
            events = self.store.events(run["id"])
            if not events or events[0]["kind"] != "run_started":
                send(to_dict(_run_started(run)))
            for event in events:
                send(await page_message(event))
                sent += 1
                if sent % YIELD_EVERY == 0:
                    await asyncio.sleep(0)
            if not any(event["kind"] == "run_finished" for event in events):
                send(_run_end(run))
            if any(event["kind"] == "file_changed" for event in events):
                send_undone(run["id"], send)
            if run["marked"]:
                send(UiMark(run["id"], "stored", True))
        return len(runs)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.store.close()


def send_undone(run_id: str, send: Send) -> None:
    """Tell the page what of a run's file changes was undone since: all, or some files."""
    if was_undone(run_id):
        send(UiUndo(run_id, "undone", "These changes were undone."))
        return
    for path in undone_files(run_id):
        send(UiUndo(run_id, "undone", "This file's change was undone.", path=path))


def _run_started(run: RunInfo) -> RunStarted:
    """What the page needs to open a run whose own ``run_started`` was never recorded."""
    return RunStarted(run_id=run["id"], engine=run["engine"], request=run["request"],
                      provider=run["provider"], model=run["model"], workspace="", budget=0)


def _run_end(run: RunInfo) -> UiRunEnd:
    """The footer of a run that never finished (killed, crashed, still running elsewhere)."""
    end = run["finished_at"] or time.time()
    return UiRunEnd(run_id=run["id"], status=run["status"], llm_calls=run["llm_calls"],
                    prompt_tokens=run["prompt_tokens"],
                    completion_tokens=run["completion_tokens"],
                    elapsed_s=max(0.0, end - run["started_at"]))
