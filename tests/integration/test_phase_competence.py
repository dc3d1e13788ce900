"""What keeps a small model's run useful: no repeated work, results as arguments, facts for
the judge, summaries that fit, and clarification that never stops a headless run."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.engine.build import create_engine
from core.engine.stages.schemas import SUMMARIZER
from core.llm.scripted import ScriptedModel
from tests.support.script import (analysis, authored, judge, of, phases, plan, run, settings,
                                  summary, task, think)

ROOT = Path(__file__).resolve().parents[2]
# The one-shot draft comes first in round 1 of the first phase. Answered in words, it makes
# the run a question; cut off inside its block, it gives no file and is no answer in words,
# so the reading (here: none) stands. Either way round 1 is planned.
ANSWER = {"text": "The workspace holds config.py, README.md and app.py."}
NO_DRAFT = {"text": "config.py\n```python\nPORT ="}


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "config.py").write_text("PORT = 8000\n", encoding="utf-8")
    (folder / "README.md").write_text("# demo\n", encoding="utf-8")
    (folder / "app.py").write_text("# TODO one\n# TODO two\nprint('hi')\n", encoding="utf-8")
    return folder


def judge_prompts(model: ScriptedModel) -> list[str]:
    return [r["messages"][-1]["content"] for r in model.requests
            if r["tools"] and r["tools"][0]["function"]["name"] == "judge_tasks"]


def test_retry_runs_only_what_failed_and_the_judge_is_told(ws: Path) -> None:
    rename = task(2, "edit_file", path="README.md", old_text="# demo", new_text="# Demo app")
    events, model = run([
        analysis("Rename the title and read the notes", complexity="complex"),
        phases((1, "Edit", [], 3)), NO_DRAFT,
        plan(task(1, "read_file", path="config.py"), rename,
             task(3, "read_file", path="NOTES.md")),
        judge([1, 2], [3], completed=False, action="retry_failed", reason="NOTES.md is missing"),
        # the model plans the whole round again, the missing file corrected
        plan(task(1, "read_file", path="config.py"), rename,
             task(3, "read_file", path="README.md")),
        judge([1, 2, 3]),
        summary(),
    ], ws)
    assert (ws / "README.md").read_text() == "# Demo app\n"  # applied once, not twice
    second = {e.task_id: (e.status, e.error) for e in of(events, "task_finished")
              if e.round == 2}
    assert second[2][0] == "skipped"
    assert second[2][1].startswith("not run again: the same call succeeded in phase 1, round 1")
    assert second[1][0] == second[3][0] == "done"  # a file changed since: reading is new
    assert len(of(events, "file_changed")) == 1
    assert "- skipped: task 2 (already done earlier)" in judge_prompts(model)[1]
    shown = [m["content"] for m in model.requests[-2]["messages"]  # the last judge's context
             if m.get("tool_call_id") == "task_1_2_2"]
    assert shown and shown[0].startswith("SKIPPED: not run again") and "edited README.md" in shown[0]
    assert of(events, "judged")[-1].verdicts[1]["status"] == "skipped"
    assert events[-1].outcome == "unverified"  # nothing checks README.md's title


def test_a_failing_call_is_not_repeated_on_an_unchanged_workspace(ws: Path) -> None:
    missing = task(1, "read_file", path="missing.txt")
    events, model = run([
        analysis("Read the notes", complexity="complex"), phases((1, "Read", [], 5)), ANSWER,
        plan(missing), judge([], [1], completed=False, action="retry_failed"),
        plan(missing),  # the same failing call: replanned with the evidence
        plan(missing, task(2, "read_file", [1], path="README.md")),  # still nothing new: ends
        summary(),
        plan(missing), judge([], [1], completed=False, action="retry_failed"),
    ], ws)
    assert [e.status for e in of(events, "task_finished")] == ["failed"]
    replan = model.requests[6]["messages"][-1]["content"]
    assert "The previous approach did not work" in replan
    assert "read_file {\"path\": \"missing.txt\"}: failed in phase 1, round 1" in replan
    finished = of(events, "phase_finished")[0]
    assert finished.status == "incomplete" and finished.rounds == 3
    summarizer = model.requests[7]["messages"][-1]["content"]
    assert "Reason: stalled: the plans kept repeating calls already made" in summarizer
    assert model.remaining == 2 and events[-1].llm_calls == 8


def test_a_task_argument_can_be_an_earlier_tasks_result(ws: Path) -> None:
    events, _ = run([
        analysis("List the TODOs in todo.txt"), NO_DRAFT,
        plan(task(1, "search_code", pattern="TODO"),
             task(2, "write_file", path="todo.txt", content="$1")),
        summary(),  # a clean write round: the engine decides it
    ], ws)
    planned = of(events, "tasks_planned")[0].tasks
    assert planned[1]["dependencies"] == [1]  # it waits for the result it uses
    written = (ws / "todo.txt").read_text()
    assert "app.py:1:# TODO one" in written and "app.py:2:# TODO two" in written
    assert "$1" not in written


def test_a_write_of_a_placeholder_is_refused_and_the_next_round_writes_the_value(
        ws: Path) -> None:
    events, model = run([
        analysis("Count the TODO lines into todo_count.txt"), NO_DRAFT,
        plan(task(1, "search_code", pattern="TODO"),
             task(2, "write_file", path="todo_count.txt", content="{{result}}")),
        judge([1], [2], completed=False, action="retry_failed", reason="nothing written"),
        plan(task(1, "write_file", path="todo_count.txt", content="2")),
        summary(),
    ], ws)
    first = {e.task_id: e for e in of(events, "task_finished") if e.round == 1}
    assert first[1].status == "done" and "(2 matching lines in 1 file)" in first[1].result
    assert first[2].status == "failed"
    assert first[2].error.startswith("not run: content is the placeholder '{{result}}'")
    assert (ws / "todo_count.txt").read_text() == "2"
    # the next plan was asked for beside the error that says why
    plans = [r for r in model.requests if r["tools"]
             and r["tools"][0]["function"]["name"] == "plan_tool_call"]
    assert "placeholder '{{result}}'" in "\n".join(
        str(m.get("content")) for m in plans[1]["messages"])


@pytest.mark.parametrize("content", ["{count}", "$total", "<number>", " {{ result }} "])
def test_every_placeholder_form_is_refused(ws: Path, content: str) -> None:
    events, _ = run([
        analysis("Write the count"), NO_DRAFT,
        plan(task(1, "write_file", path="n.txt", content=content)),
        judge([], [1], completed=False, action="end_phase", reason="not written"),
        summary(),
    ], ws)
    assert of(events, "task_finished")[0].status == "failed"
    assert not (ws / "n.txt").exists()


@pytest.mark.parametrize("content", ["Hello {name}, welcome", "{{ user.name }} and more",
                                     "price: $5", "export A=$HOME"])
def test_content_that_merely_contains_braces_or_dollars_is_written(ws: Path,
                                                                   content: str) -> None:
    run([analysis("Write the template"), NO_DRAFT,
         plan(task(1, "write_file", path="t.txt", content=content)), summary()], ws)
    assert (ws / "t.txt").read_text() == content


def test_a_shell_dollar_one_is_left_alone(ws: Path) -> None:
    events, _ = run([
        analysis("Print the first words"), ANSWER,
        plan(task(1, "list_files"),
             task(2, "run_command", command="echo 'a b' | awk '{print $1}'")),
        judge([1, 2]),
        summary(),
    ], ws)
    results = {e.task_id: e for e in of(events, "task_finished")}
    assert results[2].status == "done" and "\na\n" in results[2].result
    assert of(events, "tasks_planned")[0].tasks[1]["dependencies"] == []


def test_the_judge_sees_what_changed_and_a_file_replaced_by_a_stub(ws: Path) -> None:
    long_readme = "# demo\n\n" + "\n".join(f"- feature {n} explained" for n in range(12)) + "\n"
    (ws / "README.md").write_text(long_readme)
    events, model = run([
        analysis("Update the docs"), NO_DRAFT,
        plan(task(1, "write_file", path="README.md", content="# demo\n", overwrite=True),
             task(2, "edit_file", path="config.py", old_text="8000", new_text="8080"),
             task(3, "read_file", path="nope.txt")),
        judge([1, 2], [3], completed=False, action="end_phase", reason="gave up"),
        summary(),
    ], ws)
    facts = judge_prompts(model)[0]
    assert facts.startswith("Facts recorded by the engine")
    assert "- failed: task 3" in facts
    assert "- config.py: modified (12 → 12 characters)\n    -PORT = 8000\n    +PORT = 8080" in facts
    assert "- README.md: modified" in facts and "    -- feature 0 explained" in facts
    assert "- WARNING: README.md was replaced by much less content" in facts
    assert "more changed line(s)" in facts


def test_a_round_that_only_read_gives_the_judge_no_facts(ws: Path) -> None:
    _, model = run([analysis("Look"), ANSWER, plan(task(1, "read_file", path="config.py")),
                    judge([1]), summary()], ws)
    assert judge_prompts(model)[0].startswith("Judge round 1")


def test_the_summary_schema_fits_a_small_model() -> None:
    assert SUMMARIZER["properties"]["final_summary"]["maxLength"] <= 1500
    assert SUMMARIZER["required"] == ["final_summary", "requirements"]
    assert SUMMARIZER["properties"]["highlights"]["maxItems"] <= 4


def test_a_cut_off_summary_is_repaired_once_then_the_fallback_is_used(ws: Path) -> None:
    cut = {"tool": "summarizer", "raw_arguments": '{"final_summary": "The run renamed the'}
    repaired, _ = run([analysis("Look"), ANSWER, plan(task(1, "list_files")), judge([1]), cut,
                       {"tool": "summarizer", "arguments": {
                           "final_summary": "Listed the files of the workspace.",
                           "requirements": []}}], ws)
    final = repaired[-2]
    assert final.generated_by == "model" and final.final_summary.startswith("Listed the files")
    assert final.highlights == [] and final.quality_assessment == ""
    broken, model = run([analysis("Look"), ANSWER, plan(task(1, "list_files")), judge([1]), cut,
                         cut, cut], ws)
    assert broken[-2].generated_by == "fallback" and "summarizer failed" in broken[-2].final_summary
    assert model.remaining == 1  # one repair, not more


def test_nobody_to_ask_means_the_run_goes_on_with_the_assumption(ws: Path) -> None:
    # the one-shot draft asks back instead of writing a file, so round 1 is planned: the
    # planner is the one told to go on with the request as written
    model = ScriptedModel([analysis("Fix it", questions=["Which file should change?"]),
                           {"text": "Which file should I change?"},
                           plan(task(1, "edit_file", path="config.py", old_text="PORT = 8000",
                                     new_text="PORT = 8080")),
                           summary()])  # the clean edit is decided by the engine

    async def go() -> list:
        engine = create_engine(settings(), ws, model=model, can_ask=False)
        return [e async for e in engine.run("fix it")]

    events = asyncio.run(go())
    assert of(events, "clarification") == []
    assert events[-1].status == "completed"
    assert (ws / "config.py").read_text() == "PORT = 8080\n"
    notice = [n.message for n in of(events, "notice") if n.stage == "request_analyser"]
    assert notice == ["The model asked for clarification (Which file should change?); nobody "
                      "can answer in this run, so the run continues with the request as it is."]
    structured = model.requests[2]["messages"][1]["content"]
    assert "Unanswered questions (Which file should change?): proceed on the request as " \
           "written" in structured


def test_a_clarification_without_a_question_does_not_stop_the_run(ws: Path) -> None:
    empty = analysis("Fix it")
    empty["arguments"].update(clarification_needed=True, clarification_questions=["N/A"])
    events, _ = run([empty, ANSWER, plan(task(1, "list_files")), judge([1]), summary()], ws)
    assert of(events, "clarification") == [] and events[-1].status == "completed"


def test_headless_yes_never_ends_asking_for_clarification(tmp_path: Path, ws: Path,
                                                          isolated_home: Path) -> None:
    """With --yes the run goes on; the workspace's test of config.py checks what it wrote."""
    (ws / "test_config.py").write_text("import config\n\n\ndef test_port():\n"
                                       "    assert config.PORT == 8080\n", encoding="utf-8")
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"replies": [
        analysis("Fix it", questions=["Which file should change?"]),
        authored("PORT = 8080\n", "config.py"),  # the draft first: round 1 writes config.py
        summary("Set the port to 8080.")]}))
    env = {**os.environ, "PHASEDESK_HOME": str(isolated_home)}
    env.pop("OPENAI_BASE_URL", None)

    def headless(code: int, *extra: str) -> list[dict]:
        done = subprocess.run([sys.executable, str(ROOT / "main_qt.py"), "--headless", "--jsonl",
                               "--workspace", str(ws), "--model-script", str(script), *extra,
                               "fix it"], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == code, done.stderr
        return [json.loads(line) for line in done.stdout.splitlines()]

    answered = headless(0, "--yes")  # the run went on and succeeded: exit code 0
    assert (answered[-1]["status"], answered[-1]["outcome"]) == ("completed", "succeeded")
    assert not [e for e in answered if e["kind"] == "clarification"]
    assert (ws / "config.py").read_text() == "PORT = 8080\n"
    asked = headless(1)  # without --yes the questions are asked, as in the window: exit 1
    assert asked[-1]["status"] == "clarification_needed"
    assert [e["questions"] for e in asked if e["kind"] == "clarification"] == [
        ["Which file should change?"]]


def test_a_retry_with_nothing_failed_is_settled_by_think(ws: Path) -> None:
    events, _ = run([
        analysis("Look", complexity="complex"), phases((1, "Look", [], 3)), ANSWER,
        plan(task(1, "list_files")),
        judge([1], completed=False, action="retry_failed", reason="retry"),
        {"tool": "think", "arguments": {"user_summary": "The files are listed; done.",
                                        "phase_completed": True, "continue_phase": False}},
        summary(),
    ], ws)
    assert [e.kind for e in events if e.kind in ("judged", "thought")] == ["judged", "thought"]
    finished = of(events, "phase_finished")[0]
    assert (finished.status, finished.rounds) == ("completed", 1)


def test_think_cannot_call_a_phase_complete_when_its_edits_failed(ws: Path) -> None:
    wrong = task(1, "edit_file", path="config.py", old_text="port = 8000", new_text="X = 1")
    right = task(1, "edit_file", path="config.py", old_text="PORT = 8000",
                 new_text="LISTEN_PORT = 8000")
    events, _ = run([
        analysis("Rename PORT to LISTEN_PORT", complexity="complex"),
        phases((1, "Rename", [], 3)), NO_DRAFT,
        plan(wrong),
        judge([], [1], completed=False, action="continue_phase"),
        think(True, False),  # the small model's second opinion: "done"
        plan(right),
        summary(),
    ], ws)
    assert (ws / "config.py").read_text() == "LISTEN_PORT = 8000\n"
    finished = of(events, "phase_finished")[0]
    assert (finished.status, finished.rounds) == ("completed", 2)
    notices = [e.message for e in of(events, "notice") if e.stage == "think"]
    assert notices == ["Phase 1, round 1: Think called the phase complete, but the write of "
                       "task 1 failed and the judge found it incomplete; the judge's verdict "
                       "stands."]


def test_every_round_sees_the_workspace_files_as_they_were_at_the_start(ws: Path) -> None:
    events, model = run([
        analysis("Note the port, then check the note", phases=2),
        phases((1, "Note", []), (2, "Check", [1])), NO_DRAFT,
        plan(task(1, "read_file", path="config.py"),
             task(2, "write_file", path="notes/port.txt", content="8000")),
        plan(task(1, "read_file", path="notes/port.txt")),  # after the write: the judge's round
        judge([1], summary="The note says 8000."),
        summary(),
    ], ws)
    stages = [r["tools"][0]["function"]["name"] if r["tools"] else "draft"
              for r in model.requests]
    assert stages == ["request_analyser", "phase_planner", "draft", "plan_tool_call",
                      "plan_tool_call", "judge_tasks", "summarizer"]
    listing = "Workspace files when the run started:\nREADME.md\napp.py\nconfig.py"
    for request in model.requests[1:2] + model.requests[3:-1]:  # not the one-shot draft's
        first_user = next(m for m in request["messages"] if m["role"] == "user")
        assert first_user["content"].endswith(listing)
    assert "Workspace files" not in str(model.requests[-1]["messages"])  # the summarizer's
    assert (ws / "notes" / "port.txt").read_text() == "8000"
    assert events[-1].outcome == "unverified"  # nothing checks the note


def test_a_summary_that_repeats_its_field_descriptions_is_not_shown(ws: Path) -> None:
    """Seen on llama-server (classic ex-csv-split): the final_summary was the instruction's
    status line and the schema's descriptions run together."""
    echo = ("The run has ended: all planned work was attempted. The summary for the person, "
            "in Markdown: at most about 200 words. Key results; default none.")
    events, _ = run([analysis("Look"), ANSWER, plan(task(1, "list_files")), judge([1]),
                     summary(echo)], ws)
    final = of(events, "summary")[0]
    assert final.generated_by == "fallback"
    assert "at most about 200 words" not in final.final_summary
    assert ("The summary was written without the model: the summarizer failed: its reply "
            "repeated the descriptions of the summary's fields instead of a summary") in \
        final.final_summary
