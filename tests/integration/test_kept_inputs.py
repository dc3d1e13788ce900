"""A request whose only asked changes are new files reads the workspace's own files and must
not change them (json-pipeline on both runtimes: the draft wrote users.json back without one
of its users, and the one-shot reply did the same). The draft's block for such a file is not
taken, a later write of it is refused with the reason, and the requested file is written, in
both engines, with the scripted model."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.support.script import (
    analysis, files_workspace, judge, of, plan, reading, run, summary, task)

USERS = ('[\n  {"email": "mia@example.org", "active": true},\n'
         '  {"email": "ben@example.org", "active": false},\n'
         '  {"email": "ana@example.org", "active": true}\n]\n')
ASK = ("users.json holds a list of users. Write emails.txt with the email address of every "
       "user whose \"active\" field is true, one per line, sorted alphabetically.")
EMAILS = "ana@example.org\nmia@example.org\n"
READING = reading("change", create=("emails.txt",), read=("users.json",))
DRAFT = {"text": (
    "users.json\n```json\n[\n  {\"email\": \"mia@example.org\", \"active\": true},\n"
    "  {\"email\": \"ana@example.org\", \"active\": true}\n]\n```\n\n"
    f"emails.txt\n```text\n{EMAILS}```\n")}
KEPT = "the request asks for emails.txt to be written; users.json is a file it reads, and " \
    "stays as it is"
REFUSED = f"not run: {KEPT}"
NOTICE = f"The draft also rewrote users.json; not taken: {KEPT}."


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return files_workspace(tmp_path, {"users.json": USERS})


CHECK = ("import json\nfrom pathlib import Path\n\nHERE = Path(__file__).parent\n\n\n"
         "def test_emails_are_the_active_users():\n"
         "    users = json.loads((HERE / 'users.json').read_text())\n"
         "    wanted = sorted(u['email'] for u in users if u['active'])\n"
         "    assert (HERE / 'emails.txt').read_text().splitlines() == wanted\n")


def test_the_phase_engine_writes_the_output_and_keeps_its_input(ws: Path) -> None:
    (ws / "test_emails.py").write_text(CHECK, encoding="utf-8")  # what checks the run
    tests = f"{shlex.quote(sys.executable)} -m pytest -q test_emails.py"  # on a text file too
    events, _ = run([
        analysis("Write emails.txt", **READING),
        DRAFT,
        summary("emails.txt lists the active users."),
    ], ws, request=ASK, assists_off="computed_files", test_command=tests)
    assert (ws / "users.json").read_text() == USERS
    assert (ws / "emails.txt").read_text() == EMAILS
    assert NOTICE in [n.message for n in of(events, "notice")]
    assert [e.path for e in of(events, "file_changed")] == ["emails.txt"]
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("succeeded", "verified")


def test_a_planned_write_of_the_input_is_refused_with_the_reason(ws: Path) -> None:
    events, _ = run([
        analysis("Write emails.txt", **READING),
        {"text": "I cannot write the files."},  # the draft gives no file: the round is planned
        plan(task(1, "write_file", path="users.json", instruction="keep only active users"),
             task(2, "write_file", path="emails.txt", content=EMAILS)),
        judge([2], [1], summary="emails.txt is written; users.json was not changed."),
        summary("emails.txt lists the active users."),
    ], ws, request=ASK, assists_off="computed_files")
    assert (ws / "users.json").read_text() == USERS
    assert (ws / "emails.txt").read_text() == EMAILS
    finished = {e.task_id: e for e in of(events, "task_finished")}
    assert (finished[1].status, finished[1].error) == ("failed", REFUSED)
    assert finished[2].status == "done"


def test_the_classic_loop_is_refused_too_and_may_rewrite_its_output(ws: Path) -> None:
    events, _ = run([
        analysis("Write emails.txt", **READING),
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "users.json", "content": "[]\n"}}]},
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "emails.txt", "content": "mia@example.org\n"}}]},
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "emails.txt", "content": EMAILS}}]},
        {"text": "emails.txt lists the active users."},
    ], ws, request=ASK, use_phase_task=False, author_files=False)
    assert (ws / "users.json").read_text() == USERS
    assert (ws / "emails.txt").read_text() == EMAILS
    finished = of(events, "task_finished")
    assert [(e.status, e.error) for e in finished] == [
        ("failed", REFUSED), ("done", ""), ("done", "")]


def test_a_request_that_also_changes_a_file_keeps_nothing(ws: Path) -> None:
    ask = "Write emails.txt with the active users' emails, then update users.json to drop Ben."
    events, _ = run([
        analysis("Write emails.txt and drop Ben",
                 **reading("change", change=("users.json",), create=("emails.txt",))),
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "users.json", "content": "[]\n", "overwrite": True}}]},
        {"text": "Done."},
    ], ws, request=ask, use_phase_task=False, author_files=False)
    assert (ws / "users.json").read_text() == "[]\n"
    assert of(events, "task_finished")[0].status == "done"


def test_a_question_about_the_data_keeps_every_data_file(tmp_path: Path) -> None:
    """largest-file on the embedded runtime: the draft rewrote four of the data files the
    request asks to measure, and the report then named the wrong one."""
    ws = files_workspace(tmp_path, {"data/alpha.txt": "a" * 1200, "data/beta.txt": "b" * 300})
    ask = ("Which file in the data folder is the largest (in bytes)? Write a report.txt in the "
           "workspace root with two lines: the file's name, then its size in bytes.")
    draft = {"text": "data/alpha.txt\n```text\nshort\n```\n\nreport.txt\n```text\n"
                     "alpha.txt\n1200\n```\n"}
    read = reading("both", create=("report.txt",), read=("data",),
                   quotes={"data": "the data folder"})
    events, _ = run([analysis("Write report.txt", **read), draft,
                     summary("alpha.txt is the largest.")],
                    ws, request=ask, assists_off="computed_files")
    assert (ws / "data" / "alpha.txt").read_text() == "a" * 1200
    assert (ws / "report.txt").read_text() == "alpha.txt\n1200\n"
    assert ("The draft also rewrote data/alpha.txt; not taken: the request asks for report.txt "
            "to be written; data/alpha.txt is a file it reads, and stays as it is.") in [
        n.message for n in of(events, "notice")]
