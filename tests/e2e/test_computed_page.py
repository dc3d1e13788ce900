"""A data file computed by a program, in the real page: the task card's result shows the
program that worked the content out, and its diff shows what was written."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import click, js, settle, submit, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.support.script import analysis, authored, judge, plan, summary, task

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
COUNT = ("import os\n\ncount = 0\nfor root, dirs, files in os.walk('.'):\n"
         "    for name in files:\n"
         "        with open(os.path.join(root, name), encoding='utf-8') as handle:\n"
         "            count += sum('TODO' in line for line in handle)\n"
         "print(count)\n")


def test_the_card_of_a_computed_file_shows_the_program_and_the_diff(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    (workspace / "notes.md").write_text("- TODO: one\n- TODO: two\n", encoding="utf-8")
    (workspace / "config.py").write_text("PORT = 8000  # TODO: read it from the settings\n",
                                         encoding="utf-8")
    window = make_window(ScriptedFactory([
        analysis("Write the TODO count into todo_count.txt"),
        plan(task(1, "search_code", pattern="TODO"),
             task(2, "write_file", [1], path="todo_count.txt",
                  instruction="the number of lines containing TODO")),
        authored(COUNT),
        judge([1, 2]),
        summary("## Done\n\ntodo_count.txt holds 3, counted by a program.")]))
    window.resize(1200, 1100)
    submit(qtbot, window, "Count the lines containing TODO and write the number into "
                          "todo_count.txt")
    wait_js(qtbot, window, "document.querySelectorAll('.run-footer').length === 1",
            timeout=20000)
    assert (workspace / "todo_count.txt").read_text() == "3\n"
    card = "document.querySelectorAll('.task')[1]"
    result = js(qtbot, window, f"{card}.querySelector('.detail.outcome .detail-text')"
                               ".textContent")
    assert result.startswith("wrote todo_count.txt (2 bytes, created)\nComputed: the content "
                             "is what this program gave, run in a sandboxed copy of the "
                             "workspace:\n```python\nimport os\n")
    assert "count += sum('TODO' in line for line in handle)" in result
    assert js(qtbot, window, f"Array.from({card}.querySelectorAll('.diff-code'))"
                             ".map(c => c.textContent)") == ["@@ -0,0 +1 @@", "+3"]
    click(qtbot, window, ".task-head", 1)
    js(qtbot, window, f"(() => {{ {card}.scrollIntoView({{block: 'start'}}); return 1; }})()")
    settle(qtbot, window, ms=400, top=None)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-computed-file.png"))
