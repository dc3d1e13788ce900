"""The API key never reaches the real page, even when the model and the workspace repeat it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core import secrets
from tests.e2e.conftest import WindowMaker, make_window, qloop, workspace  # noqa: F401
from tests.e2e.pagetools import js, submit, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.support.script import analysis, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
KEY = "pd-live-7f3a9c-Q2w3E4r5T6y7U8i9o0"
FINISHED = "document.querySelector('.run-footer') !== null"


def test_the_page_never_shows_the_key(qtbot: QtBot, make_window: WindowMaker,  # noqa: F811
                                      workspace: Path) -> None:  # noqa: F811
    secrets.store_api_key(KEY)  # the configured key, as the settings dialog saves it
    (workspace / ".env").write_text(f"OPENAI_API_KEY={KEY}\n", encoding="utf-8")
    replies = [analysis(f"Check the key {KEY}", complexity="complex"),
               phases((1, f"Key {KEY}", [])),
               {"text": f"Your .env holds {KEY}."},  # the draft: an answer in words
               plan(task(1, "read_file", path=".env"),
                    task(2, "run_command", command="cat .env")),
               judge([1, 2], summary=f"The .env file holds {KEY}."),
               summary(f"## Found\n\nYour key is `{KEY}`.", highlights=[KEY])]
    factory = ScriptedFactory(replies)
    window = make_window(factory)
    submit(qtbot, window, f"Is my key {KEY} in .env?")
    # .env looks like a secret and the request names it: the person lets the model read it
    wait_js(qtbot, window, "document.querySelector('.approval button') !== null")
    js(qtbot, window, "(() => { document.querySelector('.approval [data-decision=\"run\"]')"
                      ".click(); return 1; })()")
    wait_js(qtbot, window, FINISHED)
    for selector in (".task-head", ".judge-summary"):
        js(qtbot, window, f"(() => {{ for (const e of document.querySelectorAll('{selector}'))"
                          " e.click(); return 1; })()")
    page = js(qtbot, window, "document.documentElement.outerHTML")
    assert "[redacted]" in page and "OPENAI_API_KEY=" in page  # the text is there, hidden
    assert KEY not in page
    assert KEY not in window.windowTitle()
