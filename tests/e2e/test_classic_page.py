"""The classic loop's runs as a person sees them: the engine's `draft` round that writes the
files the draft gives and the request names when the model's answer left them unwritten, and
a file the request asks for that is missing at the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import count, js, settle, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.support.script import analysis, authored, reading

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CALC = "def add_numbers(a, b):\n    return a + b\n"
MAIN = "from calc import add_numbers\n\nprint(add_numbers(2, 3))\n"
CALC_RENAMED = "def add(a, b):\n    return a + b\n"
MAIN_RENAMED = "from calc import add\n\nprint(add(2, 3))\n"


def test_the_draft_round_of_the_classic_loop_is_shown_and_the_rename_is_done(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "calc.py").write_text(CALC)
    (workspace / "main.py").write_text(MAIN)
    draft = f"calc.py\n```python\n{CALC_RENAMED}```\n\nmain.py\n```python\n{MAIN_RENAMED}```\n"
    window = make_window(ScriptedFactory([
        analysis("Rename add_numbers to add", **reading(
            "change", change=("calc.py", "main.py"), renames=(("add_numbers", "add"),),
            quotes={"add_numbers": "Rename the function add_numbers to add"})),
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "calc.py", "instruction": "rename add_numbers to add"}}]},
        {"text": draft},
        {"text": "calc.py now defines add."},
        {"text": "add_numbers is now add in calc.py and main.py."}], use_phase_task=False))
    submit(qtbot, window, "Rename the function add_numbers to add in calc.py and main.py.")
    wait_js(qtbot, window, FINISHED)
    assert (workspace / "main.py").read_text() == MAIN_RENAMED
    assert count(qtbot, window, ".plan") == 2
    assert texts(qtbot, window, ".plan-head .badge-mode") == ["draft"]
    assert texts(qtbot, window, ".plan-reasoning") == [
        "💡 The draft is the floor: the files it gives that the request names, which the "
        "answer left unwritten."]
    assert any("write main.py" in text for text in texts(qtbot, window, ".task"))
    chip = texts(qtbot, window, ".run-footer > *")[0]
    assert chip in ("✅ Succeeded · not verified", "⚪ Done · not verified")
    window.resize(1200, 1100)
    js(qtbot, window, "document.querySelector('.phase').scrollIntoView(), true")
    settle(qtbot, window, top=None)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-classic-draft-round.png"))


def test_a_requested_file_missing_at_the_end_is_on_the_summary_panel(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "sales.csv").write_text("region,amount\nnorth,120\n")
    window = make_window(ScriptedFactory([
        analysis("Total the amounts per region", **reading(
            "change", create=("totals.csv",), read=("sales.csv",))),
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "totals.py", "instruction": "sum the amounts per region"}}]},
        {"text": "A script can sum them."},
        authored("print('region,total')\n"),
        {"text": "totals.csv is written."}], use_phase_task=False))
    submit(qtbot, window, "Write totals.csv with the total amount of each region in sales.csv.")
    wait_js(qtbot, window, FINISHED)
    assert not (workspace / "totals.csv").exists()
    assert texts(qtbot, window, ".summarizer-header .badge") == [
        "◐ Partly done · 1 of 1 requested file is missing"]
    assert texts(qtbot, window, ".summarizer-checked .checked-text") == [
        "On the final files, 1 of 1 requested file is missing (totals.csv does not exist)."]
    # the request names totals.csv, which is missing: its requirement is not met, whatever
    # the model's last words say
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.requirement'))"
                             ".map(r => r.dataset.status)") == ["failed"]
    assert "totals.csv does not exist" in texts(qtbot, window, ".requirement-evidence")[0]
    wait_js(qtbot, window, "document.body.dataset.state === 'idle'")
    qtbot.wait(800)
    assert window.grab().save(str(ARTIFACTS / "window-requested-file-missing.png"))
