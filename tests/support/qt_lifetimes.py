"""Qt objects die on the GUI thread, with the test that made them.

The crash this prevents (seen on fresh machines as a segfault in pytest-qt's
``_process_events`` after the GUI tests): qasync's ``_SimpleTimer.stop()`` only sets a flag,
so a closed loop keeps its Qt timers registered with the GUI thread's event dispatcher.
The loop is cyclic garbage once its test ends; when a full collection happens to run in a
worker thread (a thread pool of a later test, a to_thread call), ``QObject::~QObject`` runs
there, cannot unregister the timers ("Timers cannot be stopped from another thread"), and
the next timer event on the GUI thread is delivered to freed memory.

So: a loop is closed and its Qt objects deleted here, on the GUI thread
(``dispose_loop``); automatic collection is off while a Qt test runs and everything is
collected on the GUI thread when it ends; and a test fails when a QObject it made is still
alive afterwards (``live_qobjects``).
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import qasync
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject
from PySide6.QtWidgets import QApplication

# Python wrappers that may outlive a test: the application itself.
ALLOWED = (QApplication,)


def _harmless(obj: QObject) -> bool:
    """pytest-qt's idle wait loops: a captured log record's traceback keeps their frames
    until the report is written; they hold no timers."""
    return isinstance(obj, ALLOWED) or (isinstance(obj, QEventLoop) and not obj.isRunning())


def dispose_loop(loop: qasync.QEventLoop, app: QApplication) -> None:
    """Close a loop made with ``already_running=True`` (never stopped: that quits the app)
    and delete its Qt objects (timers, signaller, worker threads, socket notifiers) now,
    on this thread."""
    for task in asyncio.all_tasks(loop):
        task.cancel()
    loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
    app.aboutToQuit.disconnect(loop._after_run_forever)
    asyncio.events._set_running_loop(None)
    notifiers = [*(loop._read_notifiers or {}).values(), *(loop._write_notifiers or {}).values()]
    executor = loop._QEventLoop__default_executor  # type: ignore[attr-defined]
    loop.close()  # shuts the default executor down and waits for its threads
    asyncio.set_event_loop(None)
    owned: list[Any] = [loop._timer, loop._QEventLoop__call_soon_signaller, *notifiers]  # type: ignore[attr-defined]
    if executor is not None:
        owned += executor._QThreadExecutor__workers
    for obj in owned:
        if shiboken6.isValid(obj):
            shiboken6.delete(obj)


def flush_deletes() -> None:
    """Deliver pending deleteLater()s and whatever they post in turn."""
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()


def live_qobjects() -> list[str]:
    """QObjects whose C++ side is still alive and that Python can reach or collect, as
    ``Type (objectName)``; the application is left out."""
    found = []
    for obj in gc.get_objects():
        try:
            if not isinstance(obj, QObject) or _harmless(obj):
                continue
            if shiboken6.isValid(obj) and shiboken6.ownedByPython(obj):
                found.append(f"{type(obj).__module__}.{type(obj).__qualname__}"
                             + (f" ({obj.objectName()})" if obj.objectName() else ""))
            elif shiboken6.isValid(obj) and obj.parent() is None:
                found.append(f"{type(obj).__module__}.{type(obj).__qualname__} (top level)")
        except RuntimeError:
            continue
    return sorted(found)
