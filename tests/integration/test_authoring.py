"""Code written as code: a write task carries an instruction, Execute asks the model for the
file in a separate plain-text call, and the engine writes what the fenced block holds —
through both engines, with the scripted model."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.events import LlmCall, TaskFinished
from tests.support.script import (
    analysis, authored, judge, kinds, one_file_workspace, plan, run, summary, task, think)

STUB = "def slugify(text):\n    raise NotImplementedError\n\n\ndef words(text):\n    return text.split()\n"
SOLVED = ("import re\n\n\ndef slugify(text):\n    return re.sub(r'[^a-z0-9]+', '-', "
          "text.lower()).strip('-')\n\n\ndef words(text):\n    return text.split()\n")
ASK = "Implement slugify(text): lower case, runs of other characters become one dash."


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return one_file_workspace(tmp_path, "textutils.py", STUB)


def of(events: list, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def test_the_plan_names_the_file_and_the_authoring_call_writes_it(ws: Path) -> None:
    events, model = run([
        analysis("Implement slugify in textutils.py"),
        plan(task(1, "read_file", path="textutils.py"),
             task(2, "write_file", [1], path="textutils.py", instruction=ASK)),
        authored(SOLVED, "textutils.py"),
        judge([1, 2]),
        summary("## Done\n\nslugify is implemented in textutils.py."),
    ], ws, request="Implement slugify in textutils.py")
    assert (ws / "textutils.py").read_text() == SOLVED
    write = [e for e in of(events, "task_finished") if e.tool == "write_file"][0]
    assert write.status == "done" and "textutils.py parses" in write.result
    call = model.requests[2]
    assert call["tools"] == [] and call["tool_choice"] is None
    assert call["temperature"] == 0.0 and call["max_tokens"] >= 800
    prompt = call["messages"][-1]["content"]
    assert ASK in prompt and "[Goal] Implement slugify in textutils.py" in prompt
    # the person's words, then the structured request whose goal (here the same words) the one
    # phase shares: no "Current goal" repeats it; the complexity estimate plans nothing
    assert prompt.startswith("The person asked:\nImplement slugify in textutils.py\n\n")
    assert prompt.count("Implement slugify in textutils.py") == 2
    assert "Current goal" not in prompt and "[Complexity]" not in prompt
    assert STUB in prompt  # the file as it is now
    assert "def words(text)" in prompt.split("Results this task builds on:")[1]  # the read
    assert [e.stage for e in of(events, "llm_call")].count("author") == 1
    stages = [e for e in of(events, "stage_started") if e.stage == "author"]
    assert stages[0].detail == "textutils.py"
    plan_schema = model.requests[1]["tools"][0]["function"]["parameters"]
    branches = {b["properties"]["tool"]["enum"][0]: b for b in
                plan_schema["properties"]["tasks"]["items"]["anyOf"]}
    assert set(branches["write_file"]["properties"]["arguments"]["properties"]) == {
        "path", "instruction"}
    assert "edit_file" not in branches
    assert events[-1].outcome == "succeeded"


def test_a_reply_without_a_block_fails_the_task_and_the_next_try_is_told_why(ws: Path) -> None:
    write = task(1, "write_file", path="textutils.py", instruction=ASK)
    events, model = run([
        analysis("Implement slugify in textutils.py"),
        plan(write),
        {"text": "Sure! I would use re.sub to replace the characters."},
        judge([], [1], completed=False, action="retry_failed", reason="nothing was written"),
        plan(task(1, "write_file", path="textutils.py", instruction=ASK + " Reply in a block.")),
        authored(SOLVED),
        judge([1]),
        summary("## Done\n\nslugify is implemented."),
    ], ws, request="Implement slugify in textutils.py")
    finished = [e for e in of(events, "task_finished") if e.tool == "write_file"]
    assert [e.status for e in finished] == ["failed", "done"]
    assert "no fenced code block" in finished[0].error
    retry_prompt = model.requests[5]["messages"][-1]["content"]
    assert "An earlier try at textutils.py failed: the reply has no fenced code block" \
        in retry_prompt
    assert (ws / "textutils.py").read_text() == SOLVED


def test_python_that_does_not_parse_is_never_reported_done(ws: Path) -> None:
    events, _ = run([
        analysis("Implement slugify in textutils.py"),
        plan(task(1, "write_file", path="textutils.py", instruction=ASK)),
        authored("def slugify(text):\n    return text.lower(\n"),
        authored("def slugify(text):\n    return text.lower(\n"),  # the second try too
        judge([1]),  # the judge calls it done; the record says otherwise
        summary("## Done\n\nslugify is implemented."),
    ], ws, request="Implement slugify in textutils.py", max_rounds_per_phase=1)
    write = of(events, "task_finished")[0]
    assert write.status == "failed" and "not valid Python" in write.error
    assert "line 2" in write.error
    assert (ws / "textutils.py").read_text() == STUB
    assert events[-1].outcome != "succeeded"


def test_a_long_file_is_changed_with_search_replace_blocks(ws: Path) -> None:
    body = "".join(f"def f{n}():\n    return {n}\n\n\n" for n in range(800))
    (ws / "big.py").write_text(body, encoding="utf-8")
    reply = {"text": "big.py\n<<<<<<< SEARCH\ndef f7():\n    return 7\n=======\ndef f7():\n"
                     "    return 'seven'\n>>>>>>> REPLACE\n"}
    events, model = run([
        analysis("Make f7 return 'seven'"),
        plan(task(1, "write_file", path="big.py", instruction="f7 returns 'seven'")),
        reply, judge([1]), summary("## Done\n\nf7 returns 'seven' now."),
    ], ws, request="Make f7 in big.py return 'seven'")
    assert of(events, "task_finished")[0].status == "done"
    assert (ws / "big.py").read_text() == body.replace("return 7\n", "return 'seven'\n", 1)
    prompt = model.requests[2]["messages"][-1]["content"]
    assert "<<<<<<< SEARCH" in prompt and "big.py is long" in prompt


def test_the_classic_loop_writes_through_the_same_authoring_step(ws: Path) -> None:
    events, model = run([
        {"tool_calls": [{"tool": "read_file", "arguments": {"path": "textutils.py"}}]},
        {"tool_calls": [{"tool": "write_file",
                         "arguments": {"path": "textutils.py", "instruction": ASK}}]},
        authored(SOLVED, "textutils.py"),
        {"text": "slugify is implemented."},
    ], ws, request="Implement slugify in textutils.py", use_phase_task=False)
    assert (ws / "textutils.py").read_text() == SOLVED
    assert model.requests[2]["tools"] == []
    prompt = model.requests[2]["messages"][-1]["content"]
    assert "Implement slugify in textutils.py" in prompt and STUB in prompt
    assert [e.stage for e in events if isinstance(e, LlmCall)] == [
        "classic", "classic", "author", "classic"]
    assert events[-1].outcome == "succeeded"


def test_the_classic_loop_never_reports_a_broken_write_done(ws: Path) -> None:
    events, _ = run([
        {"tool_calls": [{"tool": "write_file",
                         "arguments": {"path": "textutils.py", "content": "def slugify(:\n",
                                       "overwrite": True}}]},
        {"text": "Done: slugify is implemented."},
    ], ws, request="Implement slugify in textutils.py", use_phase_task=False)
    finished = [e for e in events if isinstance(e, TaskFinished)]
    assert finished[0].status == "failed" and "not valid Python" in finished[0].error
    assert (ws / "textutils.py").read_text() == STUB
    assert events[-1].outcome != "succeeded"
    assert kinds(events)[-2:] == ["summary", "run_finished"]


def test_a_write_without_instruction_or_content_is_repaired_not_run(ws: Path) -> None:
    events, model = run([
        analysis("Implement slugify"),
        plan(task(1, "write_file", path="textutils.py")),
        plan(task(1, "write_file", path="textutils.py", instruction=ASK)),
        authored(SOLVED),
        judge([1]), summary("## Done\n\nImplemented slugify."),
    ], ws, request="Implement slugify in textutils.py")
    repair = model.requests[2]["messages"]
    assert any("missing required field 'instruction'" in str(m.get("content")) for m in repair)
    assert (ws / "textutils.py").read_text() == SOLVED


def test_a_broken_reply_is_sent_back_once_with_what_is_wrong(ws: Path) -> None:
    uses_re = "def slugify(text):\n    return re.sub('[^a-z]+', '-', text.lower())\n"
    events, model = run([
        analysis("Implement slugify in textutils.py"),
        plan(task(1, "write_file", path="textutils.py", instruction=ASK)),
        authored("def slugify(text:\n    return text\n"),
        authored(uses_re),  # parses, but uses a name nothing defines: written, with the fact
        judge([1]),
        summary("## Done\n\nslugify is implemented."),
    ], ws, request="Implement slugify in textutils.py")
    first_fix = model.requests[3]["messages"]
    assert first_fix[-2]["role"] == "assistant" and "def slugify(text:" in first_fix[-2]["content"]
    assert "The file you wrote has problems" in first_fix[-1]["content"]
    assert "not valid Python" in first_fix[-1]["content"] and "line 1" in first_fix[-1]["content"]
    write = of(events, "task_finished")[0]
    assert write.status == "done"
    assert (ws / "textutils.py").read_text() == uses_re  # the second try parsed: it was written
    assert "uses names nothing defines (line 2: re)" in write.result
    assert [e.stage for e in of(events, "llm_call")].count("author") == 2
    assert model.remaining == 0 and events[-1].outcome == "succeeded"


def test_with_authoring_off_the_tools_take_content_and_exact_edits(ws: Path) -> None:
    events, model = run([
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "textutils.py", "content": SOLVED, "overwrite": True}}]},
        {"text": "slugify is implemented."},
    ], ws, request="Implement slugify in textutils.py", use_phase_task=False, author_files=False)
    offered = {t["function"]["name"]: t["function"] for t in model.requests[0]["tools"]}
    assert "edit_file" in offered
    assert "content" in offered["write_file"]["parameters"]["properties"]
    assert "instruction" not in offered["write_file"]["parameters"]["properties"]
    assert (ws / "textutils.py").read_text() == SOLVED
    assert [e.stage for e in events if isinstance(e, LlmCall)] == ["classic", "classic"]


def test_code_in_an_instruction_is_left_out_and_the_request_is_the_task(ws: Path) -> None:
    sketch = "def slugify(text):\n    return text.replace(' ', '-')\n"
    _, model = run([
        analysis("Implement slugify in textutils.py"),
        plan(task(1, "write_file", path="textutils.py", instruction=sketch)),
        authored(SOLVED), judge([1]), summary("## Done\n\nslugify is implemented."),
    ], ws, request=ASK)
    prompt = model.requests[2]["messages"][-1]["content"]
    assert "Task: write textutils.py so that it does everything the request asks" in prompt
    assert "text.replace(' ', '-')" not in prompt and ASK in prompt
    assert (ws / "textutils.py").read_text() == SOLVED


def test_a_write_planned_beside_a_search_is_written_with_what_the_search_found(
        tmp_path: Path) -> None:
    """count-todos with the 1.5B model: the search and the write of the count were planned
    side by side without a dependency; the write ran at once and wrote 0 (the search: 2)."""
    ws = one_file_workspace(tmp_path, "app.py", "# TODO: one\nx = 1  # TODO: two\n")
    events, model = run([
        analysis("Count the TODO lines into todo_count.txt"),
        plan(task(1, "search_code", pattern="TODO"),
             task(2, "write_file", path="todo_count.txt", instruction="the number of lines")),
        authored("2\n", "todo_count.txt"),
        judge([1, 2]),
        summary("## Done\n\ntodo_count.txt holds 2."),
    ], ws, request="Count the lines containing TODO and write the number into todo_count.txt.")
    prompt = model.requests[2]["messages"][-1]["content"]
    assert "(2 matching lines in 1 file)" in prompt.split("Results this task builds on:")[1]
    order = [(e.kind, e.task_id) for e in events if e.kind in ("task_started", "task_finished")]
    assert order == [("task_started", 1), ("task_finished", 1),
                     ("task_started", 2), ("task_finished", 2)]
    assert (ws / "todo_count.txt").read_text() == "2\n"


def test_a_write_whose_reply_was_cut_off_is_planned_again_and_runs(tmp_path: Path) -> None:
    """largest-file with the 1.5B model: the authoring reply was cut off at its limit, and
    the plans that asked for the same write again were held back as repeats; the phase
    ended without report.txt."""
    ws = one_file_workspace(tmp_path, "notes.md", "# notes\n")
    (ws / "data").mkdir()
    (ws / "data" / "beta.txt").write_text("b" * 41, encoding="utf-8")
    write = task(1, "write_file", path="report.txt", instruction="name and size of the file")
    events, model = run([
        analysis("Report the largest file"),
        plan(write),
        {"text": "```text\ndata/largest_file.txt\n12345678901234567890"},
        judge([1]),  # "complete", although the write failed: Think settles it
        think(True, False),
        plan(write),
        authored("data/beta.txt\n41\n", "report.txt"),
        judge([1]),
        summary("## Done\n\nreport.txt names data/beta.txt, 41 bytes."),
    ], ws, request="Which file in data is the largest? Write its name and size to report.txt.")
    finished = [(e.round, e.status) for e in of(events, "task_finished")]
    assert finished == [(1, "failed"), (2, "done")]
    assert (ws / "report.txt").read_text() == "data/beta.txt\n41\n"
    retry = model.requests[6]["messages"][-1]["content"]
    assert "cut off" in retry


def test_a_workspace_module_used_without_import_is_imported(tmp_path: Path) -> None:
    """add-is-prime with the 1.5B model: test_mathtools.py called mathtools.is_prime without
    importing mathtools, both times (the second told the name was undefined)."""
    ws = one_file_workspace(tmp_path, "mathtools.py", "def is_prime(n):\n    return n == 2\n")
    tests = ("import unittest\n\n\nclass TestPrime(unittest.TestCase):\n"
             "    def test_two(self):\n        self.assertTrue(mathtools.is_prime(2))\n")
    events, model = run([
        analysis("Write tests for is_prime"),
        plan(task(1, "write_file", path="test_mathtools.py", instruction="unittest tests")),
        authored(tests, "test_mathtools.py"),
        judge([1]),
        summary("## Done\n\ntest_mathtools.py tests is_prime."),
    ], ws, request="Create test_mathtools.py with unittest tests for is_prime.")
    assert (ws / "test_mathtools.py").read_text() == "import mathtools\n" + tests
    write = of(events, "task_finished")[0]
    assert write.status == "done"
    assert ("The engine added `import mathtools`: the reply used mathtools without importing "
            "it, and the workspace has it.") in write.result
    assert "uses names nothing defines" not in write.result
    assert [e.stage for e in of(events, "llm_call")].count("author") == 1
