"""The versions a write weighed, on its task card in the real page: when the draft fails one of
the request's examples, the engine samples candidates and keeps the one that passes; the card
says so in one line and shows each version's diff one click away, as text (a version that
holds markup shows it, it is never parsed). The reopened run and the Markdown export keep
them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.store.export import export_markdown
from core.store.history import Store
from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import click, count, js, run_dom, submit, texts, wait_js
from tests.e2e.scripted_runs import LEAP, LEAP_ASK, LEAP_STUB, LEAP_WRONG, ScriptedFactory, \
    leap_analysis
from tests.e2e.windowtools import open_conversation
from tests.support.script import authored, summary

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
HOSTILE = ("def is_leap(year):\n    # <img src=x onerror=\"window.__pwned = 'candidate'\">\n"
           "    return year % 4 == 0\n")
CARD = ".task[data-task-id='1']"


def leap_run() -> list[dict]:
    """The draft fails is_leap(1900); candidate 1 too (and holds markup in a comment);
    candidate 2 passes both examples."""
    return [leap_analysis(), authored(LEAP_WRONG, "leap.py"), authored(HOSTILE, "leap.py"),
            authored(LEAP, "leap.py"),
            summary("## Done\n\nis_leap follows both of the request's examples now.")]


def test_a_write_card_lists_the_versions_it_weighed_with_their_diffs(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "leap.py").write_text(LEAP_STUB)
    factory = ScriptedFactory(leap_run(), candidates=2, think_stage="never")
    window = make_window(factory)
    submit(qtbot, window, LEAP_ASK)
    wait_js(qtbot, window, FINISHED, timeout=30000)
    assert (workspace / "leap.py").read_text() == LEAP

    assert texts(qtbot, window, f"{CARD} .candidates-line") == [
        "2 candidates tried: 2 passes 2 of 2 checks (kept), draft 1 of 2"]
    assert texts(qtbot, window, f"{CARD} .candidate summary") == [
        "draft: passes 1 of 2 checks", "candidate 1: passes 1 of 2 checks",
        "candidate 2: passes 2 of 2 checks (kept)"]
    assert texts(qtbot, window, f"{CARD} .candidate.kept summary") == [
        "candidate 2: passes 2 of 2 checks (kept)"]
    assert count(qtbot, window, f"{CARD} .candidate[open]") == 0
    kept = f"document.querySelectorAll(\"{CARD} .candidate\")[2]"
    assert js(qtbot, window, f"{kept}.querySelector('.diff-box').checkVisibility()") is False
    assert "year % 400" not in js(qtbot, window, f"{kept}.innerText")

    click(qtbot, window, f"{CARD} .candidate summary", 2)
    assert js(qtbot, window, f"{kept}.open") is True
    assert js(qtbot, window, f"{kept}.querySelector('.diff-box').checkVisibility()") is True
    shown = js(qtbot, window, f"{kept}.querySelector('.diff-box').innerText")
    assert "year % 400 == 0" in shown and "raise NotImplementedError" in shown
    assert js(qtbot, window, f"{kept}.querySelectorAll('.diff-add').length") == 1
    assert js(qtbot, window, f"{kept}.querySelectorAll('.diff-del').length") == 1

    click(qtbot, window, f"{CARD} .candidate summary", 1)
    hostile = js(qtbot, window, f"document.querySelectorAll(\"{CARD} .candidate\")[1]"
                                ".querySelector('.diff-box').innerText")
    assert "<img src=x onerror=" in hostile
    assert count(qtbot, window, ".task-candidates img") == 0
    assert js(qtbot, window, "window.__pwned === undefined") is True

    click(qtbot, window, f"{CARD} .candidate summary", 1)
    click(qtbot, window, f"{CARD} .candidate summary", 2)
    live = run_dom(qtbot, window)
    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, FINISHED)
    assert run_dom(qtbot, window) == live

    with Store() as store:
        [conversation] = store.list_conversations()
        [run] = store.runs(conversation["id"])
        markdown = export_markdown(store, run["id"])
    assert ("*Task 1 tried 2 candidates after its draft:*\n\n"
            "- draft: passes 1 of 2 checks\n- candidate 1: passes 1 of 2 checks\n"
            "- candidate 2: passes 2 of 2 checks (kept)\n") in markdown
