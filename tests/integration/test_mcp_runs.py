"""Runs that use real MCP servers from the package index, started as subprocesses."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from core.events import Event
from core.llm.scripted import ScriptedModel
from core.engine.build import create_engine
from tests.support.mcp_servers import (git_repository, git_server, of_kind, server_pids,
                                       statuses, time_server, wait_until_gone)
from tests.support.script import analysis, judge, plan, reading, run, settings, summary, task


def tool_messages(request: dict) -> str:
    return "\n".join(m["content"] for m in request["messages"] if m["role"] == "tool")


def test_a_phase_run_offers_runs_and_judges_the_time_servers_tool(tmp_path: Path) -> None:
    """The reading names the tool the request needs, so round 1 is planned (no draft)."""
    replies = [analysis("Tell the current UTC time",
                        **reading("question", tools=("time__get_current_time",))),
               plan(task(1, "time__get_current_time", timezone="UTC")),
               judge([1]), summary("It is known.")]
    events, model = run(replies, tmp_path, request="What is the current UTC time?",
                        mcp_servers=(time_server(),))

    planning = model.requests[1]
    assert "time__get_current_time" in json.dumps(planning["tools"])
    branches = planning["tools"][0]["function"]["parameters"]["properties"]["tasks"]["items"]
    mcp = [b["properties"]["arguments"] for b in branches["anyOf"]
           if b["properties"]["tool"]["enum"] == ["time__get_current_time"]]
    assert mcp and mcp[0]["required"] == ["timezone"]  # the plan schema knows MCP parameters
    assert mcp[0]["properties"]["timezone"]["type"] == "string"
    system = planning["messages"][0]["content"]
    assert ("- time__get_current_time(timezone: string) — [MCP server time] Get current time "
            "in a specific timezone") in system
    assert "- time__convert_time(source_timezone: string, time: string, target_timezone: " \
           "string)" in system
    finished = of_kind(events, "task_finished")
    assert [(t.tool, t.status) for t in finished] == [("time__get_current_time", "done")]
    answer = json.loads(finished[0].result)
    assert answer["timezone"] == "UTC" and answer["datetime"].endswith("+00:00")
    judged = tool_messages(model.requests[2])
    assert '"timezone": "UTC"' in judged and answer["datetime"] in judged
    assert statuses(events) == [("time", "started"), ("time", "stopped")]
    started = of_kind(events, "mcp_server")[0]
    assert started.tools == ["time__get_current_time", "time__convert_time"]
    assert [e.kind for e in events][-2:] == ["summary", "run_finished"]
    assert of_kind(events, "summary")[0].generated_by == "model"
    assert wait_until_gone(list(server_pids(events).values())) == []


def test_the_classic_loop_offers_mcp_tools_as_functions(tmp_path: Path) -> None:
    """The analysis comes first (requests[0]); the loop's first call offers the tools."""
    replies = [analysis("Tell the time in Tokyo",
                        **reading("question", tools=("time__get_current_time",))),
               {"tool": "time__get_current_time", "arguments": {"timezone": "Asia/Tokyo"}},
               {"text": "In Tokyo it is the time the server said."}]
    events, model = run(replies, tmp_path, request="What time is it in Tokyo?",
                        use_phase_task=False, mcp_servers=(time_server(),))

    assert model.requests[0]["tools"][0]["function"]["name"] == "request_analyser"
    functions = {t["function"]["name"]: t["function"] for t in model.requests[1]["tools"]}
    assert {"read_file", "time__get_current_time", "time__convert_time"} <= set(functions)
    parameters = functions["time__get_current_time"]["parameters"]
    assert parameters["required"] == ["timezone"]
    assert parameters["properties"]["timezone"]["type"] == "string"
    assert '"timezone": "Asia/Tokyo"' in tool_messages(model.requests[2])
    assert of_kind(events, "task_finished")[0].status == "done"
    assert of_kind(events, "summary")[0].final_summary.startswith("In Tokyo")
    assert wait_until_gone(list(server_pids(events).values())) == []


def test_a_run_reads_git_log_through_the_git_server(tmp_path: Path) -> None:
    repo = git_repository(tmp_path / "repo", ["Add the parser", "Fix the lexer's tabs"])
    replies = [analysis("Show the recent commits", **reading("question", tools=("git__git_log",))),
               plan(task(1, "git__git_log", repo_path=str(repo), max_count=5)),
               judge([1]), summary("Listed the two recent commits.")]
    events, model = run(replies, tmp_path / "repo", request="Show the recent commits.",
                        mcp_servers=(git_server(repo),))

    finished = of_kind(events, "task_finished")
    assert [(t.tool, t.status) for t in finished] == [("git__git_log", "done")], finished
    log = finished[0].result
    assert log.startswith("Commit history:")
    assert log.index("Fix the lexer's tabs") < log.index("Add the parser")
    assert "Fix the lexer's tabs" in tool_messages(model.requests[2])
    assert of_kind(events, "summary")[0].generated_by == "model"
    assert wait_until_gone(list(server_pids(events).values())) == []


async def answered_run(replies: list[dict], workspace: Path, decisions: list[str],
                       **values: object) -> tuple[list[Event], ScriptedModel]:
    """A run whose approval requests get ``decisions``, in order."""
    model = ScriptedModel(replies)
    engine = create_engine(settings(**values), workspace, model=model)
    events: list[Event] = []
    async for event in engine.run("what time is it?"):
        events.append(event)
        if event.kind == "approval_requested":
            engine.answer_approval(event.request_id, decisions.pop(0))  # type: ignore[attr-defined]
    return events, model


def test_mcp_tools_ask_first_and_approve_for_this_run_covers_that_tool(tmp_path: Path) -> None:
    needs_time = reading("question", tools=("time__get_current_time",))
    replies = [analysis("Tell two times", **needs_time),
               plan(task(1, "time__get_current_time", timezone="UTC"),
                    task(2, "time__get_current_time", [1], timezone="Europe/Paris"),
                    task(3, "time__convert_time", [2], source_timezone="UTC", time="12:00",
                         target_timezone="Asia/Tokyo")),
               judge([1, 2], [3], completed=False, reason="the conversion was denied"),
               summary("Told two times; the conversion was denied.")]
    events, _ = asyncio.run(answered_run(replies, tmp_path, ["run", "deny"],
                                         mcp_servers=(time_server(approval="ask"),)))

    asked = of_kind(events, "approval_requested")
    assert [a.action for a in asked] == ["mcp", "mcp"]
    assert asked[0].detail.startswith("time → get_current_time\n")
    assert '"timezone": "UTC"' in asked[0].detail
    assert asked[1].detail.startswith("time → convert_time\n")
    finished = {t.task_id: t for t in of_kind(events, "task_finished")}
    assert finished[1].status == finished[2].status == "done"
    assert json.loads(finished[2].result)["timezone"] == "Europe/Paris"
    assert (finished[3].status, finished[3].error) == ("failed", "denied by user")
    assert wait_until_gone(list(server_pids(events).values())) == []
