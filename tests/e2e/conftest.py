"""End-to-end fixtures: one qasync loop per test and the real window with the real page.

Teardown follows PLATFORM-FACTS and ``tests/support/qt_lifetimes``: the loop is unregistered
and closed (never stopped) and its Qt objects are deleted on the GUI thread; windows and
their pages are deleted and deferred deletes flushed, so no WebEnginePage outlives its
profile and no Qt timer is left for another thread's garbage collection to break.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from shiboken6 import isValid

from core import config
from tests.support.qt_lifetimes import dispose_loop, flush_deletes
from ui.main_window import MainWindow
from ui.run_controller import EngineFactory

pytestmark = pytest.mark.gui


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    yield loop
    dispose_loop(loop, qapp)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "workspace"
    folder.mkdir()
    (folder / "config.py").write_text("PORT = 8000\n", encoding="utf-8")
    return folder


WindowMaker = Callable[..., MainWindow]


@pytest.fixture
def make_window(qtbot: QtBot, qloop: qasync.QEventLoop, workspace: Path) -> Iterator[WindowMaker]:
    """Open a window (settings from the isolated config) and wait until its page is ready.
    What the page logs as a warning or an error fails the test (``tests/conftest.py``)."""
    windows: list[MainWindow] = []

    def make(factory: EngineFactory | None = None, *, use_workspace: bool = True) -> MainWindow:
        settings, _ = config.load()
        if use_workspace and not settings.workspace:
            settings = config.from_mapping({"workspace": str(workspace)}, settings)
        window = MainWindow(settings, factory)
        windows.append(window)
        window.show()
        qtbot.waitUntil(lambda: window.bridge.is_ready, timeout=20000)
        return window

    yield make
    for window in windows:
        close_window(qtbot, window)


def close_window(qtbot: QtBot, window: MainWindow) -> None:
    """Close the window, let its run end, and delete it and its page (idempotent)."""
    if not isValid(window):
        return
    window.close()
    task = window.controller.task
    if task is not None:
        qtbot.waitUntil(task.done, timeout=5000)
    window.page.deleteLater()
    window.deleteLater()
    flush_deletes()
