"""Guard against a binding that leaks references to None/True on every Qt call.

PySide6 6.12.0 on CPython 3.11 drops one reference to None per void call and one to True
per signal emit; the interpreter then aborts after some thousand calls (pyproject pins
PySide6 below 6.12 for that). This test fails on such a binding instead of crashing later.
"""

from __future__ import annotations

import sys

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import submit, wait_js
from tests.e2e.scripted_runs import ScriptedFactory, two_phase_replies

pytestmark = pytest.mark.gui


def test_qt_calls_keep_singleton_refcounts_and_a_run_completes(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedFactory(two_phase_replies()))
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(2_000):
        window.sidebar.workspace_label.setText("x")
        window.controller.state_changed.emit("idle")
    assert sys.getrefcount(None) - none_before > -100
    assert sys.getrefcount(True) - true_before > -100
    submit(qtbot, window, "go")
    wait_js(qtbot, window, "document.querySelector('.run-footer') !== null")
    assert window.controller.state == "idle"
