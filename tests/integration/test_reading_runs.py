"""Runs that follow the request's reading: the model reads the request, in any language, the
engine keeps only what it can check, and the draft is a second witness (scripted model)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.mcp_servers import time_server
from tests.support.script import analysis, authored, files_workspace, judge, of, plan, reading, \
    run, summary, task

STUB = "def add(a, b):\n    raise NotImplementedError\n"
DONE = "def add(a, b):\n    return a + b\n"
TESTS = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


@pytest.mark.parametrize("request_text, quote", [
    ("Ajoute une fonction add(a, b) à calc.py qui renvoie la somme.", "Ajoute une fonction"),
    ("Füge calc.py eine Funktion add(a, b) hinzu, die die Summe zurückgibt.", "Füge calc.py"),
    ("calc.pyに和を返す関数add(a, b)を追加して。", "calc.pyに和を返す関数"),
    ("在calc.py中添加函数add(a,b)，返回两数之和。", "在calc.py中添加函数"),
])
def test_a_change_request_in_another_language_gets_a_draft_and_is_verified(
        tmp_path: Path, request_text: str, quote: str) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB, "test_calc.py": TESTS})
    events, model = run([
        analysis("Add add to calc.py", **reading("change", change=("calc.py",),
                                                  quotes={"calc.py": quote})),
        authored(DONE, "calc.py"),
        summary(f"`add`: {request_text}"),  # in the request's language: nothing to translate
    ], ws, request=request_text)
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author",
                                                        "summarizer"]
    assert (ws / "calc.py").read_text() == DONE
    assert of(events, "request_analysed")[0].reading["change"] == ["calc.py"]
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("succeeded", "verified")


def test_without_a_reading_the_draft_decides_that_the_request_is_a_change(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB, "test_calc.py": TESTS})
    events, _ = run([analysis("Add add"), authored(DONE, "calc.py"), summary("已完成。")], ws,
                    request="在calc.py中添加函数add(a,b)，返回两数之和。")
    assert (ws / "calc.py").read_text() == DONE
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_a_prose_draft_makes_the_run_an_answer_whatever_the_reading_said(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"setup.cfg": "[metadata]\nversion = 2.7.1\n"})
    events, model = run([
        analysis("Report the version", **reading("change")),  # read as a change
        {"text": "The version is `2.7.1`, declared in setup.cfg."},  # the draft answers
        plan(task(1, "read_file", path="setup.cfg")),
        judge([1]),
        summary("The version is `2.7.1` (setup.cfg, `version = 2.7.1`)."),
    ], ws, request="Which version does setup.cfg declare?")
    notices = [n.message for n in of(events, "notice")]
    assert any("treats the request as a question" in n for n in notices)
    assert not of(events, "file_changed")
    summarizer = model.requests[-1]["messages"][-1]["content"]
    assert "A first answer, written from the files alone:" in summarizer
    finished = of(events, "run_finished")[0]
    assert finished.outcome == "succeeded"  # the answer cites setup.cfg's line
    assert of(events, "summary")[0].verification_line == "the answer cites setup.cfg, line 2"


def test_an_answer_that_cites_nothing_the_run_read_is_not_verified(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"setup.cfg": "[metadata]\nversion = 2.7.1\n"})
    events, _ = run([
        analysis("Report the version", **reading("question")),
        {"text": "It is probably 1.0."},
        plan(task(1, "read_file", path="setup.cfg")),
        judge([1]),
        summary("The version is probably `1.0`."),
    ], ws, request="Which version does setup.cfg declare?")
    assert of(events, "run_finished")[0].outcome == "unverified"
    summary_event = of(events, "summary")[0]
    assert "The answer cites no line of a file the run read." in \
        summary_event.verification_sentences


def test_items_the_request_and_workspace_do_not_bear_out_are_dropped(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB, "notes.txt": "keep\n"})
    ask = "Implement add in calc.py; add(2, 3) gives 5."
    events, _ = run([
        analysis("Implement add", **reading(
            "change", change=("calc.py",), read=("notes.txt",),
            examples=("add(2, 3) == 5", "add(7, 7) == 14", "mul(2, 3) == 6"),
            renames=(("subtract", "sub"),),
            quotes={"notes.txt": "only read notes.txt"})),  # not the request's words
        authored(DONE, "calc.py"),
        summary("add is implemented."),
    ], ws, request=ask)
    dropped = [n.message for n in of(events, "notice") if "Left out of the reading" in n.message]
    assert len(dropped) == 1
    assert "notes.txt (read): its quote \"only read notes.txt\" is not in the request" \
        in dropped[0]
    assert "example `add(7, 7) == 14`: 7 is not in the request or the file" in dropped[0]
    assert "example `mul(2, 3) == 6`: mul is not defined" in dropped[0]
    assert "rename subtract → sub: the workspace does not use subtract" in dropped[0]
    kept = of(events, "request_analysed")[0].reading
    assert kept["examples"] == ["add(2, 3) == 5"] and kept["read"] == [] and kept["renames"] == []
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification_line) == (
        "succeeded", "1 check of the request's examples passes")


def test_files_the_request_says_not_to_touch_are_never_written_by_the_draft(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB, "test_calc.py": TESTS})
    ask = "Implement add in calc.py so the tests pass. Do not change the tests."
    events, _ = run([
        analysis("Implement add", **reading("change", change=("calc.py",),
                                             forbid=("test_calc.py",),
                                             quotes={"test_calc.py": "Do not change the tests"})),
        {"text": "calc.py\n```python\n" + DONE + "```\n\ntest_calc.py\n```python\n"
                 "def test_nothing():\n    pass\n```\n"},
        summary("Done."),
    ], ws, request=ask)
    assert (ws / "test_calc.py").read_text() == TESTS
    assert (ws / "calc.py").read_text() == DONE
    notices = [n.message for n in of(events, "notice")]
    assert any("test_calc.py" in n and "not to change" in n for n in notices)
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_a_tool_the_request_needs_runs_before_the_file_is_written(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"README.md": "# notes\n"})
    ask = "Use the time tool to get the current time in UTC and write it to report.md"
    events, model = run([
        analysis("Write the UTC time", **reading(
            "change", create=("report.md",), tools=("time__get_current_time",),
            quotes={"time__get_current_time": "Use the time tool"})),
        plan(task(1, "time__get_current_time", timezone="UTC"),
             task(2, "write_file", path="report.md", instruction="the time the tool gave")),
        authored("# Report\n\nThe time in UTC was taken from the time tool.\n", "report.md",
                 language="markdown"),
        judge([1, 2]),
        summary("report.md holds the UTC time."),
    ], ws, request=ask, mcp_servers=(time_server(),))
    stages = [c.stage for c in of(events, "llm_call")]
    assert stages[:3] == ["request_analyser", "plan", "author"]  # no tool-less draft first
    finished = [(t.tool, t.status) for t in of(events, "task_finished")]
    assert finished == [("time__get_current_time", "done"), ("write_file", "done")]
    write = model.requests[2]["messages"][-1]["content"]
    assert '"timezone": "UTC"' in write  # the write saw the tool's result
    assert (ws / "report.md").exists()


def test_a_plan_that_writes_before_the_needed_tool_runs_is_not_run(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"README.md": "# notes\n"})
    ask = "Use the time tool to get the current time in UTC and write it to report.md"
    events, _ = run([
        analysis("Write the UTC time", **reading(
            "change", create=("report.md",), tools=("time__get_current_time",),
            quotes={"time__get_current_time": "Use the time tool"})),
        plan(task(1, "write_file", path="report.md", instruction="an invented time")),
        plan(task(1, "time__get_current_time", timezone="UTC")),
        judge([1], completed=False, action="continue_phase"),
        summary("Stopped."),
    ], ws, request=ask, mcp_servers=(time_server(),), max_rounds_per_phase=2)
    notices = [n.message for n in of(events, "notice")]
    assert any("needs time__get_current_time run before anything is written" in n
               for n in notices)
    assert [t.tool for t in of(events, "task_finished")][0] == "time__get_current_time"
    assert not (ws / "report.md").exists()


def test_a_plan_that_twice_writes_without_the_needed_tool_has_its_writes_run(
        tmp_path: Path) -> None:
    """The embedded model's reading of the suite's ex-date-math in Japanese said the request
    needs run_command first (its quote the request's first sentence), and every plan wrote
    dates.py without running it: four rounds held, nothing written, where the model alone
    wrote a file passing half the tests. The second such plan now runs, its write the draft."""
    ws = files_workspace(tmp_path, {"calc.py": STUB, "test_calc.py": TESTS})
    ask = "calc.pyにadd(a, b)を実装して、和を返してください。"
    events, model = run([
        analysis("Implement add", **reading(
            "change", change=("calc.py",), tools=("time__get_current_time",),
            quotes={"calc.py": "calc.pyにadd(a, b)を実装して",
                    "time__get_current_time": "calc.pyにadd(a, b)を実装して"})),
        plan(task(1, "write_file", path="calc.py", instruction="implement add")),
        plan(task(1, "write_file", path="calc.py", instruction="implement add")),
        authored(DONE, "calc.py"),
        judge([1]),
        summary("`add`をcalc.pyに実装しました。"),
    ], ws, request=ask, mcp_servers=(time_server(),), max_rounds_per_phase=4)
    assert model.remaining == 0
    notices = [n.message for n in of(events, "notice")]
    assert sum("needs time__get_current_time run before anything is written" in n
               for n in notices) == 1
    assert any("round 2: the plan wrote without running time__get_current_time 2 times" in n
               and "its writes run now, without its result" in n for n in notices)
    assert [(t.tool, t.status) for t in of(events, "task_finished")] == [("write_file", "done")]
    assert (ws / "calc.py").read_text() == DONE
    written = of(events, "task_finished")[0].result
    assert "The draft: what the model alone wrote for the request." in written
    assert of(events, "run_finished")[0].outcome == "succeeded"

