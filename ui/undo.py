"""Undo a run's file changes from the window: confirm, restore from the checkpoint, report.

The page's "Undo these changes" button (on a run's Changes section) calls the bridge's
``undo_run`` slot with the run's id, which is both the history's and the checkpoint's run
id; a file's "Undo file" button calls ``undo_file`` with the run's id and the file's path.
The window asks for a confirmation, as it does before deleting a conversation, and then
``core.tools.undo`` puts every file back (all or nothing), or the one file, in a worker
thread. No undo starts while a run is going, and no run starts while an undo is going.

Every request is answered with one ``UiUndo`` message for that run's card, whose
``status`` is ``done`` (``restored`` and ``deleted`` list the files), ``refused`` (nothing
was undone; ``message`` says why) or ``cancelled`` (the person said no); an answer for one
file carries its ``path`` (and ``run_undone`` when it was the run's last changed file).
Replaying a conversation sends ``undone`` for a run whose checkpoint records that it was
undone, and for each file undone alone. A run whose changes are all undone is recorded so in
the history (``record_undo``), as ``--undo`` records it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from core.secrets import redact
from core.tools.checkpoint import UndoReport
from core.tools.undo import undo_file, undo_run, was_undone
from ui.bridge import Bridge
from ui.page_messages import UiUndo, UndoStatus
from ui.run_controller import RunController

log = logging.getLogger(__name__)
CONFIRM = ("Put every file this run changed back the way it was before the run? Files it "
           "created are deleted. If any of them changed since the run wrote it, nothing is "
           "undone.")
CONFIRM_FILE = ("Put {path} back the way it was before this run? If the run created it, it is "
                "deleted. The run's other files keep their changes. If {path} changed since "
                "the run wrote it, nothing is undone.")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _done_text(report: UndoReport) -> str:
    if not report.restored and not report.deleted:
        return report.message
    parts = [f"restored {_plural(len(report.restored), 'file')}" if report.restored else "",
             f"deleted {_plural(len(report.deleted), 'file')} the run created"
             if report.deleted else ""]
    return "Changes undone: " + " and ".join(part for part in parts if part) + "."


class Undo(QObject):
    """Answers the page's undo requests; owns the undo task while one is going."""

    def __init__(self, window: QWidget, bridge: Bridge, controller: RunController,
                 record_undo: Callable[[str], None] | None = None) -> None:
        """``record_undo(run_id)`` records in the history that a run's changes were undone."""
        super().__init__(window)
        self._window = window
        self._bridge = bridge
        self._controller = controller
        self._record_undo = record_undo
        self._task: asyncio.Task[None] | None = None
        bridge.undo_requested.connect(self.ask)
        bridge.file_undo_requested.connect(self.ask_file)

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def ask(self, run_id: str) -> None:
        """Confirm, then undo the run's file changes (refused while a run or undo is going)."""
        if self._confirmed(run_id, "", CONFIRM):
            self._task = asyncio.get_running_loop().create_task(self._undo(run_id))

    def ask_file(self, run_id: str, path: str) -> None:
        """Confirm, then undo the run's change to the one file ``path``."""
        if self._confirmed(run_id, path, CONFIRM_FILE.format(path=path)):
            self._task = asyncio.get_running_loop().create_task(self._undo_file(run_id, path))

    def _confirmed(self, run_id: str, path: str, question: str) -> bool:
        """The person said yes, and nothing keeps the undo from starting now."""
        if self._refused(run_id, path):
            return False
        answer = QMessageBox.question(
            self._window, "Undo file changes", question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Yes:
            self._bridge.send(UiUndo.answer(run_id, "cancelled", path=path))
            return False
        return not self._refused(run_id, path)  # a run may have started meanwhile

    def _refused(self, run_id: str, path: str = "") -> bool:
        if self._controller.running:
            reason = "Stop the current run before you undo file changes; nothing was undone."
        elif self.busy:
            reason = "Another undo is still going; try again when it has finished."
        else:
            return False
        self._bridge.send(UiUndo.answer(run_id, "refused", reason, path=path))
        return True

    async def _undo(self, run_id: str) -> None:
        try:
            report = await asyncio.to_thread(undo_run, run_id)
        except Exception as exc:  # shown on the card; the window keeps working
            log.exception("undo of run %s failed", run_id)
            self._bridge.send(UiUndo.answer(run_id, "refused", redact(f"Could not undo: {exc}")))
            return
        log.info("undo of run %s: %s", run_id, report.describe())
        if report.ok:
            self._recorded(run_id)
            self._bridge.send(UiUndo.answer(run_id, "done", redact(_done_text(report)), report))
        else:
            self._bridge.send(UiUndo.answer(run_id, "refused", redact(report.message)))

    async def _undo_file(self, run_id: str, path: str) -> None:
        try:
            report = await asyncio.to_thread(undo_file, run_id, path)
        except Exception as exc:  # shown on the file's row; the window keeps working
            log.exception("undo of %s of run %s failed", path, run_id)
            self._bridge.send(UiUndo.answer(run_id, "refused", redact(f"Could not undo: {exc}"),
                                            path=path))
            return
        log.info("undo of %s of run %s: %s", path, run_id, report.describe())
        status: UndoStatus = "done" if report.ok else "refused"
        message = report.message[:1].upper() + report.message[1:] + "."
        run_undone = report.ok and was_undone(run_id)
        if run_undone:
            self._recorded(run_id)
        self._bridge.send(UiUndo.answer(run_id, status, redact(message), report, path=path,
                                        run_undone=run_undone))

    def _recorded(self, run_id: str) -> None:
        """Record the undo of the whole run in the history (a run it lacks is logged)."""
        if self._record_undo is None:
            return
        try:
            self._record_undo(run_id)
        except KeyError as exc:
            log.warning("undo of run %s not recorded: %s", run_id, exc)

    def abort(self) -> None:
        """The window is closing: stop waiting for the undo (its thread finishes the files)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
