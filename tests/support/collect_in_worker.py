"""Run as a script: a qasync loop with a pending Qt timer is closed (with ``dispose_loop``
when given ``dispose``, else as a plain ``loop.close()``), becomes garbage, is collected in
a worker thread, and the GUI thread then processes events past the timer's interval.
Exit 0 and "survived" when nothing broke; a segfault otherwise."""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import time

import qasync
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from tests.support.qt_lifetimes import dispose_loop


def main(dispose: bool) -> None:
    app = QApplication([])
    loop = qasync.QEventLoop(app, already_running=True)
    asyncio.set_event_loop(loop)
    loop.call_later(0.05, lambda: None).cancel()  # cancelled; its Qt timer stays registered
    if dispose:
        dispose_loop(loop, app)
    else:
        loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
        app.aboutToQuit.disconnect(loop._after_run_forever)
        asyncio.events._set_running_loop(None)
        loop.close()
        asyncio.set_event_loop(None)
    gc.disable()
    del loop
    worker = threading.Thread(target=gc.collect)
    worker.start()
    worker.join()
    time.sleep(0.1)
    for _ in range(10):
        QCoreApplication.processEvents()
        time.sleep(0.02)
    print("survived", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] == ["dispose"])
