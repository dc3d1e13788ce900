"""What the page shows of what a run verified (issues 36, 35, 38 item 7), in the real window:
"not verified" on the Summary panel of a run no check covered, "N tests pass" when the engine
ran the workspace's tests, the assumptions apart from the requirements, the Judge card of a
round the facts settled, and a write waiting for approval with the diff it would write (denied:
the file is untouched and the run goes on knowing it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import click, js, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.support.script import analysis, authored, judge, summary

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ASK = "Set PORT to 8080 in config.py"
CHECKED_NOTHING = "Nothing checked config.py as it is now."


def _port_run() -> list[dict]:
    return [analysis("Set the port", requirements=[
                {"requirement": "PORT is 8080", "quote": "Set PORT to 8080"},
                {"requirement": "Close all existing connections", "quote": ""}]),
            authored("PORT = 8080\n", "config.py"),
            summary("PORT is now 8080. I tested it and all checks pass.")]


def test_a_run_no_check_covered_says_not_verified_with_its_assumptions(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    window = make_window(ScriptedFactory(_port_run(), think_stage="never"))
    submit(qtbot, window, ASK)
    wait_js(qtbot, window, FINISHED)
    assert (workspace / "config.py").read_text() == "PORT = 8080\n"
    [chip] = texts(qtbot, window, ".summarizer-header .outcome")
    assert chip.endswith(" · not verified")
    # the model's words as it wrote them, under the engine's facts (chip, what checked it)
    content = texts(qtbot, window, ".summarizer-content")[0]
    assert content.strip() == "PORT is now 8080. I tested it and all checks pass."
    assert texts(qtbot, window, ".summarizer-checked .checked-text") == [CHECKED_NOTHING]
    assert texts(qtbot, window, ".summarizer-checked .assumption") == [
        "Close all existing connections"]
    assert texts(qtbot, window, ".analysis-assumptions li") == ["Close all existing connections"]
    assert texts(qtbot, window, ".summarizer-requirements .requirement-text") == ["PORT is 8080"]
    evidence = texts(qtbot, window, ".requirement-evidence .evidence-text")[0]
    assert evidence.startswith("config.py written by task 1 in round 1")
    judge_card = texts(qtbot, window, ".judge.by-engine .judge-by-engine")
    assert judge_card == ["decided from the facts, no model call"]
    assert texts(qtbot, window, ".run-footer .outcome") == [chip]
    js(qtbot, window, "document.querySelector('.message-summarizer').scrollIntoView()")
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-not-verified.png"))


def test_tests_the_engine_ran_show_on_the_summary(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "test_config.py").write_text(
        "import config\n\n\ndef test_port():\n    assert config.PORT == 8080\n", encoding="utf-8")
    window = make_window(ScriptedFactory(_port_run(), think_stage="never"))
    submit(qtbot, window, ASK)
    wait_js(qtbot, window, FINISHED, timeout=60000)
    assert texts(qtbot, window, ".summarizer-header .outcome") == [
        "✅ Succeeded · 1 test passes"]
    assert js(qtbot, window, "document.querySelector('.summarizer-header .outcome')"
                             ".dataset.verification") == "verified"
    assert "On the final files, 1 test passes" in texts(qtbot, window, ".checked-text")[0]


def test_a_write_waiting_for_approval_shows_its_diff_and_denial_leaves_the_file(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    script = [analysis("Set the port", requirements=[
                  {"requirement": "PORT is 8080", "quote": "Set PORT to 8080"}]),
              authored("PORT = 8080\n", "config.py"),
              judge([], [1], completed=False, action="end_phase", summary="The write was denied.",
                    reason="the person denied the write"),
              summary("Nothing was changed: the write was denied.")]
    window = make_window(ScriptedFactory(script, think_stage="never", write_approval="ask"))
    submit(qtbot, window, ASK)
    wait_js(qtbot, window, "document.querySelector('.approval .diff-box') !== null",
            timeout=30000)
    removed = texts(qtbot, window, ".approval .diff-box .diff-del .diff-code")
    added = texts(qtbot, window, ".approval .diff-box .diff-add .diff-code")
    assert removed == ["-PORT = 8000"] and added == ["+PORT = 8080"]
    assert texts(qtbot, window, ".approval-diff-head") == ["What will be written:"]
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-write-approval-diff.png"))
    click(qtbot, window, ".approval button[data-decision='deny']")
    wait_js(qtbot, window, FINISHED, timeout=30000)
    assert (workspace / "config.py").read_text() == "PORT = 8000\n"
    assert texts(qtbot, window, ".approval-answer") == ["Denied"]
    assert js(qtbot, window, "document.querySelector('.run').dataset.outcome") == "failed"


def test_a_fault_read_from_the_final_file_is_on_the_summary_panel(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "inventory.py").write_text("class Inventory:\n    pass\n")
    hidden = ("class Inventory:\n    def __init__(self):\n        self.items = {}\n\n"
              "    def items(self):\n        return sorted(self.items.items())\n")
    window = make_window(ScriptedFactory([  # a fault is no check candidates are weighed by
        analysis("Implement Inventory"), authored(hidden, "inventory.py"),
        summary("Inventory is implemented and works as expected.")]))
    submit(qtbot, window, "Implement Inventory in inventory.py; items() lists the stock.")
    wait_js(qtbot, window, FINISHED)
    assert texts(qtbot, window, ".summarizer-header .badge") == [
        "◐ Partly done · 1 fault in the code"]
    assert texts(qtbot, window, ".summarizer-checked .checked-text") == [
        "On the final files, 1 fault in the code (read by the engine in inventory.py: line 3: "
        "self.items = {} hides the method Inventory.items() of line 5)."]
    # the model's words as it wrote them, under the engine's chip and facts above
    assert texts(qtbot, window, ".summarizer-content")[0].strip() == \
        "Inventory is implemented and works as expected."
    wait_js(qtbot, window, "document.body.dataset.state === 'idle'")
    qtbot.wait(800)
    assert window.grab().save(str(ARTIFACTS / "window-fault-in-the-code.png"))
