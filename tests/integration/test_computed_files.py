"""A data file whose content must be worked out from the workspace (a count, sums, a sorted
list) may be written by a program: the authoring reply gives a ```python block that prints
the content, the engine runs it in a sandboxed copy of the workspace and writes what it
printed (count-todos with the 1.5B model: its search listed 6 TODO lines, and the file it
wrote said 0).

The first round of such a request is the draft's write: the one-shot reply guesses the file
(``GUESS``), and since the data file may be computed, the write asks for it alone with the
offer of a program (the guess is not what is written). Without a sandbox there is no offer:
the one-shot reply's file is written as it stands."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.events import FileChanged, TaskFinished
from core.tools import sandbox
from tests.support.script import (
    analysis, authored, judge, of, plan, reading, run, summary, task)

COUNT = ("import os\n\ncount = 0\nfor root, dirs, files in os.walk('.'):\n"
         "    for name in files:\n"
         "        with open(os.path.join(root, name), encoding='utf-8') as handle:\n"
         "            count += sum('TODO' in line for line in handle)\n"
         "print(count)\n")
ASK = "Count the lines containing TODO in all files and write just that number into count.txt."
GUESS = authored("0\n", "count.txt", language="text")  # the one-shot reply's guess
WRITE_COUNT = analysis("Write the TODO count into count.txt",
                       **reading("change", create=("count.txt",)))


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "app.py").write_text("# TODO: one\nx = 1  # TODO: two\n")
    (folder / "notes.md").write_text("- TODO: three\n- done\n")
    return folder


def write_run(ws: Path, reply: dict, *, more: list | None = None, **settings: object):
    """The draft's round: the one-shot reply's guess, then count.txt asked for alone
    (``reply``)."""
    return run([
        WRITE_COUNT,
        GUESS,
        reply,
        *(more or [summary("## Done\n\ncount.txt holds the count.")]),
    ], ws, request=ASK, **settings)


def finished_write(events: list) -> TaskFinished:
    return [e for e in events if isinstance(e, TaskFinished) and e.tool == "write_file"][0]


def test_the_program_the_reply_gives_computes_the_file(ws: Path) -> None:
    events, model = write_run(ws, authored(COUNT, "count.txt"))
    assert (ws / "count.txt").read_text() == "3\n"
    write = finished_write(events)
    assert write.status == "done"
    assert "Computed: the content is what this program gave" in write.result
    assert "os.walk('.')" in write.result  # the person and the judge see how it was worked out
    assert [c.stage for c in of(events, "llm_call")] == [
        "request_analyser", "author", "author", "summarizer"]
    prompt = model.requests[2]["messages"][-1]["content"]  # the draft: the person's words
    assert prompt.startswith(f"Request:\n{ASK}\n\nThe project folder holds these files:\n\n")
    assert "\n\ncount.txt does not exist yet.\n\n" in prompt  # the draft sees the workspace
    assert "reply with a Python program in one ```python block" in prompt
    assert prompt.rstrip().endswith("Otherwise reply with the complete new content of "
                                    "count.txt in one fenced code block (```).")
    changed = [e for e in events if isinstance(e, FileChanged)]
    assert [e.path for e in changed] == ["count.txt"] and "+3" in changed[0].diff
    assert events[-1].outcome == "unverified"  # finished; no test or example checks a count


def test_a_program_that_writes_the_file_itself_gives_what_it_wrote(ws: Path) -> None:
    """The 1.5B Qwen's reply for count-todos, asked to print the count: it wrote the count
    into the file (run off the workspace, its file is what the engine writes)."""
    qwen = ("import os\n\n# Define the path to the workspace\nworkspace_path = os.getcwd()\n\n"
            "todo_count = 0\n\nfor root, dirs, files in os.walk(workspace_path):\n"
            "    for file in files:\n        file_path = os.path.join(root, file)\n"
            "        with open(file_path, 'r') as f:\n            for line in f:\n"
            "                if 'TODO' in line:\n                    todo_count += 1\n\n"
            "# Write the count to count.txt\nwith open('count.txt', 'w') as f:\n"
            "    f.write(str(todo_count))\n")
    events, _ = write_run(ws, {"text": f"```python\n{qwen}```"})
    assert (ws / "count.txt").read_text() == "3"
    assert "Computed" in finished_write(events).result


def test_the_program_runs_off_the_workspace(ws: Path) -> None:
    vandal = ("import os, pathlib\npathlib.Path('notes.md').write_text('gone')\n"
              "os.remove('src/app.py')\nprint(2)\n")
    events, _ = write_run(ws, authored(vandal, "count.txt"))
    assert (ws / "notes.md").read_text() == "- TODO: three\n- done\n"
    assert (ws / "src" / "app.py").is_file()
    assert (ws / "count.txt").read_text() == "2\n"
    assert finished_write(events).status == "done"


def test_a_program_that_fails_writes_nothing_and_the_next_try_is_told_why(ws: Path) -> None:
    broken = "print(open('missing.txt').read())\n"
    events, model = write_run(ws, authored(broken, "count.txt"), more=[
        judge([], [1], completed=False, action="retry_failed", reason="count.txt failed"),
        plan(task(2, "write_file", path="count.txt", instruction="the number of TODO lines")),
        authored("3\n", "count.txt", language="text"),
        summary("## Done\n\ncount.txt holds 3."),
    ])
    first = finished_write(events)
    assert first.status == "failed"
    assert "the program failed (exit code 1)" in first.error
    assert "FileNotFoundError" in first.error and "missing.txt" in first.error
    assert (ws / "count.txt").read_text() == "3\n"  # the second try's plain content
    retry = [r for r in model.requests if "the number of TODO lines" in
             str(r["messages"][-1]["content"]) and r["tools"] == []][-1]
    assert "An earlier try at count.txt failed: the program failed" in \
        retry["messages"][-1]["content"]


@pytest.mark.parametrize("reply, expected", [
    # a data file's content tagged as Python that prints nothing is content, not a program
    (authored("3\n", "count.txt"), "3\n"),
    (authored("3\n", "count.txt", language="text"), "3\n"),
])
def test_content_that_is_not_a_program_is_written_as_it_stands(
        ws: Path, reply: dict, expected: str) -> None:
    events, _ = write_run(ws, reply)
    assert (ws / "count.txt").read_text() == expected
    assert "Computed" not in finished_write(events).result


def test_a_python_file_is_never_computed(ws: Path) -> None:
    """A .py file's block is the file: printing code is what the file does, not its
    content, and the prompt offers no program."""
    events, model = run([
        analysis("Write a script that prints the count",
                 **reading("change", create=("count.py",))),
        authored(COUNT, "count.py"),  # the one-shot draft: written as it stands
        summary("## Done\n\ncount.py prints the count."),
    ], ws, request="Write count.py that prints the number of TODO lines")
    assert (ws / "count.py").read_text() == COUNT
    assert "program" not in model.requests[1]["messages"][-1]["content"]
    assert [c.stage for c in of(events, "llm_call")] == [
        "request_analyser", "author", "summarizer"]  # no second call offering a program
    assert "Computed" not in finished_write(events).result


def test_without_a_sandbox_no_program_is_offered_or_run(
        ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "availability", lambda: sandbox.Availability(
        False, reason="bwrap was not found"))
    events, model = run([
        WRITE_COUNT,
        authored(COUNT, "count.txt"),  # the one-shot draft: no file is asked for alone
        summary("## Done\n\ncount.txt holds the count."),
    ], ws, request=ASK)
    assert "program" not in model.requests[1]["messages"][-1]["content"]
    assert [c.stage for c in of(events, "llm_call")] == [
        "request_analyser", "author", "summarizer"]
    assert (ws / "count.txt").read_text() == COUNT  # as the reply gave it: nothing ran
    assert "Computed" not in finished_write(events).result


def test_the_classic_loop_computes_a_data_file_the_same_way(ws: Path) -> None:
    events, _ = run([
        WRITE_COUNT,
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "count.txt", "instruction": "the number of lines containing TODO"}}]},
        authored(COUNT, "count.txt"),
        {"text": "count.txt holds the count of TODO lines."},
    ], ws, request=ASK, use_phase_task=False)
    assert (ws / "count.txt").read_text() == "3\n"
    assert "Computed" in finished_write(events).result
