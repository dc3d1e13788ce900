"""Code written as code: a write task carries an instruction, Execute asks the model for the
file in a separate plain-text call, and the engine writes what the fenced block holds —
through both engines, with the scripted model. The first write of a file is its draft (the
one-shot prompt: the person's words and the files); a later write is told the person's words
first and the plan's note second, and replaces what the run wrote only on better evidence.

In the phase engine a request to change files starts with the draft: the first round writes
the files the one-shot reply gives, with no Plan call. Where a test needs a planned round,
the one-shot reply is cut off inside its block (``NO_FILE``): it gives no file and no answer in
words, so the request stays a change, the first round is planned then, and the first write of a
file the request names is asked for alone, framed as the model alone would be; a reply of that
write that does not parse or uses a name nothing defines gets one fix call."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.events import LlmCall, TaskFinished
from tests.support.script import (
    analysis, authored, judge, kinds, one_file_workspace, plan, reading, run, summary, task,
    think)

STUB = "def slugify(text):\n    raise NotImplementedError\n\n\ndef words(text):\n    return text.split()\n"
SOLVED = ("import re\n\n\ndef slugify(text):\n    return re.sub(r'[^a-z0-9]+', '-', "
          "text.lower()).strip('-')\n\n\ndef words(text):\n    return text.split()\n")
ASK = "Implement slugify(text): lower case, runs of other characters become one dash."
NO_FILE = {"text": "textutils.py\n```python\nimport re\n"}  # cut off: it gives no file
CHANGE = reading("change", change=("textutils.py",))
TEST = ("from textutils import slugify\n\n\ndef test_slug():\n"
        "    assert slugify('Hello, World!') == 'hello-world'\n")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return one_file_workspace(tmp_path, "textutils.py", STUB)


def of(events: list, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def test_the_draft_call_writes_the_file_the_request_names(ws: Path) -> None:
    """The first round is the draft's write (no Plan call): the one-shot reply's file is
    written as its fenced block holds it; the workspace's test checks it."""
    (ws / "test_textutils.py").write_text(TEST, encoding="utf-8")
    events, model = run([
        analysis("Make slugify turn text into URL slugs", **CHANGE),
        authored(SOLVED, "textutils.py"),
        summary("## Done\n\nslugify is implemented in textutils.py."),
    ], ws, request="Implement slugify in textutils.py")
    assert (ws / "textutils.py").read_text() == SOLVED
    write = [e for e in of(events, "task_finished") if e.tool == "write_file"][0]
    assert write.status == "done" and "textutils.py parses" in write.result
    assert "\nThe draft: what the model alone wrote for the request.\n" in write.result
    assert write.result.endswith("Checked: the workspace's tests: 1 test pass")
    call = model.requests[1]
    assert call["tools"] == [] and call["tool_choice"] is None
    assert call["temperature"] == 0.0 and call["max_tokens"] >= 800
    # the draft is the one-shot prompt: what the model alone would be asked, the person's
    # words and the workspace's files; nothing of the analysis, the goal or the plan's words
    assert call["messages"][0]["content"].startswith("You are an expert programmer.")
    prompt = call["messages"][-1]["content"]
    assert prompt.startswith("Request:\nImplement slugify in textutils.py\n\n"
                             "The project folder holds these files:\n\n")
    assert f"textutils.py\n```python\n{STUB}```" in prompt  # the file as it is now
    assert "URL slugs" not in prompt and "[Goal]" not in prompt and "Results this" not in prompt
    assert [e.stage for e in of(events, "llm_call")] == [
        "request_analyser", "author", "summarizer"]  # no plan before, no judge after
    stages = [e for e in of(events, "stage_started") if e.stage == "author"]
    assert stages[0].detail == "draft"
    planned = of(events, "tasks_planned")[0]
    assert [(t["tool"], t["arguments"]["path"]) for t in planned.tasks] == [
        ("write_file", "textutils.py")]
    judged = of(events, "judged")[0]
    assert judged.by_engine and judged.user_summary.startswith("Decided from the facts:")
    assert model.remaining == 0 and events[-1].outcome == "succeeded"
    assert events[-1].verification_line == "1 test passes"


def test_a_reply_without_a_block_fails_the_task_and_the_next_try_is_told_why(ws: Path) -> None:
    write = task(1, "write_file", path="textutils.py", instruction=ASK)
    events, model = run([
        analysis("Implement slugify in textutils.py", **CHANGE),
        {"text": "Sure! I would use re.sub to replace the characters."},  # the one-shot draft
        plan(write),  # the draft gave no file: the first round is planned
        {"text": "Use re.sub with a character class."},  # textutils.py asked for alone
        judge([], [1], completed=False, action="retry_failed", reason="nothing was written"),
        plan(task(1, "write_file", path="textutils.py", instruction=ASK + " Reply in a block.")),
        authored(SOLVED),
        summary("## Done\n\nslugify is implemented."),
    ], ws, request="Implement slugify in textutils.py")
    finished = [e for e in of(events, "task_finished") if e.tool == "write_file"]
    assert [e.status for e in finished] == ["failed", "done"]
    assert "no fenced code block" in finished[0].error
    # the draft reply gave no file, and the request names textutils.py: it is asked for alone,
    # framed as the model alone would be asked
    alone = model.requests[3]["messages"][-1]["content"]
    assert alone.startswith("Request:\nImplement slugify in textutils.py\n\ntextutils.py:\n")
    assert "Reply with the complete new content of textutils.py" in alone
    retry_prompt = model.requests[6]["messages"][-1]["content"]
    assert retry_prompt.startswith("The person asked:\nImplement slugify in textutils.py\n")
    assert "An earlier try at textutils.py failed: the reply has no fenced code block" \
        in retry_prompt
    assert (ws / "textutils.py").read_text() == SOLVED
    assert [e.stage for e in of(events, "llm_call")] == [
        "request_analyser", "author", "plan", "author", "judge", "plan", "author", "summarizer"]


def test_python_that_does_not_parse_is_never_reported_done(ws: Path) -> None:
    events, model = run([
        analysis("Implement slugify in textutils.py", **CHANGE),
        authored("def slugify(text):\n    return text.lower(\n"),  # the draft: the first round
        authored("def slugify(text):\n    return text.lower(\n"),  # its one candidate, no better
        judge([1]),  # the judge calls it done; the record says otherwise
        think(False, False),  # and Think settles it
        summary("## Done\n\nslugify is implemented."),
    ], ws, request="Implement slugify in textutils.py", max_rounds_per_phase=1, candidates=1)
    write = of(events, "task_finished")[0]
    assert write.status == "failed" and "not valid Python" in write.error
    assert "line 2" in write.error
    assert (ws / "textutils.py").read_text() == STUB
    assert [e.stage for e in of(events, "llm_call")] == [
        "request_analyser", "author", "author", "judge", "think", "summarizer"]  # no repair call
    assert model.remaining == 0 and events[-1].outcome == "failed"


def test_a_long_file_is_changed_with_search_replace_blocks(ws: Path) -> None:
    body = "".join(f"def f{n}():\n    return {n}\n\n\n" for n in range(800))
    (ws / "big.py").write_text(body, encoding="utf-8")
    reply = {"text": "big.py\n<<<<<<< SEARCH\ndef f7():\n    return 7\n=======\ndef f7():\n"
                     "    return 'seven'\n>>>>>>> REPLACE\n"}
    events, model = run([
        analysis("Make f7 return 'seven'", **reading("change", change=("big.py",))),
        {"text": "big.py\n```python\ndef f7():\n"},  # the draft, cut off: round 1 is planned
        plan(task(1, "write_file", path="big.py", instruction="f7 returns 'seven'")),
        reply, summary("## Done\n\nf7 returns 'seven' now."),  # the clean write: no judge
    ], ws, request="Make f7 in big.py return 'seven'")
    assert of(events, "task_finished")[0].status == "done"
    assert (ws / "big.py").read_text() == body.replace("return 7\n", "return 'seven'\n", 1)
    prompt = model.requests[3]["messages"][-1]["content"]
    assert "<<<<<<< SEARCH" in prompt and "big.py is long" in prompt


def test_the_classic_loop_writes_through_the_same_authoring_step(ws: Path) -> None:
    (ws / "test_textutils.py").write_text(TEST, encoding="utf-8")  # what checks the run
    events, model = run([
        analysis("Implement slugify", **CHANGE),
        {"tool_calls": [{"tool": "read_file", "arguments": {"path": "textutils.py"}}]},
        {"tool_calls": [{"tool": "write_file",
                         "arguments": {"path": "textutils.py", "instruction": ASK}}]},
        authored(SOLVED, "textutils.py"),
        {"text": "slugify is implemented."},
    ], ws, request="Implement slugify in textutils.py", use_phase_task=False)
    assert (ws / "textutils.py").read_text() == SOLVED
    assert model.requests[3]["tools"] == []
    prompt = model.requests[3]["messages"][-1]["content"]
    assert prompt.startswith("Request:\nImplement slugify in textutils.py\n") and STUB in prompt
    assert [e.stage for e in events if isinstance(e, LlmCall)] == [
        "request_analyser", "classic", "classic", "author", "classic"]
    assert (events[-1].outcome, events[-1].verification_line) == ("succeeded", "1 test passes")


def test_the_classic_loop_never_reports_a_broken_write_done(ws: Path) -> None:
    events, model = run([
        analysis("Implement slugify", **CHANGE),
        {"tool_calls": [{"tool": "write_file",
                         "arguments": {"path": "textutils.py", "content": "def slugify(:\n",
                                       "overwrite": True}}]},
        {"text": "Done: slugify is implemented."},
        {"text": "Done: slugify is implemented."},  # after the one reminder to write
    ], ws, request="Implement slugify in textutils.py", use_phase_task=False)
    finished = [e for e in events if isinstance(e, TaskFinished)]
    assert finished[0].status == "failed" and "not valid Python" in finished[0].error
    assert (ws / "textutils.py").read_text() == STUB
    notices = [n for n in events if n.kind == "notice"]
    assert [n.assist for n in notices] == ["write_reminder"]
    final = events[-2]  # the model's words stand; the engine's facts beside them say no
    assert final.final_summary == "Done: slugify is implemented."
    assert final.verification_sentences == ["The run changed no file."]
    assert [r["status"] for r in final.requirements] == ["failed"]
    assert events[-1].outcome == "failed" and model.remaining == 0
    assert kinds(events)[-2:] == ["summary", "run_finished"]


def test_a_write_without_instruction_or_content_is_repaired_not_run(ws: Path) -> None:
    events, model = run([
        analysis("Implement slugify", **CHANGE),
        NO_FILE,  # the first round is planned
        plan(task(1, "write_file", path="textutils.py")),
        plan(task(1, "write_file", path="textutils.py", instruction=ASK)),
        authored(SOLVED),
        summary("## Done\n\nImplemented slugify."),
    ], ws, request="Implement slugify in textutils.py")
    # the Plan call offers write_file with a path and an instruction, and no edit_file
    plan_schema = model.requests[2]["tools"][0]["function"]["parameters"]
    branches = {b["properties"]["tool"]["enum"][0]: b for b in
                plan_schema["properties"]["tasks"]["items"]["anyOf"]}
    assert set(branches["write_file"]["properties"]["arguments"]["properties"]) == {
        "path", "instruction"}
    assert "edit_file" not in branches
    repair = model.requests[3]["messages"]
    assert any("missing required field 'instruction'" in str(m.get("content")) for m in repair)
    assert (ws / "textutils.py").read_text() == SOLVED
    assert [e.stage for e in of(events, "llm_call")] == [
        "request_analyser", "author", "plan", "plan", "author", "summarizer"]
    assert model.remaining == 0


def test_a_write_that_uses_an_undefined_name_gets_one_fix_call(ws: Path) -> None:
    """The first write of the named file, asked for alone (the draft gave no file), uses a
    name nothing defines: it is sent back once with what the engine found."""
    (ws / "test_textutils.py").write_text(TEST, encoding="utf-8")
    uses_re = "def slugify(text):\n    return re.sub('[^a-z]+', '-', text.lower())\n"
    events, model = run([
        analysis("Implement slugify in textutils.py", **CHANGE),
        NO_FILE,  # the first round is planned
        plan(task(1, "write_file", path="textutils.py", instruction=ASK)),
        authored(uses_re),  # parses, but uses a name nothing defines: sent back
        authored(SOLVED),
        summary("## Done\n\nslugify is implemented."),
    ], ws, request="Implement slugify in textutils.py")
    alone = model.requests[3]["messages"][-1]["content"]  # framed as the model alone's
    assert alone.startswith("Request:\nImplement slugify in textutils.py\n\n")
    assert alone.endswith("Reply with the complete new content of textutils.py in one fenced "
                          "code block (```python).")
    sent_back = model.requests[4]["messages"]
    assert sent_back[:-2] == model.requests[3]["messages"]
    assert sent_back[-2]["role"] == "assistant" and uses_re in sent_back[-2]["content"]
    assert sent_back[-1]["content"].startswith("The file you wrote has problems:")
    assert "undefined name at line 2: re" in sent_back[-1]["content"]
    write = of(events, "task_finished")[0]
    assert write.status == "done"
    assert (ws / "textutils.py").read_text() == SOLVED  # the fixed reply has no problem left
    assert [e.stage for e in of(events, "llm_call")] == [
        "request_analyser", "author", "plan", "author", "author", "summarizer"]
    assert model.remaining == 0 and events[-1].outcome == "succeeded"


def test_with_authoring_off_the_tools_take_content_and_exact_edits(ws: Path) -> None:
    events, model = run([
        analysis("Implement slugify", **CHANGE),
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "textutils.py", "content": SOLVED, "overwrite": True}}]},
        {"text": "slugify is implemented."},
    ], ws, request="Implement slugify in textutils.py", use_phase_task=False, author_files=False)
    offered = {t["function"]["name"]: t["function"] for t in model.requests[1]["tools"]}
    assert "edit_file" in offered
    assert "content" in offered["write_file"]["parameters"]["properties"]
    assert "instruction" not in offered["write_file"]["parameters"]["properties"]
    assert (ws / "textutils.py").read_text() == SOLVED
    assert [e.stage for e in events if isinstance(e, LlmCall)] == [
        "request_analyser", "classic", "classic"]


def test_a_later_write_from_a_plan_sketch_comes_after_the_words_and_is_not_taken(
        ws: Path) -> None:
    sketch = "def slugify(text):\n    return text.replace(' ', '-')\n"
    ask = f"{ASK} It is in textutils.py."  # named: its first write is the draft
    events, model = run([
        analysis("Implement slugify in textutils.py", **CHANGE),
        NO_FILE,  # the first round is planned
        plan(task(1, "write_file", path="textutils.py", instruction="implement slugify"),
             task(2, "read_file", path="missing.py")),
        authored(SOLVED),  # the draft: textutils.py asked for alone
        judge([1], [2], completed=False, action="replan", summary="The read failed."),
        plan(task(1, "write_file", path="textutils.py", instruction=sketch)),
        authored(sketch),  # a later write, no better on any evidence: not taken
        judge([1]),
        summary("## Done\n\nslugify is implemented."),
    ], ws, request=ask)
    draft = model.requests[3]["messages"][-1]["content"]
    assert draft.startswith(f"Request:\n{ask}\n\n") and "implement slugify" not in draft
    later = model.requests[6]["messages"][-1]["content"]
    assert later.startswith(f"The person asked:\n{ask}\n\n")
    assert ("The plan's note for this step (where it differs from the person's words above, "
            "the person's words win):") in later
    assert later.index(ASK) < later.index("text.replace(' ', '-')") and SOLVED in later
    second = [e for e in of(events, "task_finished") if e.round == 2][0]
    assert second.status == "done" and second.result.startswith("kept textutils.py as it was")
    assert [e.path for e in of(events, "file_changed")] == ["textutils.py"]
    assert (ws / "textutils.py").read_text() == SOLVED
    assert model.remaining == 0


def test_a_data_file_planned_beside_a_search_is_offered_as_a_program(tmp_path: Path) -> None:
    """count-todos with the 1.5B model: the search and the write of the count were planned
    side by side without a dependency; the write wrote 0 (the search: 2). The write's draft is
    what the model alone is asked, with the offer to compute the count with a program. (The
    one-shot reply is cut off here: it gives no file, so the first round is planned.)"""
    ws = one_file_workspace(tmp_path, "app.py", "# TODO: one\nx = 1  # TODO: two\n")
    request = "Count the lines containing TODO and write the number into todo_count.txt."
    events, model = run([
        analysis("Count the TODO lines into todo_count.txt",
                 **reading("change", create=("todo_count.txt",))),
        {"text": "todo_count.txt\n```text\n"},  # the one-shot, cut off: no file
        plan(task(1, "search_code", pattern="TODO"),
             task(2, "write_file", path="todo_count.txt", instruction="the number of lines")),
        authored("2\n", "todo_count.txt"),
        summary("## Done\n\ntodo_count.txt holds 2."),
    ], ws, request=request)
    prompt = model.requests[3]["messages"][-1]["content"]
    assert prompt.startswith(f"Request:\n{request}\n\nThe project folder holds these files:")
    assert "\n\ntodo_count.txt does not exist yet." in prompt
    assert "reply with a Python program" in prompt and "the number of lines" not in prompt
    assert (ws / "todo_count.txt").read_text() == "2\n"
    assert model.remaining == 0
    assert events[-1].outcome == "unverified"  # no test or example checks a count


def test_a_write_whose_reply_was_cut_off_is_planned_again_and_runs(tmp_path: Path) -> None:
    """largest-file with the 1.5B model: the authoring reply was cut off at its limit, and
    the plans that asked for the same write again were held back as repeats; the phase
    ended without report.txt. (The same model's one-shot reply is cut off too: it gives no
    file, so the first round is planned.)"""
    ws = one_file_workspace(tmp_path, "notes.md", "# notes\n")
    (ws / "data").mkdir()
    (ws / "data" / "beta.txt").write_text("b" * 41, encoding="utf-8")
    write = task(1, "write_file", path="report.txt", instruction="name and size of the file")
    events, model = run([
        analysis("Report the largest file",
                 **reading("change", create=("report.txt",), read=("data",))),
        {"text": "report.txt\n```text\ndata/largest_file.txt\n1234567890"},  # the one-shot
        plan(write),
        {"text": "```text\ndata/largest_file.txt\n12345678901234567890"},
        judge([1]),  # "complete", although the write failed: Think settles it
        think(True, False),
        plan(write),
        authored("data/beta.txt\n41\n", "report.txt"),
        summary("## Done\n\nreport.txt names data/beta.txt, 41 bytes."),
    ], ws, request="Which file in data is the largest? Write its name and size to report.txt.")
    finished = [(e.round, e.status) for e in of(events, "task_finished")]
    assert finished == [(1, "failed"), (2, "done")]
    assert (ws / "report.txt").read_text() == "data/beta.txt\n41\n"
    retry = model.requests[7]["messages"][-1]["content"]
    assert "cut off" in retry
    assert model.remaining == 0
    assert events[-1].outcome == "unverified"  # finished; nothing checks the report's lines
