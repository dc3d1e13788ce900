"""Which files a request tells the agent to write, read from the person's words without a
model, and which of them are missing (core/engine/verification/requested_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.execution.kept_inputs import KeptInputs
from core.engine.verification.requested_files import MAX_FILES, files_to_write, missing, \
    outputs_only, read_only, reads_workspace
from core.tools.base import RunState
from core.tools.checkpoint import Checkpoint
from core.tools.paths import resolve


@pytest.mark.parametrize(("text", "files"), [
    ("sales.csv lists sales. Write totals.csv with the header \"region,total\".",
     ("totals.csv",)),
    ("Count the lines containing TODO and write just that number into todo_count.txt.",
     ("todo_count.txt",)),
    ("Which file is the largest? Write a report.txt in the workspace root.", ("report.txt",)),
    ("Run the command \"python make_token.py\" and write the token into token.txt.",
     ("token.txt",)),
    ("Add is_prime to mathtools.py. Also create test_mathtools.py with tests.",
     ("test_mathtools.py",)),
    ("Write the result to result.txt; then create docs/usage.md.",
     ("result.txt", "docs/usage.md")),
    ("Please generate out.json, and write out.json again.", ("out.json",)),
    ("请生成 report.md，列出所有文件。", ("report.md",)),
])
def test_a_file_the_agent_is_told_to_write_is_read(tmp_path: Path, text: str,
                                                   files: tuple[str, ...]) -> None:
    (tmp_path / "mathtools.py").write_text("")
    (tmp_path / "make_token.py").write_text("")
    assert files_to_write(text, tmp_path) == files


@pytest.mark.parametrize("text", [
    "Make the app write its log to app.log.",  # the app writes it, not the agent
    "Do not create notes.md.",
    "Fix the crash when output.log is missing.",  # "output" is the file's name
    "Use str.split to turn the text into words.",
    "Write the numbers into data.csv.",  # data.csv exists: it is changed, not written
    "Write the summary to ../outside.txt.",
    "Write the logo into logo.png.",  # not a text file
    "The tool writes totals.csv when it runs.",
])
def test_no_file_is_read_where_the_agent_is_not_told_to_write_a_new_one(
        tmp_path: Path, text: str) -> None:
    (tmp_path / "data.csv").write_text("1\n")
    assert files_to_write(text, tmp_path) == ()


def test_the_files_are_bounded(tmp_path: Path) -> None:
    text = "Write " + ", ".join(f"f{n}.txt" for n in range(MAX_FILES + 5)) + "."
    assert len(files_to_write(text, tmp_path)) == MAX_FILES


def test_missing_names_the_files_that_are_not_there(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a")
    (tmp_path / "docs").mkdir()
    assert missing(tmp_path, ("a.txt", "b.txt", "docs")) == ["b.txt", "docs"]


@pytest.mark.parametrize("text, outputs, inputs", [
    ("users.json holds a list of users. Write emails.txt with the email address of every "
     "active user, sorted alphabetically.", ("emails.txt",), ("users.json",)),
    ("Count the lines containing TODO in all files of this workspace and write just that "
     "number into todo_count.txt.", ("todo_count.txt",), ()),
    ("Run the command \"python make_token.py\" and write the token it prints into token.txt.",
     ("token.txt",), ("make_token.py",)),
    ("Read config.json and write a summary to notes.md.", ("notes.md",), ("config.json",)),
    ("Write a test file test_calc.py for calc.py.", ("test_calc.py",), ()),
    # a sentence that may ask a change in words no list holds keeps its files free
    ("Set the port to 8080 in config.py, then write the changelog NOTES.md.", ("NOTES.md",),
     ()),
    # any other change asked: nothing is only read
    ("config.json has port 8000; change it to 8080 and write CHANGES.md noting it.", (), ()),
    ("Write notes.md, then update config.json.", (), ()),
    ("Implement add in calc.py and write tests in test_calc.py.", (), ()),
    ("Create a module settings.py that defines TAX_RATE and change calc.py to import it.", (),
     ()),
    ("Rename the setting port to listen_port in config.json.", (), ()),  # no new file
])
def test_a_request_that_only_writes_new_files_reads_the_files_it_names(
        tmp_path: Path, text: str, outputs: tuple[str, ...], inputs: tuple[str, ...]) -> None:
    for name in ("users.json", "config.json", "config.py", "calc.py", "make_token.py"):
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    assert outputs_only(text, tmp_path) == outputs
    assert read_only(text, tmp_path, outputs) == inputs


def test_kept_inputs_refuse_writes_of_the_files_read_only(tmp_path: Path) -> None:
    (tmp_path / "users.json").write_text("[]\n", encoding="utf-8")
    inputs = KeptInputs(RunState(workspace=tmp_path, run_id="kept-inputs-test"))
    assert not inputs.kept("users.json")  # nothing known: nothing is kept
    inputs.outputs, inputs.files = ("emails.txt",), ("users.json",)
    assert inputs.kept("users.json") and inputs.kept("./users.json")
    assert not inputs.kept("emails.txt") and not inputs.kept("../escape.json")
    assert inputs.refused({"emails.txt", "users.json"}) == (
        "not run: the request asks only for emails.txt to be written; users.json is a file "
        "it reads, and stays as it is")
    assert inputs.refused({"emails.txt"}) == ""


@pytest.mark.parametrize("text, every", [
    ("Which file in the data folder is the largest (in bytes)? Write a report.txt in the "
     "workspace root with two lines.", True),
    ("users.json holds a list of users. Write emails.txt with the active users' emails.", True),
    ("Count the lines containing TODO in all files and write that number into todo.txt.", True),
    ("Read config.json and write a summary to notes.md.", True),
    # a sentence that opens otherwise may ask a change in words no list holds
    ("sales.csv lists sales. Write totals.csv with the sums. Amounts are whole numbers.", False),
    ("Set the port to 8080 in config.py, then write the changelog NOTES.md.", False),
    ("Write notes.md. Then tidy up calc.py.", False),
    ("config.json has port 8000; change it to 8080 and write CHANGES.md noting it.", False),
])
def test_a_request_that_only_asks_and_reads_keeps_the_whole_workspace(
        tmp_path: Path, text: str, every: bool) -> None:
    for name in ("users.json", "config.json", "config.py", "calc.py", "sales.csv"):
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    assert reads_workspace(text, outputs_only(text, tmp_path)) is every


def test_with_the_whole_workspace_kept_only_the_runs_own_files_may_change(
        tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "alpha.txt").write_text("a\n", encoding="utf-8")
    run = RunState(workspace=tmp_path, run_id="kept-inputs-every")
    inputs = KeptInputs(run)
    inputs.outputs, inputs.every = ("report.txt",), True
    assert inputs.kept("data/alpha.txt")
    assert not inputs.kept("report.txt") and not inputs.kept("data/new.txt")
    checkpoint = Checkpoint.of(run)
    checkpoint.before_write(resolve(tmp_path, "helper.py"))  # created by the run
    (tmp_path / "helper.py").write_text("print(1)\n", encoding="utf-8")
    assert not inputs.kept("helper.py")
