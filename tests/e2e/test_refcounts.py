"""Guard against a binding that leaks references to None/True on every Qt call.

PySide6 6.12.0 on CPython 3.11 drops one reference to None per void call and one to True
per signal emit; the interpreter then aborts after some thousand calls (pyproject pins
PySide6 below 6.12 for that). This test fails on such a binding instead of crashing later.
"""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QObject, Signal
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import js, submit, wait_js
from tests.e2e.scripted_runs import ScriptedFactory, two_phase_replies

pytestmark = pytest.mark.gui


class Emitter(QObject):
    fired = Signal(str)


def test_qt_calls_keep_singleton_refcounts_and_a_run_completes(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedFactory(two_phase_replies()))
    emitter = Emitter(window)
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(2_000):
        window.sidebar.workspace_label.setText("x")
        emitter.fired.emit("idle")
    assert sys.getrefcount(None) - none_before > -100
    assert sys.getrefcount(True) - true_before > -100
    submit(qtbot, window, "go")
    wait_js(qtbot, window, "document.querySelector('.run-footer') !== null")
    assert js(qtbot, window, "[document.getElementById('stop').hidden, "
                             "document.getElementById('status').textContent]") == [True, ""]
