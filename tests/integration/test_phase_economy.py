"""What the phase engine saves: calls it does not make and a prompt prefix providers can cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.script import analysis, judge, of, phases, plan, run, summary, task, think


# The one-shot draft, asked in round 1 of the first phase unless the phase planner gave the
# first tasks, answers in words: the run is a question and round 1 is planned.
DRAFT = {"text": "The README says hello."}


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "README.md").write_text("# hello\n")
    return tmp_path


def test_every_call_after_the_analysis_starts_with_the_same_prefix(ws: Path) -> None:
    events, model = run([
        analysis("Read and note", phases=2),
        phases((1, "Read", []), (2, "Note", [1])), DRAFT,
        plan(task(1, "read_file", path="README.md")), judge([1]),
        plan(task(1, "write_file", path="notes.md", content="hello")),  # decided by the engine
        summary(),
    ], ws, request="please read the README and take a note")
    stages = [c.stage for c in of(events, "llm_call")]
    assert stages == ["request_analyser", "phase_planner", "author", "plan", "judge", "plan",
                      "summarizer"]
    rounds = model.requests[1:2] + model.requests[3:-1]  # not the draft: the model alone
    prefix = model.requests[1]["messages"][:2]
    assert [m["role"] for m in prefix] == ["system", "user"]
    assert "Structured request" in prefix[1]["content"]
    assert all(r["messages"][:2] == prefix for r in rounds)
    # the summarizer gets the person's words and the structured request without the rounds'
    # tool catalogue, the workspace's files and the complexity estimate
    last = model.requests[-1]["messages"]
    structured, files = prefix[1]["content"].split("\n\nWorkspace files", 1)
    assert "README.md" in files and "\n[Complexity] complex" in structured
    # the summarizer gets the person's words (the requirements follow in its instruction);
    # a request that asks no change is answered there, with the workspace's files
    assert last[1]["content"].startswith("The request:\nplease read the README and take "
                                         "a note\n\nThe workspace's files:\n\n")
    assert "read_file" not in last[0]["content"]
    assert "read_file" in prefix[0]["content"]
    # each stage's instruction comes after the prefix, never inside it
    assert "phase_planner" not in prefix[1]["content"]
    assert "phase_planner" in model.requests[1]["messages"][-1]["content"]
    # the raw request stays in the analyser's, the draft's and the summarizer's contexts
    assert "take a note" in str(model.requests[2]["messages"])
    assert all("take a note" not in str(r["messages"]) for r in rounds)
    assert (ws / "notes.md").read_text() == "hello"


def stages_of(events: list) -> list[str]:
    return [c.stage for c in of(events, "llm_call")]


def test_a_judge_that_knows_the_next_tasks_saves_the_plan_call(ws: Path) -> None:
    events, model = run([
        analysis("Read then note"), DRAFT,
        plan(task(1, "read_file", path="README.md")),
        judge([1], completed=False, action="continue_phase", summary="Read the README.",
              next_tasks=[task(1, "write_file", path="notes.md", content="# hello noted")]),
        summary(),  # the clean write of round 2 is decided by the engine
    ], ws)
    assert stages_of(events) == ["request_analyser", "author", "plan", "judge", "summarizer"]
    assert of(events, "thought") == []  # a clear verdict needs no Think
    assert [j.by_engine for j in of(events, "judged")] == [False, True]
    planned = of(events, "tasks_planned")
    assert [(p.round, [t["tool"] for t in p.tasks]) for p in planned] == [
        (1, ["read_file"]), (2, ["write_file"])]
    assert planned[1].reasoning == "planned by the judge"
    assert (ws / "notes.md").read_text() == "# hello noted"
    assert of(events, "phase_finished")[0].rounds == 2
    assert model.remaining == 0


def test_retry_failed_runs_the_judges_corrected_task_without_a_plan_call(ws: Path) -> None:
    events, model = run([
        analysis("Fix the heading"), DRAFT,
        plan(task(1, "edit_file", path="README.md", old_text="# helo", new_text="# Hello")),
        judge([], [1], completed=False, action="retry_failed", reason="old_text not found",
              next_tasks=[task(1, "edit_file", path="README.md", old_text="# hello",
                               new_text="# Hello")]),
        summary(),  # the corrected edit succeeds: the engine decides the round
    ], ws)
    assert stages_of(events) == ["request_analyser", "author", "plan", "judge", "summarizer"]
    retry = of(events, "tasks_planned")[1]
    assert retry.mode == "retry" and retry.tasks[0]["arguments"]["old_text"] == "# hello"
    assert [e.status for e in of(events, "task_finished")] == ["failed", "done"]
    assert (ws / "README.md").read_text() == "# Hello\n"
    assert model.remaining == 0


def test_a_completed_phase_hands_the_next_phases_first_tasks_over(ws: Path) -> None:
    events, model = run([
        analysis("Read, then note", phases=2),
        phases((1, "Read", []), (2, "Note", [1])), DRAFT,
        plan(task(1, "read_file", path="README.md")),
        judge([1], summary="Read the README.",
              next_tasks=[task(1, "list_files")]),
        judge([1], summary="Listed the files."),
        summary(),
    ], ws)
    assert stages_of(events) == ["request_analyser", "phase_planner", "author", "plan", "judge",
                                 "judge", "summarizer"]
    judge_context = model.requests[4]["messages"][-1]["content"]
    assert "Next phase: Note — goal of Note" in judge_context
    second = [p for p in of(events, "tasks_planned") if p.phase_id == 2]
    assert [t["tool"] for t in second[0].tasks] == ["list_files"]
    assert "previous phase" in second[0].reasoning
    # phase 2's own context starts from the shared prefix and its own goal, not phase 1's rounds
    phase2_judge = model.requests[5]["messages"]
    assert phase2_judge[:2] == model.requests[1]["messages"][:2]
    assert "Phase 2 of 2: Note" in phase2_judge[2]["content"]
    assert not any("judge_tasks" in str(m.get("tool_calls", "")) for m in phase2_judge)
    assert [p.status for p in of(events, "phase_finished")] == ["completed", "completed"]
    listed = of(events, "task_finished")[-1]
    assert (listed.phase_id, listed.tool, listed.status) == (2, "list_files", "done")
    assert "README.md" in listed.result


def test_an_unfinished_phase_hands_nothing_over(ws: Path) -> None:
    events, _ = run([
        analysis("Read, then note", phases=2),
        phases((1, "Read", [], 1), (2, "Note", [1])), DRAFT,
        # phase 1 does some of its work (else phase 2, which depends on it, is blocked)
        plan(task(1, "read_file", path="missing.md"), task(2, "list_files")),
        judge([2], [1], completed=False, action="end_phase", reason="the file is missing",
              next_tasks=[task(1, "write_file", path="notes.md", content="noted")]),
        plan(task(1, "list_files")), judge([1]),
        summary(),
    ], ws)
    assert stages_of(events) == ["request_analyser", "phase_planner", "author", "plan", "judge",
                                 "plan", "judge", "summarizer"]
    assert not (ws / "notes.md").exists()


def test_think_runs_when_the_verdict_leaves_the_decision_open(ws: Path) -> None:
    events, _ = run([
        analysis("Read"), DRAFT,
        plan(task(1, "read_file", path="missing.md"), task(2, "read_file", path="README.md")),
        judge([2], [1], completed=False, action="continue_phase", summary="One read failed."),
        think(True, False, ""),
        summary(),
    ], ws)
    assert stages_of(events) == ["request_analyser", "author", "plan", "judge", "think",
                                 "summarizer"]
    assert of(events, "phase_finished")[0].status == "completed"


def test_the_phase_planner_can_give_the_first_tasks_so_no_plan_call_is_needed(ws: Path) -> None:
    events, model = run([
        analysis("Read, then note", phases=2),
        phases((1, "Read", []), (2, "Note", [1]),
               first_tasks=[task(1, "read_file", path="README.md")]),
        judge([1], summary="Read the README.",
              next_tasks=[task(1, "write_file", path="notes.md", content="noted")]),
        summary(),  # the handed-over write is clean: the engine decides phase 2's round
    ], ws)
    assert stages_of(events) == ["request_analyser", "phase_planner", "judge", "summarizer"]
    first = of(events, "tasks_planned")[0]
    assert (first.phase_id, first.reasoning) == (1, "planned with the phases")
    assert [e.status for e in of(events, "task_finished")] == ["done", "done"]
    assert finished_ok(events) and (ws / "notes.md").read_text() == "noted"
    assert model.remaining == 0


@pytest.mark.parametrize("complexity", ["simple", "medium"])
def test_one_estimated_phase_of_work_that_is_not_complex_is_not_phase_planned(
        ws: Path, complexity: str) -> None:
    events, model = run([
        analysis("Read", complexity=complexity), DRAFT,
        plan(task(1, "read_file", path="README.md")),
        judge([1], summary="Read the README."),
        summary(),
    ], ws)
    assert stages_of(events) == ["request_analyser", "author", "plan", "judge", "summarizer"]
    assert [p.name for p in of(events, "phase_started")] == ["Main"]
    assert finished_ok(events) and model.remaining == 0


def test_complex_work_is_phase_planned_even_when_one_phase_is_estimated(ws: Path) -> None:
    events, _ = run([
        analysis("Read", complexity="complex"),
        phases((1, "Read the README", [])), DRAFT,
        plan(task(1, "read_file", path="README.md")),
        judge([1], summary="Read the README."),
        summary(),
    ], ws)
    assert stages_of(events)[:2] == ["request_analyser", "phase_planner"]
    assert [p.name for p in of(events, "phase_started")] == ["Read the README"]


def finished_ok(events: list) -> bool:
    return events[-1].status == "completed" and events[-2].generated_by == "model"


def test_think_overruling_the_judge_drops_its_next_tasks(ws: Path) -> None:
    events, _ = run([
        analysis("Read"), DRAFT,
        plan(task(1, "read_file", path="missing.md")),
        judge([], [1], completed=True, action="continue_phase", summary="It failed oddly.",
              next_tasks=[task(1, "write_file", path="guess.md", content="guess")]),
        think(False, True, "Look for the file first."),
        plan(task(1, "list_files")),
        judge([1], summary="Listed the files."),
        summary(),
    ], ws)
    assert stages_of(events) == ["request_analyser", "author", "plan", "judge", "think", "plan",
                                 "judge", "summarizer"]
    assert not (ws / "guess.md").exists()
    assert "Look for the file first." in of(events, "thought")[0].next_round_strategy


def _calls(messages: list[dict]) -> list[tuple[str, dict]]:
    return [(c["function"]["name"], json.loads(c["function"]["arguments"]))
            for m in messages for c in m.get("tool_calls") or []]


def test_the_history_holds_each_rounds_calls_once(ws: Path) -> None:
    verdict = judge([1], [2], completed=False, action="continue_phase", summary="One read failed.",
                    next_tasks=[task(1, "list_files")])
    verdict["arguments"]["task_evaluation"].insert(0, {
        "task_id": 1, "status": "done", "quality_score": 9, "comment": "read it"})
    events, model = run([
        analysis("Read then note"), DRAFT,
        plan(task(1, "read_file", path="README.md"), task(2, "read_file", path="missing.md"),
             reasoning="read both"),
        verdict,
        judge([1], summary="Listed the files."),
        summary(),
    ], ws)
    assert stages_of(events) == ["request_analyser", "author", "plan", "judge", "judge",
                                 "summarizer"]
    first_judge, second_judge = model.requests[3]["messages"], model.requests[4]["messages"]
    # the Plan call (and what asked for it) left the history once its calls ran: they are
    # there with their results
    assert [name for name, _ in _calls(first_judge)] == ["read_file", "read_file"]
    assert "# hello" in first_judge[-3]["content"]
    assert not any("plan_tool_call" in str(m.get("content")) for m in first_judge)
    assert "plan_tool_call" in model.requests[2]["messages"][-1]["content"]
    # the verdict stays, without the next tasks (run next) and the verdict on a done task
    calls = _calls(second_judge)
    assert [name for name, _ in calls] == ["read_file", "read_file", "judge_tasks", "list_files"]
    kept = calls[2][1]
    assert "next_tasks" not in kept and kept["user_summary"] == "One read failed."
    assert [v["task_id"] for v in kept["task_evaluation"]] == [2]
    assert {(e.round, e.task_id): e.status for e in of(events, "task_finished")} == {
        (1, 1): "done", (1, 2): "failed", (2, 1): "done"}
    assert of(events, "tasks_planned")[0].reasoning == "read both"  # the person still sees it


def test_later_rounds_see_earlier_results_cut_to_their_first_lines(ws: Path) -> None:
    (ws / "guide.md").write_text("".join(f"Rule {n}: keep the port at 80{n:02}.\n"
                                         for n in range(1, 60)))
    events, model = run([
        analysis("Read the guide and note its last rule"), DRAFT,
        plan(task(1, "read_file", path="guide.md")),
        judge([1], completed=False, action="continue_phase", summary="Read the guide.",
              next_tasks=[task(1, "write_file", path="notes.md", content="Rule 59"),
                          task(2, "read_file", path="rules-old.md")]),
        # the round wrote and one read failed: the judge decides it, seeing round 1 cut
        judge([1], [2], summary="Noted the last rule; there are no old rules."),
        summary(),
    ], ws, think_stage="never")
    first_judge, second_judge = model.requests[3]["messages"], model.requests[4]["messages"]
    whole = next(m["content"] for m in first_judge if m.get("tool_call_id") == "task_1_1_1")
    assert "Rule 59: keep the port at 8059." in whole  # the round that read it saw it whole
    cut = next(m["content"] for m in second_judge if m.get("tool_call_id") == "task_1_1_1")
    assert "Rule 1: keep the port at 8001." in cut and "Rule 59" not in cut
    assert "shown whole in round 1, not repeated here (read_file with start_line" in cut
    assert len(cut) < 400 < len(whole)
    assert (ws / "notes.md").read_text() == "Rule 59"
    assert {(e.round, e.task_id): e.status for e in of(events, "task_finished")} == {
        (1, 1): "done", (2, 1): "done", (2, 2): "failed"}


def test_rounds_that_only_read_keep_the_earlier_results_whole(ws: Path) -> None:
    (ws / "guide.md").write_text("".join(f"Rule {n}: keep the port at 80{n:02}.\n"
                                         for n in range(1, 60)))
    events, model = run([
        analysis("Read the guide and the README"), DRAFT,
        plan(task(1, "read_file", path="guide.md")),
        judge([1], completed=False, action="continue_phase", summary="Read the guide.",
              next_tasks=[task(1, "read_file", path="README.md")]),
        judge([1], summary="Read both."),
        summary(),
    ], ws)
    second_judge = model.requests[4]["messages"]
    kept = next(m["content"] for m in second_judge if m.get("tool_call_id") == "task_1_1_1")
    assert "Rule 59: keep the port at 8059." in kept and "not repeated here" not in kept
    assert [e.status for e in of(events, "task_finished")] == ["done", "done"]
