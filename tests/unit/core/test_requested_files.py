"""Which files a request tells the agent to write, read from the person's words without a
model, and which of them are missing (core/engine/verification/requested_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.verification.requested_files import MAX_FILES, files_to_write, missing


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
