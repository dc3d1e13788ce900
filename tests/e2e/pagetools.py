"""Helpers for driving the real page: evaluate JS and wait for its result."""

from __future__ import annotations

import json
from typing import Any

from pytestqt.qtbot import QtBot

from ui.main_window import MainWindow


def js(qtbot: QtBot, window: MainWindow, script: str, timeout: int = 5000) -> Any:
    """Evaluate ``script`` (an expression) in the page; returns its JSON-decoded value."""
    box: dict[str, Any] = {}
    wrapped = f"(function() {{ return JSON.stringify(({script})); }})()"
    window.page.runJavaScript(wrapped, 0, lambda result: box.setdefault("result", result))
    qtbot.waitUntil(lambda: "result" in box, timeout=timeout)
    raw = box["result"]
    return json.loads(raw) if raw else None


def wait_js(qtbot: QtBot, window: MainWindow, script: str, timeout: int = 10000) -> Any:
    """Wait until the expression ``script`` is truthy in the page; returns its value."""
    last: dict[str, Any] = {}

    def check() -> bool:
        last["value"] = js(qtbot, window, script)
        return bool(last["value"])

    qtbot.waitUntil(check, timeout=timeout)
    return last["value"]


def submit(qtbot: QtBot, window: MainWindow, text: str) -> None:
    """Type ``text`` into the page's input and press Send, as a person would."""
    js(qtbot, window, "(() => { const i = document.getElementById('input'); i.value = "
       + json.dumps(text) + "; document.getElementById('send').click(); return true; })()")


def count(qtbot: QtBot, window: MainWindow, selector: str) -> int:
    return int(js(qtbot, window, f"document.querySelectorAll({json.dumps(selector)}).length"))


def texts(qtbot: QtBot, window: MainWindow, selector: str) -> list[str]:
    return js(qtbot, window, f"Array.from(document.querySelectorAll({json.dumps(selector)}))"
                             ".map(e => e.textContent)")


def settle(qtbot: QtBot, window: MainWindow, ms: int = 600, top: bool | None = False) -> None:
    """Scroll (to the top, the bottom, or nowhere when ``top`` is None), let the page lay out
    and the compositor produce a fresh frame (for ``grab()``)."""
    if top is not None:
        position = 0 if top else 10**9
        js(qtbot, window, f"(() => {{ document.getElementById('timeline').scrollTop = {position};"
                          " return 1; })()")
    box: dict[str, Any] = {}
    window.page.runJavaScript("new Promise(r => requestAnimationFrame(() => "
                              "requestAnimationFrame(() => r(1))))", 0,
                              lambda result: box.setdefault("done", result))
    qtbot.wait(ms)
    window.view.update()
    qtbot.wait(ms)


def run_dom(qtbot: QtBot, window: MainWindow, index: int = 0) -> str:
    """The ``index``-th run's HTML with its live-only parts blanked (running clocks)."""
    return js(qtbot, window, "(() => { const run = document.querySelectorAll('.run')"
                             f"[{index}].cloneNode(true);"
                             " for (const t of run.querySelectorAll('.task-time')) t.textContent = '';"
                             " return run.outerHTML; })()")


def run_text(qtbot: QtBot, window: MainWindow, index: int = 0) -> str:
    """The ``index``-th run's text as the page shows it (``innerText``: CSS applied), with
    every finished phase in it wherever the view is scrolled. A finished phase out of view
    is not laid out (``content-visibility: auto``, cards.css) and ``innerText`` leaves its
    text out, so which phases a read saw depended on where the view stood: a 200-pixel-high
    window after a two-phase run read neither. (The page's policy refuses a <style>
    element; a property set through ``element.style`` it allows.)"""
    return js(qtbot, window, "(() => { const phases = document.querySelectorAll('.phase');"
                             " for (const p of phases) p.style.contentVisibility = 'visible';"
                             f" const text = document.querySelectorAll('.run')[{index}].innerText;"
                             " for (const p of phases) { p.style.contentVisibility = '';"
                             " if (!p.getAttribute('style')) p.removeAttribute('style'); }"
                             " return text; })()")


def click(qtbot: QtBot, window: MainWindow, selector: str, index: int = 0) -> None:
    """Click the ``index``-th element matching ``selector`` in the page."""
    js(qtbot, window, f"(() => {{ document.querySelectorAll({json.dumps(selector)})[{index}]"
                      ".click(); return 1; })()")


ANSWERED = ("!Array.from(document.querySelectorAll('.undo-btn, .file-undo-btn'))"
            ".some(b => b.textContent === 'Undoing…')")


def wait_undo_answered(qtbot: QtBot, window: MainWindow) -> None:
    """Wait until every undo button the person pressed shows the window's answer."""
    wait_js(qtbot, window, ANSWERED)


REQUESTS = ("submitted", "cancel_requested", "approval_answered", "settings_requested",
            "workspace_requested", "new_conversation_requested", "undo_requested",
            "file_undo_requested", "mark_requested", "retry_requested")


def heard_requests(window: MainWindow) -> list[str]:
    """From now on, the name of each request the bridge passes on to the window (its signal),
    in order."""
    heard: list[str] = []
    for name in REQUESTS:
        getattr(window.bridge, name).connect(lambda *_, name=name: heard.append(name))
    return heard


def chip_of(finished: Any) -> str:
    """The outcome chip the page shows for a run whose ``RunFinished`` is ``finished``, in the
    words of ``core.shapes.wording`` (the one table)."""
    from core.shapes.wording import outcome_chip

    return outcome_chip(finished.outcome, finished.verification, finished.verification_line,
                        emoji=True)
