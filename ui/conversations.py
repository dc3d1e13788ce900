"""The current conversation and what a person does with the history from the window.

Opening a conversation replays its recorded runs into the page; "New conversation" clears
the page and the next request starts a conversation. Rename asks for a title, delete asks
for a confirmation, export writes the last run of a conversation as JSON or Markdown.
None of it happens while a run is going (it would mix two conversations in the page).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog, QLineEdit, QMessageBox, QWidget

from core.secrets import redact
from ui.bridge import Bridge
from ui.history import History
from ui.page_messages import UiClear
from ui.run_controller import RunController
from ui.sidebar import Sidebar

log = logging.getLogger(__name__)
FORMATS = {"json": ("JSON", "JSON files (*.json)"), "md": ("Markdown", "Markdown files (*.md)")}
Format = Literal["json", "md"]


class Conversations(QObject):
    """Keeps the sidebar's list, the page and the history in step."""

    def __init__(self, window: QWidget, history: History, sidebar: Sidebar, bridge: Bridge,
                 controller: RunController) -> None:
        super().__init__(window)
        self._window = window
        self.history = history
        self._sidebar = sidebar
        self._bridge = bridge
        self._controller = controller
        self.current: int | None = None
        self._replay: asyncio.Task[int] | None = None
        lst = sidebar.conversations
        lst.open_requested.connect(self.open)
        lst.rename_requested.connect(self.ask_rename)
        lst.delete_requested.connect(self.ask_delete)
        lst.export_requested.connect(self.ask_export)
        sidebar.new_button.clicked.connect(self.new)
        controller.run_began.connect(self._run_began)
        controller.run_ended.connect(lambda *_: self.refresh())
        self.refresh()

    @property
    def replaying(self) -> bool:
        return self._replay is not None and not self._replay.done()

    def refresh(self) -> None:
        """Reload the list from the history (most recently active first)."""
        if not self.history.closed:
            self._sidebar.show_conversations(self.history.conversations(), self.current)

    def _busy(self, what: str) -> bool:
        if self._controller.running:
            self._controller.message(f"Stop the current run before you {what}.", "warning")
            return True
        return False

    def new(self) -> None:
        if self._busy("start a new conversation"):
            return
        self._cancel_replay()
        self.current = None
        self._sidebar.conversations.select(None)
        self._bridge.send(UiClear())

    def open(self, conversation_id: int) -> None:
        """Show the conversation: clear the page and replay its runs from the history."""
        lst = self._sidebar.conversations
        if self._busy("open another conversation"):
            lst.select(self.current)
            return
        if self.history.conversation(conversation_id) is None:
            QTimer.singleShot(0, self.refresh)  # not from inside the list's click handler
            return
        self._cancel_replay()
        self.current = conversation_id
        lst.select(conversation_id)
        self._bridge.send(UiClear())
        self._replay = asyncio.get_running_loop().create_task(
            self.history.replay(conversation_id, self._bridge.send))

    def _cancel_replay(self) -> None:
        if self._replay is not None and not self._replay.done():
            self._replay.cancel()

    def _run_began(self, conversation_id: int, run_id: str) -> None:
        self.current = conversation_id
        self.refresh()

    def rename(self, conversation_id: int, title: str) -> None:
        if title.strip():
            self.history.rename(conversation_id, title)
        self.refresh()

    def delete(self, conversation_id: int) -> None:
        if conversation_id == self.current and self._busy("delete this conversation"):
            return
        self.history.delete(conversation_id)
        if conversation_id == self.current:
            self._cancel_replay()
            self.current = None
            self._bridge.send(UiClear())
        self.refresh()

    def ask_rename(self, conversation_id: int) -> None:
        info = self.history.conversation(conversation_id)
        if info is None:
            return
        title, ok = QInputDialog.getText(self._window, "Rename conversation", "Title:",
                                         QLineEdit.EchoMode.Normal, info["title"])
        if ok:
            self.rename(conversation_id, title)

    def ask_delete(self, conversation_id: int) -> None:
        info = self.history.conversation(conversation_id)
        if info is None:
            return
        runs = info["run_count"]
        answer = QMessageBox.question(
            self._window, "Delete conversation",
            f"Delete “{info['title']}” and its {runs} run{'' if runs == 1 else 's'}? "
            "This cannot be undone.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Yes:
            self.delete(conversation_id)

    def ask_export(self, conversation_id: int | None, fmt: Format) -> Path | None:
        """Ask where to save the conversation's last run, then write it there."""
        run = self.history.last_run(conversation_id) if conversation_id is not None else None
        if run is None:
            self._controller.message("There is no run to export yet: open a conversation "
                                     "or finish a run first.", "warning")
            return None
        name, pattern = FORMATS[fmt]
        suggested = Path.home() / f"phasedesk-run-{run['id'][:8]}.{fmt}"
        chosen, _ = QFileDialog.getSaveFileName(self._window, f"Export the run as {name}",
                                                str(suggested), pattern)
        if not chosen:
            return None
        path = Path(chosen)
        try:
            path.write_text(self.history.export(run["id"], fmt), encoding="utf-8")
        except OSError as exc:
            self._controller.message(redact(f"Could not export the run: {exc}"), "error")
            return None
        self._controller.message(f"Exported the run as {name} to {path}.")
        return path

    def export_current(self, fmt: Format) -> Path | None:
        return self.ask_export(self.current, fmt)

    def close_when_idle(self) -> None:
        """Close the history once the run still ending (if any) has recorded its end."""
        self._cancel_replay()
        task = self._controller.task
        if task is not None and not task.done():
            task.add_done_callback(lambda _: self.history.close())
        else:
            self.history.close()
