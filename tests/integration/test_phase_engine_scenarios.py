"""The phase engine end to end on a scripted model and a real temp workspace."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from core.events import RunFinished, Summary
from tests.support.script import (analysis, error, judge, kinds, of, phases, plan, run,
                                  summary, task, think)


# The one-shot draft comes first in round 1 of the first phase. Answered in words it makes
# the run a question; cut off inside its block it gives no file and is no answer in words.
# Either way round 1 is planned.
ANSWER = {"text": "The workspace holds config.py and README.md."}
NO_DRAFT = {"text": "config.py\n```python\nPORT ="}


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "config.py").write_text("PORT = 8000\nDEBUG = True\n", encoding="utf-8")
    (folder / "README.md").write_text("# demo\n", encoding="utf-8")
    return folder


def ending(events: list) -> tuple[Summary, RunFinished]:
    assert kinds(events)[-2:] == ["summary", "run_finished"]
    assert kinds(events).count("summary") == 1 and kinds(events).count("run_finished") == 1
    return events[-2], events[-1]


def test_one_phase_simple_task_edits_the_file(ws: Path) -> None:
    events, model = run([
        analysis("Set the port to 8080"), NO_DRAFT,
        plan(task(1, "read_file", path="config.py"),
             task(2, "edit_file", [1], path="config.py", old_text="PORT = 8000",
                  new_text="PORT = 8080")),
        summary("## Port changed\n\n- `config.py` now uses 8080"),
    ], ws)
    final, finished = ending(events)
    assert (ws / "config.py").read_text() == "PORT = 8080\nDEBUG = True\n"
    statuses = {e.task_id: e.status for e in of(events, "task_finished")}
    assert statuses == {1: "done", 2: "done"}
    assert final.generated_by == "model" and "8080" in final.final_summary
    assert (final.phases_completed, final.total_tasks_executed, final.total_rounds) == (1, 2, 1)
    assert finished.status == "completed" and finished.llm_calls == 4
    # a simple one-phase request gets its phase without a phase_planner call, and a round
    # whose every task succeeded and whose write parses is decided without a judge call
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author", "plan",
                                                           "summarizer"]
    assert [p["goal"] for p in of(events, "phases_planned")[0].phases] == ["Set the port to 8080"]
    assert of(events, "thought") == []  # an unambiguous verdict skips Think under "auto"
    judged = of(events, "judged")[0]
    assert judged.by_engine and judged.user_summary == (
        "Decided from the facts: config.py written; no check ran on it.")
    assert (judged.completion_rate, judged.success_rate) == (1.0, 1.0)
    assert (judged.quality_average, judged.tasks_scored, judged.tasks_total) == (None, 0, 2)
    assert [e.path for e in of(events, "file_changed")] == ["config.py"]
    assert model.remaining == 0


def test_three_phases_with_failure_retry_and_replan(ws: Path) -> None:
    events, _ = run([
        analysis("Understand, fix and document", phases=3),
        phases((1, "Understand", [], 1), (2, "Fix", [1], 2), (3, "Document", [2], 2)),
        NO_DRAFT,
        plan(task(1, "list_files"), task(2, "read_file", path="config.py")),
        judge([1, 2]),
        plan(task(1, "read_file", path="missing.py"),
             task(2, "edit_file", [1], path="missing.py", old_text="a", new_text="b"),
             task(3, "edit_file", path="config.py", old_text="DEBUG = True", new_text="DEBUG = False")),
        judge([3], [1], completed=False, action="retry_failed", reason="missing.py does not exist"),
        plan(task(1, "read_file", path="config.py")),
        judge([1], completed=True),
        plan(task(1, "read_file", path="CHANGES.md"),
             task(2, "write_file", [1], path="NOTES.md", content="draft")),
        judge([], [1, 2], completed=False, action="replan", level="planning",
              reason="there is no CHANGES.md"),
        plan(task(1, "write_file", path="NOTES.md", content="Debug is off.\n")),
        summary(),  # the replanned write is clean: the engine ends the phase
    ], ws)
    final, finished = ending(events)
    assert finished.status == "completed"
    assert [e.mode for e in of(events, "tasks_planned")] == ["plan", "plan", "retry", "plan",
                                                             "replan"]
    fix_round = {e.task_id: e.status for e in of(events, "task_finished")
                 if e.phase_id == 2 and e.round == 1}
    assert fix_round == {1: "failed", 2: "blocked", 3: "done"}
    assert "DEBUG = False" in (ws / "config.py").read_text()
    assert (ws / "NOTES.md").read_text() == "Debug is off.\n"
    document_round = {e.task_id: e.status for e in of(events, "task_finished")
                      if e.phase_id == 3 and e.round == 1}
    assert document_round == {1: "failed", 2: "blocked"}
    assert [(j.phase_id, j.round, j.by_engine) for j in of(events, "judged")] == [
        (1, 1, False), (2, 1, False), (2, 2, False), (3, 1, False), (3, 2, True)]
    assert [e.status for e in of(events, "phase_finished")] == ["completed"] * 3
    assert final.phases_completed == 3 and final.total_rounds == 5


def test_retry_prompt_carries_only_the_failed_tasks_and_reasons(ws: Path) -> None:
    events, model = run([
        analysis(complexity="complex"), phases((1, "Fix", [], 2)), ANSWER,
        plan(task(1, "read_file", path="nope.txt"), task(2, "read_file", path="README.md")),
        judge([2], [1], completed=False, action="retry_failed", reason="nope.txt is absent"),
        plan(task(1, "read_file", path="config.py")),
        judge([1]),
        summary(),
    ], ws)
    ending(events)
    retry_call = model.requests[5]  # analysis, planner, draft, plan, judge, the retry plan
    instruction = retry_call["messages"][-1]["content"]
    assert "Retry ONLY the failed tasks" in instruction
    assert "nope.txt" in instruction and "task 1" in instruction
    assert "- task 2 " not in instruction


def test_budget_exhausted_summarizer_is_outside_the_budget(ws: Path) -> None:
    replies = [analysis(phases=5), phases(*[(i, f"P{i}", [], 3) for i in range(1, 6)]),
               ANSWER]  # the phase planner and the draft are the first two counted calls
    for n in range(14):  # each round new work: a repeated call would stall the phase
        replies += [plan(task(1, "search_code", pattern=f"word{n}")),
                    judge([1], completed=False, action="continue_phase")]
    replies += [summary()]  # the 30th counted call is the last judge
    events, model = run(replies, ws, max_iterations=30, think_stage="never")
    assert model.remaining == 0
    calls = of(events, "llm_call")
    assert sum(c.counted_in_budget for c in calls) == 30
    assert calls[0].stage == "request_analyser" and not calls[0].counted_in_budget
    assert calls[-1].stage == "summarizer" and not calls[-1].counted_in_budget
    assert len(calls) == 32  # analysis + 30 counted + the summarizer as the 31st after analysis
    final, finished = ending(events)
    assert finished.status == "budget_exhausted" and finished.llm_calls == 32


def test_malformed_plan_arguments_are_repaired_on_second_try(ws: Path) -> None:
    events, model = run([
        analysis(complexity="complex"), phases((1, "Look", [])), ANSWER,
        {"tool": "plan_tool_call", "raw_arguments": "{not json"},
        plan(task(1, "list_files")),
        judge([1]), summary(),
    ], ws)
    final, finished = ending(events)
    assert finished.status == "completed"
    assert [e.status for e in of(events, "task_finished")] == ["done"]
    notices = [n.message for n in of(events, "notice")]
    assert any("not valid JSON" in n and "asking the model to correct it" in n for n in notices)
    repair = model.requests[4]["messages"]
    # echoed as text: a runtime that parses tool-call arguments in the history would refuse it
    assert repair[-2] == {"role": "assistant", "content": "plan_tool_call({not json)"}
    assert repair[-1]["role"] == "user" and "not valid JSON" in repair[-1]["content"]
    assert all(json.loads(c["function"]["arguments"]) is not None
               for m in repair for c in m.get("tool_calls") or [])


def test_nine_tasks_are_rejected(ws: Path) -> None:
    nine = plan(*[task(i, "list_files") for i in range(1, 10)])
    events, _ = run([analysis(complexity="complex"), phases((1, "Look", [], 1)), ANSWER,
                     nine, nine, nine, nine, summary()], ws)
    final, finished = ending(events)
    assert of(events, "task_finished") == []
    assert any("at most 8 tasks" in n.message for n in of(events, "notice"))
    assert [e.status for e in of(events, "phase_finished")] == ["failed"]
    assert finished.status == "completed" and final.generated_by == "model"


def test_phase_dependency_cycle_is_repaired_not_fatal(ws: Path) -> None:
    cyclic = phases((1, "A", [2]), (2, "B", [1]))
    events, model = run([analysis(phases=2), cyclic, ANSWER,
                         plan(task(1, "list_files")), judge([1]),
                         plan(task(1, "read_file", path="README.md")), judge([1]), summary()], ws)
    ending(events)
    assert any("phase plan was repaired" in n.message and "dependency cycle 1 → 2 → 1"
               in n.message for n in of(events, "notice"))
    planned = of(events, "phases_planned")[0]
    assert [(p["name"], p["dependencies"]) for p in planned.phases] == [("A", []), ("B", [1])]
    assert [e.name for e in of(events, "phase_started")] == ["A", "B"]
    assert [e.status for e in of(events, "task_finished")] == ["done", "done"]
    assert model.remaining == 0


def test_unknown_tool_in_plan_is_refused_then_repaired(ws: Path) -> None:
    bad = plan(task(1, "delete_everything"))
    events, _ = run([analysis(complexity="complex"), phases((1, "Look", [])), ANSWER, bad,
                     plan(task(1, "list_files")), judge([1]), summary()], ws)
    ending(events)
    assert any("delete_everything" in n.message for n in of(events, "notice"))
    assert [e.tool for e in of(events, "task_finished")] == ["list_files"]


def test_clarification_ends_the_run_without_phases(ws: Path) -> None:
    events, model = run([analysis(questions=["Which file?", "Which port?"])], ws)
    final, finished = ending(events)
    assert of(events, "clarification")[0].questions == ["Which file?", "Which port?"]
    assert of(events, "phase_started") == []
    assert finished.status == "clarification_needed" and finished.llm_calls == 1
    assert "Which file?" not in final.final_summary or final.generated_by == "fallback"
    assert len(model.requests) == 1


def test_api_500_during_judge_degrades_the_round(ws: Path) -> None:
    events, _ = run([
        analysis(complexity="complex"), phases((1, "Look", [], 1)), ANSWER,
        plan(task(1, "list_files")), error(500),
        plan(task(1, "read_file", path="README.md")), judge([1]),
        summary(),
    ], ws)
    final, finished = ending(events)
    judged = of(events, "judged")
    assert judged[0].degraded and not judged[0].phase_completed
    assert "could not be used" in judged[0].user_summary
    assert judged[1].phase_completed and finished.status == "completed"
    assert any("HTTP 500" in n.message for n in of(events, "notice"))


def test_summarizer_failure_gives_a_fallback_summary(ws: Path) -> None:
    events, _ = run([
        analysis("Look around", complexity="complex"), phases((1, "Look", [])), ANSWER,
        plan(task(1, "list_files")), judge([1], summary="Listed the workspace files."),
        error(500), error(500),
    ], ws)
    final, finished = ending(events)
    assert final.generated_by == "fallback"
    assert "Listed the workspace files." in final.final_summary
    assert "Phase 1: Look" in final.final_summary
    assert (final.phases_completed, final.total_tasks_executed) == (1, 1)
    assert finished.status == "completed"


def test_replies_running_out_still_end_with_a_fallback_summary(ws: Path) -> None:
    events, _ = run([analysis(complexity="complex"), phases((1, "Look", []))], ws)
    final, finished = ending(events)
    assert final.generated_by == "fallback"
    assert finished.status == "failed"
    assert "no reply left" in final.final_summary


def test_cancel_mid_round_still_summarises(ws: Path) -> None:
    async def scenario() -> list:
        events: list = []
        replies = [analysis(complexity="complex"), phases((1, "Wait", [])), NO_DRAFT,
                   plan(task(1, "run_command", command="sleep 30")),
                   summary("## Stopped\n\nThe person stopped the run.")]
        from core.llm.scripted import ScriptedModel
        from core.engine.build import create_engine
        from tests.support.script import settings

        engine = create_engine(settings(), ws, model=ScriptedModel(replies))

        async def consume() -> None:
            async for event in engine.run("wait a while"):
                events.append(event)

        consumer = asyncio.create_task(consume())
        while not any(e.kind == "task_started" for e in events):
            await asyncio.sleep(0.02)
        consumer.cancel()
        await asyncio.wait_for(consumer, 10)
        return events

    events = asyncio.run(scenario())
    final, finished = ending(events)
    assert finished.status == "cancelled"
    assert [e.status for e in of(events, "task_finished")] == ["failed"]
    assert "cancelled" in of(events, "task_finished")[0].error
    assert final.generated_by == "model" and "Stopped" in final.final_summary



def test_offline_model_clarification_is_announced_and_the_run_goes_on(ws: Path) -> None:
    from core.llm.base import Capabilities
    from core.llm.scripted import ScriptedModel
    from core.engine.build import create_engine
    from tests.support.script import settings

    class OfflineScripted(ScriptedModel):
        provider = "embedded"
        capabilities = Capabilities(clarification_trusted=False)

    model = OfflineScripted([analysis(questions=["What do you mean?"], complexity="complex"),
                             phases((1, "Look", [])), ANSWER,
                             plan(task(1, "list_files")), judge([1]), summary()])

    async def go() -> list:
        engine = create_engine(settings(), ws, model=model)
        return [e async for e in engine.run("list the files")]

    events = asyncio.run(go())
    final, finished = ending(events)
    assert of(events, "clarification") == []
    assert any("model asked for clarification" in n.message
               for n in of(events, "notice"))
    assert finished.status == "completed" and len(of(events, "task_finished")) == 1


def test_comprehension_problem_reanalyses_the_request_once(ws: Path) -> None:
    events, model = run([
        analysis("Delete the README", complexity="complex"), phases((1, "Delete", [], 2)),
        NO_DRAFT,  # asked once per run: the re-analysed run's first round is planned too
        plan(task(1, "read_file", path="README.md")),
        judge([], [1], completed=False, action="replan", level="comprehension",
              reason="the person wants the README rewritten, not deleted"),
        analysis("Rewrite the README", complexity="complex"), phases((1, "Rewrite", [])),
        plan(task(1, "write_file", path="README.md", content="# rewritten\n", overwrite=True)),
        summary("## README rewritten\n\nThe request was understood again."),
    ], ws)
    final, finished = ending(events)
    assert [e.core_goal for e in of(events, "request_analysed")] == ["Delete the README",
                                                                     "Rewrite the README"]
    assert [e.status for e in of(events, "phase_finished")] == ["failed", "completed"]
    reanalysis = model.requests[5]["messages"][-1]["content"]
    assert "comprehension problem" in reanalysis and "rewritten, not deleted" in reanalysis
    assert (ws / "README.md").read_text() == "# rewritten\n"
    assert finished.status == "completed"


def test_think_always_runs_and_can_keep_a_phase_going(ws: Path) -> None:
    events, model = run([
        analysis(complexity="complex"), phases((1, "Look", [], 2)), ANSWER,
        plan(task(1, "list_files")), judge([1]),
        think(False, True, "also read the config"),
        plan(task(1, "read_file", path="config.py")), judge([1]), think(True, False, ""),
        summary(),
    ], ws, think_stage="always")
    final, finished = ending(events)
    thoughts = of(events, "thought")
    assert [t.continue_phase for t in thoughts] == [True, False]
    assert "also read the config" in model.requests[6]["messages"][-1]["content"]
    assert of(events, "phase_finished")[0].rounds == 2 and finished.status == "completed"


def test_each_phase_records_its_own_llm_calls_and_tokens(ws: Path) -> None:
    from core.llm.scripted import ScriptedModel
    from core.engine.build import create_engine
    from tests.support.script import settings

    replies = [analysis(phases=2), phases((1, "A", []), (2, "B", [1])), ANSWER,
               plan(task(1, "list_files")), judge([1]),
               plan(task(1, "list_files")), judge([], [1], completed=True,
                                                   action="continue_phase"),  # open: Think
               think(True, False), summary()]

    async def go() -> tuple:
        engine = create_engine(settings(), ws, model=ScriptedModel(replies))
        events = [e async for e in engine.run("two phases")]
        return engine, events

    engine, events = asyncio.run(go())
    first, second = (r.phase for r in engine.records)
    # draft+plan+judge, plan+judge+think
    assert (first.llm_calls, second.llm_calls) == (3, 3)
    calls = of(events, "llm_call")
    assert first.prompt_tokens == sum(c.prompt_tokens for c in calls[2:5])
    assert second.completion_tokens == sum(c.completion_tokens for c in calls[5:8])
