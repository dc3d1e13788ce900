"""The desktop app: QApplication, a qasync event loop on the Qt main thread, the window."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path


def _prepare_environment() -> None:
    """Chromium refuses to start as root unless its sandbox is off; set before WebEngine."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")


def main(argv: list[str]) -> int:
    _prepare_environment()
    logging.basicConfig(level=logging.INFO if "--verbose" in argv else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    import qasync
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from ui.main_window import MainWindow

    QApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    app = QApplication([sys.argv[0] if sys.argv else "phasedesk", *argv])
    app.setApplicationName("PhaseDesk")
    app.setDesktopFileName("phasedesk")
    icon = Path(__file__).resolve().parent.parent / "resources" / "phasedesk.svg"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow()
    window.show()
    with loop:
        code = loop.run_forever()
    return int(code or 0)
