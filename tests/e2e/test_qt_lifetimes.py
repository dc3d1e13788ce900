"""Qt objects end with their test and die on the GUI thread (``tests/support/qt_lifetimes``).

The fresh-machine segfault after the GUI tests came from a closed qasync loop whose Qt
timers stayed registered, collected later in a worker thread of another test.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import weakref
from pathlib import Path

import pytest
from PySide6.QtCore import QObject
from PySide6.QtWebEngineCore import QWebEnginePage
from pytestqt.qtbot import QtBot

from tests.support.qt_lifetimes import flush_deletes, live_qobjects
from ui.gui_thread_gc import GuiThreadGc

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def collect_in_worker(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "tests.support.collect_in_worker", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_a_disposed_loop_leaves_no_timer_for_a_worker_thread_to_break() -> None:
    done = collect_in_worker("dispose")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "survived" in done.stdout
    assert "Timers cannot be stopped from another thread" not in done.stderr


def test_a_web_page_left_alive_is_reported_and_gone_once_deleted(qtbot: QtBot) -> None:
    page = QWebEnginePage()
    page.setObjectName("forgotten")
    assert "PySide6.QtWebEngineCore.QWebEnginePage (forgotten)" in live_qobjects()
    page.deleteLater()
    del page
    flush_deletes()
    gc.collect()
    assert not any("QWebEnginePage" in entry for entry in live_qobjects())


class Holder(QObject):
    """A QObject with a registered timer (as qasync's timer object), in a reference cycle."""

    def __init__(self) -> None:
        super().__init__()
        self.cycle = self
        self.startTimer(10)


def test_the_app_collects_garbage_on_the_gui_thread_only(qtbot: QtBot) -> None:
    gc.enable()  # as in the app (the fixture around Qt tests switches it off)
    collector = GuiThreadGc(interval_ms=20)
    collector.start()
    try:
        assert not gc.isenabled()
        died_in: list[str] = []
        holder = Holder()
        weakref.finalize(holder, lambda: died_in.append(threading.current_thread().name))
        del holder
        kept: list[list[int]] = []
        worker = threading.Thread(target=lambda: kept.extend([0] for _ in range(5_000)))
        worker.start()
        worker.join()  # enough allocations for a collection there, were it automatic
        assert died_in == []
        qtbot.waitUntil(lambda: died_in != [], timeout=5000)
        assert died_in == [threading.main_thread().name]
    finally:
        collector.stop()
        collector.deleteLater()
        flush_deletes()
    assert gc.isenabled()
    gc.disable()
