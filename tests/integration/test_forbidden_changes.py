"""A request that says not to change any file gets no write from either engine, and the
summary is written with the person's own words in view (question-function with the 1.5B
model: the analysis read the question as "raise the error in a file", the plan rewrote
bank.py, and the summary never named the function)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.script import (
    analysis, judge, one_file_workspace, plan, reading, run, summary, task)

BANK = ("class Account:\n    def withdraw(self, amount):\n        if amount < 0:\n"
        "            raise ValueError(\"negative amount\")\n")
ASK = ("Which function raises the error \"negative amount\"? Answer with the function's name "
       "in your summary. Do not change any file.")
REFUSED = ("not run: the request says not to change any file (\"Do not change any file\"); no "
           "file is changed in this run")
FORBID = reading("question", forbid=("*",), quotes={"*": "Do not change any file"})


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return one_file_workspace(tmp_path, "bank.py", BANK)


def test_the_phase_engine_refuses_the_write_and_the_summary_sees_the_question(ws: Path) -> None:
    events, model = run([
        analysis("To raise the error 'negative amount' in a file.", **FORBID),
        plan(task(1, "search_code", pattern="negative amount"),
             task(2, "write_file", path="bank.py", instruction="raise the error")),
        judge([1], [2], completed=False, action="end_phase", reason="the write was refused"),
        summary("## Answer\n\nwithdraw raises it."),
    ], ws, request=ASK)
    assert (ws / "bank.py").read_text() == BANK
    write = [e for e in events if e.kind == "task_finished" and e.tool == "write_file"][0]
    assert (write.status, write.error) == ("failed", REFUSED)
    stages = [e.stage for e in events if e.kind == "llm_call"]
    assert stages == ["request_analyser", "plan", "judge", "summarizer"]
    summarizer = model.requests[-1]["messages"]
    # the person's words, not the paraphrase too; a question's answer sees the files
    assert summarizer[1]["content"].startswith(f"The request:\n{ASK}\n\nThe workspace's "
                                               "files:\n\nbank.py\n```python\n")


def test_the_classic_loop_refuses_it_too(ws: Path) -> None:
    events, _ = run([
        analysis("Name the function", **FORBID),
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "bank.py", "instruction": "raise the error"}}]},
        {"text": "withdraw raises \"negative amount\"."},
    ], ws, request=ASK, use_phase_task=False)
    assert (ws / "bank.py").read_text() == BANK
    write = [e for e in events if e.kind == "task_finished"][0]
    assert (write.status, write.error) == ("failed", REFUSED)


def test_the_classic_loop_answers_a_question_with_the_files_in_view(ws: Path) -> None:
    """As the phase engine's summarizer does: the answer is never less informed than the
    model alone (on llama-server the loop answered question-version from a setup.cfg it made
    up, without reading one)."""
    _, model = run([analysis("Name the function", **FORBID),
                    {"text": "Account.withdraw raises \"negative amount\"."}], ws, request=ASK,
                   use_phase_task=False)
    first = model.requests[1]["messages"][1]["content"]
    assert first.startswith(ASK)
    assert f"The workspace's files:\n\nbank.py\n```python\n{BANK}```" in first
    _, model = run([analysis("Add a deposit method", **reading("change", change=("bank.py",))),
                    {"text": "Done."}], ws, request="Add a deposit method to bank.py.",
                   use_phase_task=False, author_files=False)
    assert "The workspace's files:" not in model.requests[1]["messages"][1]["content"]
