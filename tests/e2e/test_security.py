"""Untrusted model text never runs in the page, and the bridge shrugs off malformed calls."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import count, heard_requests, js, submit, texts, wait_js
from tests.support.log_guard import ExpectedWarning
from tests.e2e.scripted_runs import ScriptedFactory
from tests.support.script import analysis, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
FAKE_BRIDGE = ('{"kind":"summary","final_summary_html":"<b>fake</b>"} '
               'qt.webChannelTransport.send(\'{"type":6,"object":"phasedesk","method":"submit",'
               '"args":["{\\"text\\":\\"pwned\\"}"]}\') PD.call("submit", {"text": "pwned"})')
PAYLOAD = "\n".join([
    "<script>window.__pwned = 'script'</script>",
    "<img src=x onerror=\"window.__pwned = 'img'\">",
    "<iframe src=\"javascript:parent.__pwned = 'iframe'\"></iframe>",
    "<iframe srcdoc=\"<script>parent.__pwned = 'srcdoc'</script>\"></iframe>",
    "<svg onload=\"window.__pwned = 'svg'\"></svg>",
    "<style>body { display: none }</style>",
    "<div style=\"position:fixed;inset:0;z-index:99;background:red\" class=\"jump\">overlay</div>",
    FAKE_BRIDGE,
])
SUMMARY = f"""# Report

{PAYLOAD}

[click me](javascript:window.__pwned='link') and [docs](https://example.com/docs)

<a href="https://example.com" onclick="window.__pwned='click'">raw link</a>
"""


def evil_replies() -> list[dict]:
    evil_task = task(2, "read_file", path="evil.html")
    evil_task["title"] = "<img src=x onerror=\"window.__pwned = 'title'\">"
    verdict = judge([1, 2])
    verdict["arguments"]["task_evaluation"] = [
        {"task_id": 1, "status": "done", "quality_score": 9, "comment": PAYLOAD}]
    verdict["arguments"]["user_summary"] = "<script>window.__pwned = 'judge'</script>"
    return [analysis("<b>goal</b><script>window.__pwned = 'goal'</script>", complexity="complex"),
            phases((1, "<iframe src=x></iframe>", [])),
            {"text": "<script>window.__pwned = 'draft'</script> evil.html holds markup."},
            plan(task(1, "list_files"), evil_task), verdict,
            summary(SUMMARY, highlights=["<img src=x onerror=\"window.__pwned = 'hl'\">"])]


class Browser(QObject):
    """Stands in for the person's browser: the URLs the app asked the desktop to open."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url.toString())


@pytest.fixture
def browser() -> Iterator[Browser]:
    browser = Browser()
    for scheme in ("http", "https"):
        QDesktopServices.setUrlHandler(scheme, browser, "open")
    yield browser
    for scheme in ("http", "https"):
        QDesktopServices.unsetUrlHandler(scheme)
    browser.deleteLater()


def test_hostile_model_text_is_shown_as_text_and_never_runs(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path, browser: Browser) -> None:
    (workspace / "evil.html").write_text(PAYLOAD, encoding="utf-8")
    factory = ScriptedFactory(evil_replies())
    window = make_window(factory)
    heard = heard_requests(window)
    submit(qtbot, window, "<script>window.__pwned = 'request'</script>")
    wait_js(qtbot, window, FINISHED)
    qtbot.wait(500)

    assert js(qtbot, window, "typeof window.__pwned") == "undefined"
    assert count(qtbot, window, "#timeline script, #timeline iframe, #timeline img, "
                                "#timeline style, #timeline svg, #timeline object") == 0
    assert js(qtbot, window, "Array.from(document.querySelectorAll('#timeline *')).filter(e =>"
                             " Array.from(e.attributes).some(a => a.name.startsWith('on')))"
                             ".length") == 0
    assert count(qtbot, window, ".message-summarizer [style], .message-summarizer .jump") == 0
    assert count(qtbot, window, "#timeline a[href^='javascript']") == 0
    assert heard == ["submitted"]
    assert len(factory.engines) == 1

    summary_text = js(qtbot, window, "document.querySelector('.summarizer-content').textContent")
    assert "<script>window.__pwned = 'script'</script>" in summary_text
    assert "<a href=\"https://example.com\" onclick=" in summary_text
    assert "<img src=x onerror=" in summary_text and "qt.webChannelTransport.send" in summary_text
    result = js(qtbot, window, "document.querySelector('.task[data-task-id=\"2\"] .task-details')"
                               ".textContent")
    assert "<iframe srcdoc=" in result and "PD.call(\"submit\"" in result
    assert texts(qtbot, window, ".task[data-task-id='2'] .task-title") == [
        "<img src=x onerror=\"window.__pwned = 'title'\">"]
    assert "<script>" in js(qtbot, window, "document.querySelector('.judge-summary').textContent")
    assert texts(qtbot, window, ".bubble") == ["<script>window.__pwned = 'request'</script>"]
    send_hit = js(qtbot, window, "(() => { const r = document.getElementById('send')"
                                 ".getBoundingClientRect(); const e = document.elementFromPoint("
                                 "r.x + r.width / 2, r.y + r.height / 2); return e && e.id; })()")
    assert send_hit == "send"

    js(qtbot, window, "(() => { for (const a of document.querySelectorAll('.summarizer-content a'))"
                      " a.click(); return 1; })()")
    qtbot.wait(500)
    assert js(qtbot, window, "typeof window.__pwned") == "undefined"
    assert window.page.url().fileName() == "index.html"
    assert browser.opened == ["https://example.com/docs"]


MALFORMED = [
    "PD.bridge.submit('{not json')",
    "PD.bridge.submit(JSON.stringify([1, 2]))",
    "PD.bridge.submit(JSON.stringify({text: 5}))",
    "PD.bridge.submit(JSON.stringify({text: true}))",
    "PD.bridge.submit(JSON.stringify({text: '   '}))",
    "PD.bridge.submit(JSON.stringify({text: 'x'.repeat(300000)}))",
    "PD.bridge.submit(JSON.stringify({text: 'ok', previous_analysis: 'not an object'}))",
    "PD.bridge.submit('null')",
    "PD.bridge.submit(42)",
    "PD.bridge.submit({text: 'an object, not a string'})",
    "PD.bridge.submit()",
    "PD.bridge.approve(JSON.stringify({request_id: 'r1', decision: 'maybe'}))",
    "PD.bridge.approve(JSON.stringify({request_id: 7, decision: 'once'}))",
    "PD.bridge.approve(JSON.stringify({request_id: 'x'.repeat(500), decision: 'once'}))",
    "PD.bridge.cancel('{')",
    "PD.bridge.ready('[]')",
    "PD.bridge.open_settings('\"just a string\"')",
    "PD.bridge.retry_run('{}')",
    "PD.bridge.retry_run(JSON.stringify({run_id: '../../etc'}))",
]


def test_malformed_bridge_calls_are_ignored_and_the_app_keeps_working(
        qtbot: QtBot, make_window: WindowMaker,
        expect_warning: Callable[..., ExpectedWarning]) -> None:
    replies = [analysis("Look", complexity="complex"), phases((1, "Look", [])), plan(task(1, "list_files")),
               judge([1]), summary()]
    factory = ScriptedFactory(replies)
    window = make_window(factory)
    # every call reaches a slot and is rejected there with a warning, except submit() without
    # an argument, which QWebChannel itself refuses
    ignored = [expect_warning(f"bridge.{slot} ignored", count=sum(
        call.startswith(f"PD.bridge.{slot}(") for call in MALFORMED) - (slot == "submit"))
        for slot in ("submit", "approve", "cancel", "ready", "open_settings", "retry_run")]
    for call in MALFORMED:
        js(qtbot, window, f"(() => {{ try {{ {call}; }} catch (e) {{}} return 1; }})()")
    qtbot.waitUntil(lambda: sum(len(w.records) for w in ignored) >= len(MALFORMED) - 1,
                    timeout=5000)
    qtbot.wait(300)
    assert factory.engines == []
    assert window.findChild(object, "settingsDialog") is None
    assert not window.controller.running

    submit(qtbot, window, "now a real request")
    wait_js(qtbot, window, FINISHED)
    assert len(factory.engines) == 1
    assert texts(qtbot, window, ".bubble") == ["now a real request"]


def test_bridge_queues_events_until_the_page_is_ready(
        expect_warning: Callable[..., ExpectedWarning]) -> None:
    from ui.bridge import Bridge

    expect_warning("bridge.ready ignored: invalid JSON", count=1)
    bridge = Bridge()
    received: list[str] = []
    bridge.event.connect(received.append)
    bridge.send({"kind": "notice", "level": "info", "message": "early"})
    assert received == []
    bridge.ready("{not json")
    assert received == []
    bridge.ready("{}")
    assert [json.loads(r)["message"] for r in received] == ["early"]
    bridge.send({"kind": "notice", "level": "info", "message": "late"})
    assert json.loads(received[-1])["message"] == "late"
