"""What a phase's history keeps of its stage calls and of earlier rounds' results."""

from __future__ import annotations

import json

from core.engine.phase.messages import drop_plan_call, shorten_earlier_results, trim_verdict
from core.engine.stages.caller import assistant_calls, tool_message
from core.engine.execution.task_runner import execution_messages
from core.llm.base import ToolCall
from core.shapes.task import Task

LONG = "\n".join(f"{n:>6}\tline {n} of the file" for n in range(1, 80))


def done(tid: int, round_no: int, tool: str, result: str, **arguments: object) -> Task:
    task = Task(id=tid, title="", description="", tool=tool, arguments=dict(arguments),
                round=round_no)
    task.move("running")
    task.finish(True, result, "")
    return task


def test_results_of_earlier_rounds_are_cut_to_their_first_lines_and_say_so() -> None:
    first = [done(1, 1, "read_file", LONG, path="a.py"), done(2, 1, "list_files", "a.py")]
    second = [done(1, 2, "run_command", LONG, command="cat a.py")]
    messages = [{"role": "user", "content": "go"}] + execution_messages(first, 1, 1)
    sent = list(messages)
    messages += execution_messages(second, 1, 2)
    shorten_earlier_results(messages, 1, 2)
    read, listed, command = messages[2]["content"], messages[3]["content"], messages[-1]["content"]
    assert read.startswith("     1\tline 1 of the file\n") and len(read) < 400
    kept = read.split("\n[…")[0]
    assert LONG.startswith(kept + "\n")  # whole lines
    assert (f"[… {len(LONG) - len(kept):,} more characters, shown whole in round 1, not "
            "repeated here (read_file with start_line and end_line shows any lines again)]"
            in read)
    assert listed == "a.py" and command == LONG  # short results and this round's stay
    assert sent[2]["content"] == LONG  # what an earlier request sent is not changed
    again = [dict(m) for m in messages]
    shorten_earlier_results(again, 1, 3)
    assert again[2] == messages[2] and "shown whole in round 2, not repeated here]" \
        in again[-1]["content"]


def test_other_phases_and_other_calls_are_left_as_they_are() -> None:
    other_phase = execution_messages([done(1, 1, "read_file", LONG, path="a.py")], 2, 1)
    stage = [assistant_calls([ToolCall(id="call_1", name="judge_tasks", arguments="{}")]),
             tool_message("call_1", LONG)]
    messages = other_phase + stage
    shorten_earlier_results(messages, 1, 5)
    assert messages[1]["content"] == LONG and messages[-1]["content"] == LONG


def test_the_plan_call_goes_only_when_it_ends_the_history() -> None:
    plan = [assistant_calls([ToolCall(id="c1", name="plan_tool_call", arguments="{}")]),
            tool_message("c1", "Accepted: 1 task(s).")]
    intro = {"role": "user", "content": "Phase 1 of 1: Main"}
    messages = [intro, {"role": "user", "content": "Round 1: plan"}] + plan
    drop_plan_call(messages)
    assert messages == [intro]
    judged = [assistant_calls([ToolCall(id="c2", name="judge_tasks", arguments="{}")]),
              tool_message("c2", "Verdict recorded.")]
    kept = list(judged)
    drop_plan_call(kept)
    assert kept == judged


def test_a_verdict_keeps_what_it_says_about_tasks_that_did_not_succeed() -> None:
    arguments = {"user_summary": "One read failed.", "next_action": "continue_phase",
                 "task_evaluation": [{"task_id": 1, "status": "done", "comment": "ok"},
                                     {"task_id": 2, "status": "partial", "comment": "half"}],
                 "next_tasks": [{"tool": "read_file", "arguments": {"path": "b.py"}}]}
    message = assistant_calls([ToolCall(id="c", name="judge_tasks",
                                        arguments=json.dumps(arguments))])
    trim_verdict(message)
    kept = json.loads(message["tool_calls"][0]["function"]["arguments"])
    assert kept == {"user_summary": "One read failed.", "next_action": "continue_phase",
                    "task_evaluation": [{"task_id": 2, "status": "partial", "comment": "half"}]}
    broken = assistant_calls([ToolCall(id="c", name="judge_tasks", arguments="{not json")])
    trim_verdict(broken)
    assert broken["tool_calls"][0]["function"]["arguments"] == "{not json"
