"""Never worse than the model alone (issue 35), with the scripted model: the first write of a
file the request names sends exactly the one-shot prompt; a later candidate replaces it only on
the engine's own evidence; requirements the person did not state are assumptions; a plan that
creates files the request never mentions while the named file is untouched is refused; a round
the facts settle needs no judge call; the analysis's language is a human language.

A request to change files starts with the draft: the first round writes the files the one-shot
reply gives, with no Plan call. Where a test needs a planned round (a plan to review, a read
that fails, the plan's prompt), the one-shot reply is cut off inside its block (``NO_FILE``): it
gives no file and no answer in words, so the request stays a change, the first round is planned
then, and the first write of a file the request names is asked for alone, framed as the model
alone would be asked. A draft whose file fails the workspace's tests gives way only to a
candidate (more samples of the same prompt) that passes more of them."""

from __future__ import annotations

from pathlib import Path

import bench.evals.oneshot
from core.engine.authoring.draft import oneshot_messages
from core.engine.phase.rounds import DRAFT_ROUND
from core.tools.text_files import collect
from tests.support.script import analysis, authored, files_workspace, judge, of, phases, plan, \
    reading, run, summary, task, think

STUB = "def add(a, b):\n    raise NotImplementedError\n"
DRAFT = "def add(a, b):\n    return a + b\n"
OTHER = "def add(a, b):\n    return sum([a, b])\n"
ASK = "Implement add(a, b) in calc.py so it returns the sum."
NO_FILE = {"text": "calc.py\n```python\ndef add(a, b):\n    return"}  # cut off: no file
CHANGE = reading("change", change=("calc.py",))
TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
NO_CHANGE = reading("question", forbid=("*",), quotes={"*": "Do not change any file"})


def test_the_first_write_of_a_named_file_sends_the_one_shot_prompt(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB, "notes.md": "# notes\n"})
    expected = oneshot_messages(ASK, collect(ws))
    events, model = run([
        analysis("Implement add", **CHANGE),
        authored(DRAFT, "calc.py"),  # the first round: the draft's files, no Plan call
        summary("add is implemented."),
    ], ws, request=ASK)
    draft = model.requests[1]
    assert draft["messages"] == expected  # the person's words and the files, nothing else
    assert draft["temperature"] == 0.0 and draft["tools"] == []
    assert (ws / "calc.py").read_text() == DRAFT
    # the evaluation's one-shot baseline builds its prompt with the very same function
    assert bench.evals.oneshot.oneshot_messages is oneshot_messages
    finished = of(events, "task_finished")[0]
    assert "The draft: what the model alone wrote for the request." in finished.result


def test_a_planned_first_write_of_a_named_file_sends_the_one_shot_prompt_not_the_plans_words(
        tmp_path: Path) -> None:
    """Where a plan comes before the first write (the phase planner's first tasks), the
    write still sends exactly the one-shot prompt: the plan's paraphrase is not sent."""
    ws = files_workspace(tmp_path, {"calc.py": STUB, "notes.md": "# notes\n"})
    expected = oneshot_messages(ASK, collect(ws))
    events, model = run([
        analysis("Implement add", complexity="complex", **CHANGE),
        phases((1, "Implement add", []), first_tasks=[
            task(1, "write_file", path="calc.py",
                 instruction="Make add print the sum of a and b")]),
        authored(DRAFT, "calc.py"),
        summary("add is implemented."),
    ], ws, request=ASK)
    assert [c.stage for c in of(events, "llm_call")] == [
        "request_analyser", "phase_planner", "author", "summarizer"]
    draft = model.requests[2]
    assert draft["messages"] == expected
    assert "print" not in draft["messages"][1]["content"]  # the plan's paraphrase is not sent
    assert (ws / "calc.py").read_text() == DRAFT


def test_a_named_file_whose_draft_passes_takes_three_calls_and_no_plan(tmp_path: Path) -> None:
    """The draft first: analysis, the one-shot draft, the summary; the first round is the
    draft's write, planned by the engine, and the clean write ends the phase; the workspace's
    test checks it."""
    ws = files_workspace(tmp_path, {"calc.py": STUB, "test_calc.py": TEST})
    events, model = run([
        analysis("Implement add", **CHANGE),
        authored(DRAFT, "calc.py"),
        summary("add is implemented."),
    ], ws, request=ASK)
    assert [c.stage for c in of(events, "llm_call")] == [
        "request_analyser", "author", "summarizer"]
    assert len(model.requests) == 3 and model.remaining == 0
    called = [t["function"]["name"] for r in model.requests for t in r["tools"] or []]
    assert "plan_tool_call" not in called
    planned = of(events, "tasks_planned")
    assert len(planned) == 1 and planned[0].reasoning == DRAFT_ROUND
    assert planned[0].reasoning.startswith("The draft first")
    assert [(t["tool"], t["arguments"]["path"]) for t in planned[0].tasks] == [
        ("write_file", "calc.py")]
    judged = of(events, "judged")
    assert [(j.by_engine, j.next_action, j.phase_completed) for j in judged] == [
        (True, "end_phase", True)]
    assert (ws / "calc.py").read_text() == DRAFT
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification_line) == ("succeeded", "1 test passes")


def test_a_later_candidate_without_better_evidence_does_not_replace_the_draft(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, model = run([
        analysis("Implement add", **CHANGE),
        NO_FILE,  # the first round is planned
        plan(task(1, "write_file", path="calc.py", instruction="implement add"),
             task(2, "read_file", path="missing.py")),
        authored(DRAFT, "calc.py"),  # the draft: calc.py asked for alone
        judge([1], [2], completed=False, action="replan", summary="Read failed."),
        plan(task(1, "write_file", path="calc.py", instruction="use sum() instead")),
        authored(OTHER, "calc.py"),
        judge([1]),
        summary("add is implemented."),
    ], ws, request=ASK)
    assert (ws / "calc.py").read_text() == DRAFT
    assert len(of(events, "file_changed")) == 1
    first = [e for e in of(events, "task_finished")
             if e.round == 1 and e.tool == "write_file"][0]
    assert "The draft: what the model alone wrote for the request." in first.result
    second = [e for e in of(events, "task_finished") if e.round == 2][0]
    assert second.status == "done" and second.result.startswith("kept calc.py as it was")
    later = model.requests[6]["messages"][1]["content"]
    assert later.startswith(f"The person asked:\n{ASK}")  # the person's words come first
    assert later.index(ASK) < later.index("The plan's note for this step")


def test_a_candidate_replaces_the_draft_only_when_more_of_the_workspaces_tests_pass(
        tmp_path: Path) -> None:
    tests = ("from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n"
             "def test_add_negative():\n    assert add(-1, 1) == 0\n")
    ws = files_workspace(tmp_path, {"calc.py": STUB, "test_calc.py": tests})
    wrong = "def add(a, b):\n    return a * b\n"
    events, model = run([
        analysis("Implement add", **CHANGE),
        authored(wrong, "calc.py"),
        authored(DRAFT, "calc.py", before="Another try:"),  # the one candidate
        summary("add is implemented and all tests pass."),
    ], ws, request=ASK, candidates=1)
    assert (ws / "calc.py").read_text() == DRAFT
    draft, candidate = model.requests[1], model.requests[2]
    assert candidate["messages"] == draft["messages"]  # the same prompt, sampled hotter
    assert (draft["temperature"], candidate["temperature"]) == (0.0, 0.8)
    (write,) = of(events, "task_finished")
    assert "candidate 1 of 1 passes more checks than the first version and fails none it " \
        "passed" in write.result
    assert [(c["source"], c["passed"], c["total"], c["kept"]) for c in write.candidates] == [
        ("draft", 0, 2, False), ("candidate 1", 2, 2, True)]
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author", "author",
                                                         "summarizer"]
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("verified", "2 tests pass")
    assert "all tests pass" in final.final_summary
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_candidates_that_do_no_better_leave_the_draft(tmp_path: Path) -> None:
    tests = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    ws = files_workspace(tmp_path, {"calc.py": STUB, "test_calc.py": tests})
    wrong = "def add(a, b):\n    return a * b\n"
    worse = "def add(a, b):\n    return a - b\n"
    events, model = run([
        analysis("Implement add", **CHANGE),
        authored(wrong, "calc.py"),
        authored(worse, "calc.py"),  # candidate 1
        authored("def add(a, b):\n    return (a\n", "calc.py"),  # candidate 2: no parse
        summary("add is implemented."),
    ], ws, request=ASK, candidates=2)
    assert (ws / "calc.py").read_text() == wrong  # the draft stays: no candidate did better
    assert model.remaining == 0
    (write,) = of(events, "task_finished")
    assert [(c["source"], c["kept"]) for c in write.candidates] == [
        ("draft", True), ("candidate 1", False), ("candidate 2", False)]
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("failing", "1 of 1 test fails")
    assert of(events, "run_finished")[0].outcome == "partial"


def test_an_ungrounded_requirement_is_an_assumption_listed_after_the_requirements(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB, "test_calc.py": TEST})
    events, model = run([
        analysis("Implement add", requirements=[
            {"requirement": "Handle both integer and floating-point inputs", "quote": ""},
            {"requirement": "add returns the sum", "quote": "so it returns the sum"}],
            **CHANGE),
        NO_FILE,  # the first round is planned: the plan's prompt shows the analysis
        plan(task(1, "write_file", path="calc.py", instruction="implement add")),
        authored(DRAFT, "calc.py"),
        summary("add is implemented."),
    ], ws, request=ASK)
    analysed = of(events, "request_analysed")[0]
    assert analysed.requirements == ["add returns the sum"]
    assert analysed.assumptions == ["Handle both integer and floating-point inputs"]
    assert "floating-point" not in str(model.requests[1]["messages"])  # the one-shot: words only
    assert model.requests[2]["tools"][0]["function"]["name"] == "plan_tool_call"
    structured = model.requests[2]["messages"][1]["content"]
    assert structured.index("[Requirements] add returns the sum") < structured.index(
        "[Assumptions, not stated by the person")
    final = of(events, "summary")[0]
    assert [r["requirement"] for r in final.requirements] == ["add returns the sum"]
    assert final.assumptions == ["Handle both integer and floating-point inputs"]
    # the assumption is not held against the run: the stated requirement and the test decide
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_a_plan_creating_an_unmentioned_file_while_the_named_one_is_untouched_is_refused(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"hamming.py": "def distance(a, b):\n    raise "
                                                  "NotImplementedError\n"})
    ask = "Calculate the Hamming distance between two DNA strands in hamming.py."
    events, model = run([
        analysis("Hamming distance", **reading("change", change=("hamming.py",))),
        NO_FILE,  # the first round is planned
        plan(task(1, "write_file", path="dna_strands/distance.txt",
                  instruction="the distance of the strands")),
        authored("def distance(a, b):\n    return sum(x != y for x, y in zip(a, b))\n",
                 "hamming.py"),
        summary("distance is implemented."),
    ], ws, request=ask)
    assert not (ws / "dna_strands").exists()
    assert "return sum(x != y" in (ws / "hamming.py").read_text()
    warning = [n.message for n in of(events, "notice") if "does not mention" in n.message]
    assert warning and "dna_strands/distance.txt" in warning[0] and "hamming.py" in warning[0]
    planned = of(events, "tasks_planned")[0].tasks
    assert [t["arguments"]["path"] for t in planned] == ["hamming.py"]


def test_a_round_the_facts_settle_needs_no_judge_or_plan_call(tmp_path: Path) -> None:
    """A first round that only read (here the phase planner's first tasks): the engine
    decides it, asks the draft and writes its file, and decides that round too."""
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, _ = run([
        analysis("Implement add", complexity="complex", **CHANGE),
        phases((1, "Implement add", []), first_tasks=[task(1, "read_file", path="calc.py")]),
        authored(DRAFT, "calc.py"),  # the draft, asked after the reads: it writes calc.py
        summary("add is implemented."),
    ], ws, request=ASK)
    assert [c.stage for c in of(events, "llm_call")] == [
        "request_analyser", "phase_planner", "author", "summarizer"]
    judged = of(events, "judged")
    assert [(j.by_engine, j.next_action, j.phase_completed) for j in judged] == [
        (True, "continue_phase", False), (True, "end_phase", True)]
    assert judged[1].user_summary.startswith("Decided from the facts: calc.py written")
    second = of(events, "tasks_planned")[1]
    assert second.reasoning == "the files the draft gives"
    assert [t["arguments"]["path"] for t in second.tasks] == ["calc.py"]
    assert (ws / "calc.py").read_text() == DRAFT


def test_a_failed_task_still_goes_to_the_judge(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, _ = run([
        analysis("Implement add", **CHANGE),
        NO_FILE,  # the first round is planned
        plan(task(1, "write_file", path="calc.py", instruction="implement add"),
             task(2, "read_file", path="missing.py")),
        authored(DRAFT, "calc.py"),
        judge([1], [2], summary="The read failed but add is done."),
        think(True, False, ""),  # a failed task leaves the verdict open: Think settles it
        summary("add is implemented."),
    ], ws, request=ASK)
    assert [c.stage for c in of(events, "llm_call")].count("judge") == 1
    assert of(events, "judged")[0].by_engine is False


def test_a_programming_language_is_not_the_persons_language(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, model = run([
        analysis("Implement add", language="Python", **CHANGE),  # as the 1.5B model answered
        authored(DRAFT, "calc.py"),
        summary("add is implemented."),
    ], ws, request=ASK)
    assert of(events, "request_analysed")[0].language == "English"
    sent = "\n".join(str(m.get("content")) for r in model.requests for m in r["messages"])
    assert "in Python, the person's language" not in sent
    assert "The request is written in Python" not in sent


def test_a_question_gets_no_draft_after_its_read_round(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, _ = run([
        analysis("Explain calc.py", **NO_CHANGE),
        plan(task(1, "read_file", path="calc.py")),
        judge([1], summary="calc.py defines add, not implemented yet."),
        summary("calc.py defines add(a, b), which raises NotImplementedError."),
    ], ws, request="What does calc.py do? Do not change any file.")
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "plan", "judge",
                                                         "summarizer"]
    assert (ws / "calc.py").read_text() == STUB


def test_the_answer_to_a_question_sees_the_workspaces_files(tmp_path: Path) -> None:
    """The model alone, asked a question, sees every file: the call that answers it here
    (the summarizer) does too, even when the rounds read the wrong file."""
    ws = files_workspace(tmp_path, {"setup.cfg": "[metadata]\nversion = 2.7.1\n",
                                    "calc.py": STUB})
    events, model = run([
        analysis("Find the version", **NO_CHANGE),
        plan(task(1, "read_file", path="pkg/setup.cfg")),
        judge([], [1], completed=False, action="end_phase", reason="no pkg/setup.cfg"),
        summary("The version is 2.7.1."),
    ], ws, request="Which version does setup.cfg declare? Do not change any file.")
    answer = model.requests[-1]["messages"][1]["content"]
    assert "The workspace's files:" in answer and "version = 2.7.1" in answer
    assert "The version is 2.7.1." in of(events, "summary")[0].final_summary


def test_an_existing_data_file_is_edited_as_text_not_computed(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"config.json": '{"port": 8000}\n'})
    events, model = run([
        analysis("Rename the key", **reading("change", change=("config.json",))),
        authored('{"listen_port": 8000}\n', "config.json", language="json"),
        summary("config.json renamed."),
    ], ws, request="Rename the key port to listen_port in config.json", assists_off="")
    assert (ws / "config.json").read_text() == '{"listen_port": 8000}\n'
    assert [c.stage for c in of(events, "llm_call")] == [
        "request_analyser", "author", "summarizer"]  # no second call with a program offer
    draft = model.requests[1]["messages"][1]["content"]
    assert "reply with a Python program" not in draft
    assert draft.startswith("Request:\nRename the key port to listen_port in config.json")
