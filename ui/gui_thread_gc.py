"""Python's cyclic garbage collector, run on the GUI thread only.

A Qt object that is cyclic garbage is destroyed by whichever thread the collector happens
to run in. Destroyed in a worker thread (the embedded model's, a ``to_thread`` call), a
QObject cannot unregister its timers ("Timers cannot be stopped from another thread") and
the GUI thread's next timer event reaches freed memory: a segfault. So automatic collection
is switched off and the same generational collection runs from a timer on the GUI thread
(the approach pyqtgraph's GarbageCollector takes).
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 1000


class GuiThreadGc(QObject):
    """While started, garbage is collected on the thread this object lives in."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)
        self.collections = 0

    def start(self) -> None:
        gc.disable()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        gc.collect()
        gc.enable()

    def check(self) -> None:
        """Collect the oldest generation whose count has passed its threshold."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if counts[generation] > thresholds[generation]:
                gc.collect(generation)
                self.collections += 1
                return
