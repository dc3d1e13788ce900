"""A quiet start: Qt's and Chromium's diagnostic lines ("Failed to load vulkan", "Failed to
connect to the bus", "Sandboxing disabled by user.") stay out of the terminal unless the
person asks for them with ``--verbose``.

Qt's messages go through Python's logging (logger ``qt``): warnings and lower at INFO, which
``--verbose`` shows; critical ones at ERROR, always shown. Chromium writes its own log
straight to stderr; ``--log-level=3`` (fatal only) among ``QTWEBENGINE_CHROMIUM_FLAGS`` keeps
it quiet. Both are set before the QApplication exists.
"""

from __future__ import annotations

import logging
import os

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

log = logging.getLogger("qt")
CHROMIUM_QUIET = "--log-level=3"
LEVELS = {QtMsgType.QtDebugMsg: logging.DEBUG, QtMsgType.QtInfoMsg: logging.INFO,
          QtMsgType.QtWarningMsg: logging.INFO, QtMsgType.QtCriticalMsg: logging.ERROR,
          QtMsgType.QtFatalMsg: logging.CRITICAL}


def _to_log(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    category = context.category or "default"
    log.log(LEVELS.get(kind, logging.INFO), "%s: %s", category, message)


def start_quietly(verbose: bool) -> None:
    """Route Qt's messages to the log, and unless ``verbose`` ask Chromium for fatal lines
    only (a ``--log-level`` the person set in ``QTWEBENGINE_CHROMIUM_FLAGS`` wins)."""
    qInstallMessageHandler(_to_log)
    if verbose:
        return
    flags = os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
    if "--log-level" not in flags:
        os.environ["QTWEBENGINE_CHROMIUM_FLAGS"] = f"{flags} {CHROMIUM_QUIET}".strip()
