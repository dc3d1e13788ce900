"""A data file computed by a program, in the real page: the task card's result shows the
program that worked the content out, and its diff shows what was written. The run starts
with the one-shot draft, whose file's write is then offered as a program."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import click, js, settle, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.support.script import analysis, authored, summary

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
    factory = ScriptedFactory([
        analysis("Write the TODO count into todo_count.txt"),
        authored("2\n", "todo_count.txt", language="text"),  # the draft: a wrong guess
        authored(COUNT),
        summary("## Done\n\ntodo_count.txt holds 3, counted by a program.")])
    window = make_window(factory)
    window.resize(1200, 1100)
    submit(qtbot, window, "Count the lines containing TODO and write the number into "
                          "todo_count.txt")
    wait_js(qtbot, window, "document.querySelectorAll('.run-footer').length === 1",
            timeout=20000)
    assert (workspace / "todo_count.txt").read_text() == "3\n"
    card = "document.querySelectorAll('.task')[0]"
    result = js(qtbot, window, f"{card}.querySelector('.detail.outcome .detail-text')"
                               ".textContent")
    assert result.startswith("wrote todo_count.txt (2 bytes, created)\nThe draft: what the "
                             "model alone wrote for the request.\nComputed: the content "
                             "is what this program gave, run in a sandboxed copy of the "
                             "workspace:\n```python\nimport os\n")
    assert "count += sum('TODO' in line for line in handle)" in result
    assert js(qtbot, window, f"Array.from({card}.querySelectorAll('.diff-code'))"
                             ".map(c => c.textContent)") == ["@@ -0,0 +1 @@", "+3"]
    # The request asks for a change: the one-shot draft comes first (its wrong guess "2"
    # names todo_count.txt, so round 1 writes it, with no Plan call). The data file's write is then
    # offered as a program with the plain draft prompt: the person's words first, never the
    # goal; the clean write then settled the round without a judge.
    drafted, asked = [r["messages"][-1]["content"] for r in factory.models[0].requests
                      if not r["tools"]]
    assert drafted.startswith("Request:\nCount the lines containing TODO and write the "
                              "number into todo_count.txt\n\nThe project folder holds")
    assert "Python program" not in drafted and "[Goal]" not in drafted
    assert asked.startswith("Request:\nCount the lines containing TODO and write the number "
                            "into todo_count.txt\n\nThe project folder holds these files:")
    assert "\n\ntodo_count.txt does not exist yet." in asked  # after the workspace's files
    assert "reply with a Python program" in asked and "[Goal]" not in asked
    assert [c.stage for c in factory.last.of("llm_call")] == [
        "request_analyser", "author", "author", "summarizer"]
    assert texts(qtbot, window, ".judge .judge-summary") == [
        "Decided from the facts: todo_count.txt written; no check ran on it."]
    click(qtbot, window, ".task-head", 0)
    js(qtbot, window, f"(() => {{ {card}.scrollIntoView({{block: 'start'}}); return 1; }})()")
    settle(qtbot, window, ms=400, top=None)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "window-computed-file.png"))
