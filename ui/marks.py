"""Keep a run in its conversation's memory from the window: the toggle in the run's footer.

A follow-up request sees the most recent runs of its conversation and, besides them, the
milestone runs ``core.store.runs.memory_window`` keeps, among them the runs the person
marked. The page's "Keep in memory" toggle calls the bridge's ``mark_run`` slot with the
run's id and the state asked for; the window stores it with ``Store.mark_run`` and answers
with one ``UiMark`` message carrying the state read back from the history: ``status``
``done``, or ``refused`` (nothing changed; ``message`` says why). Replaying a conversation
sends ``stored`` for every marked run, so its toggle shows it.
"""

from __future__ import annotations

import logging
import sqlite3

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from core.secrets import redact
from ui.bridge import Bridge
from ui.history import History
from ui.page_messages import UiMark

log = logging.getLogger(__name__)


class Marks(QObject):
    """Answers the page's requests to keep a run in memory (or to stop keeping it)."""

    def __init__(self, window: QWidget, bridge: Bridge, history: History) -> None:
        super().__init__(window)
        self._bridge = bridge
        self._history = history
        bridge.mark_requested.connect(self.mark)

    def mark(self, run_id: str, marked: bool) -> None:
        """Store the run's mark and tell the page the state the history now holds."""
        try:
            stored = self._history.mark(run_id, marked)
        except KeyError:
            log.warning("mark of run %s refused: not in the history", run_id)
            self._bridge.send(UiMark(
                run_id, "refused", message=f"Run {run_id} is not in the history (it may have "
                                           "been deleted); its memory setting was not changed."))
            return
        except sqlite3.Error as exc:
            log.exception("mark of run %s failed", run_id)
            self._bridge.send(UiMark(run_id, "refused", message=redact(
                f"Could not change whether the run is kept in memory: {exc}")))
            return
        log.info("run %s %s", run_id, "kept in memory" if stored else "no longer kept in memory")
        self._bridge.send(UiMark(run_id, "done", stored))
