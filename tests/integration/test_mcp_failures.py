"""MCP servers that fail: the run goes on, the reason is clear, no process survives."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.events import Event
from core.llm.scripted import ScriptedModel
from core.engine.build import create_engine
from tests.support.mcp_servers import (alive, faulty_server, of_kind, server_pids, statuses,
                                       time_server, wait_until_gone)
from tests.support.script import analysis, judge, plan, reading, run, settings, summary, task


def needs(tool: str) -> dict:
    """The reading of a request that needs ``tool`` run first: round 1 is planned, no draft."""
    return reading("question", tools=(tool,))


def ends_once(events: list[Event]) -> bool:
    kinds = [e.kind for e in events]
    return kinds.count("summary") == kinds.count("run_finished") == 1 and \
        kinds[-1] == "run_finished"


def test_a_server_that_exits_at_once_is_reported_and_the_others_still_work(
        tmp_path: Path) -> None:
    replies = [analysis("Tell the time", **needs("time__get_current_time")),
               plan(task(1, "time__get_current_time", timezone="UTC")),
               judge([1]), summary("Done without the broken server.")]
    events, model = run(replies, tmp_path,
                        mcp_servers=(faulty_server("exit", "broken"), time_server()))

    failed = [e for e in of_kind(events, "mcp_server") if e.status == "failed"]
    assert [e.name for e in failed] == ["broken"]
    assert "exited with code 3" in failed[0].error
    assert "faulty server: starting in mode exit" in failed[0].stderr
    assert "broken__" not in str(model.requests[1]["tools"])
    assert of_kind(events, "task_finished")[0].status == "done"
    assert ends_once(events) and of_kind(events, "summary")[0].generated_by == "model"
    assert wait_until_gone(list(server_pids(events).values())) == []


def test_a_server_that_never_answers_times_out_at_start(tmp_path: Path) -> None:
    replies = [analysis("Look around"), {"text": "The folder holds no file yet."},  # the draft
               plan(task(1, "list_files")), judge([1]), summary()]
    events, _ = run(replies, tmp_path, mcp_servers=(faulty_server("hang", "stuck"),),
                    mcp_start_timeout_s=1.0)

    failed = of_kind(events, "mcp_server")
    assert [(e.name, e.status) for e in failed] == [("stuck", "failed")]
    assert failed[0].error == "MCP server 'stuck' did not start within 1 s"
    assert "faulty server: starting in mode hang" in failed[0].stderr
    assert of_kind(events, "task_finished")[0].status == "done"
    assert ends_once(events)
    assert failed[0].pid and wait_until_gone([failed[0].pid]) == []


def test_a_missing_command_is_a_clear_failure(tmp_path: Path) -> None:
    from core.shapes.mcp_server import McpServer

    replies = [analysis("Look around"), plan(task(1, "list_files")), judge([1]), summary()]
    events, _ = run(replies, tmp_path, mcp_servers=(McpServer("ghost", "no-such-mcp-server"),))

    failed = of_kind(events, "mcp_server")
    assert [(e.name, e.status) for e in failed] == [("ghost", "failed")]
    assert failed[0].error == ("MCP server 'ghost' could not be started: command not found or "
                               "not executable: no-such-mcp-server")
    assert ends_once(events)


def test_a_server_that_crashes_mid_call_fails_that_task_and_the_next_call(
        tmp_path: Path) -> None:
    replies = [analysis("Break it", **needs("faulty__crash")),
               plan(task(1, "faulty__crash"), task(2, "faulty__echo", [1], text="hi")),
               judge([], [1, 2], action="end_phase", completed=False, reason="crashed"),
               summary("The server crashed.")]
    events, model = run(replies, tmp_path, mcp_servers=(faulty_server("tools"),))

    finished = {t.task_id: t for t in of_kind(events, "task_finished")}
    assert finished[1].status == "failed"
    assert finished[1].error.startswith("MCP server 'faulty' failed during crash: exited with "
                                        "code 5")
    assert "faulty server: crashing on purpose" in finished[1].error
    assert finished[2].status == "blocked"
    assert statuses(events) == [("faulty", "started"), ("faulty", "failed")]
    died = of_kind(events, "mcp_server")[1]
    assert "crashing on purpose" in died.stderr
    assert "exited with code 5" in str(model.requests[2]["messages"])
    assert ends_once(events)
    assert wait_until_gone(list(server_pids(events).values())) == []


def test_a_call_that_takes_too_long_fails_its_task_and_the_server_is_stopped(
        tmp_path: Path) -> None:
    replies = [analysis("Wait", **needs("faulty__stall")),
               plan(task(1, "faulty__stall"), task(2, "faulty__echo", text="x")),
               judge([2], [1], completed=False, reason="the stall call timed out"),
               summary("One call stalled; the echo answered.")]
    events, _ = run(replies, tmp_path, mcp_servers=(faulty_server("tools"),),
                    mcp_call_timeout_s=1.0)

    finished = {t.task_id: t for t in of_kind(events, "task_finished")}
    assert (finished[1].status, finished[1].error) == (
        "failed", "MCP server 'faulty' did not answer stall within 1 s\nIts stderr ends with:\n"
                  "faulty server: starting in mode tools")
    assert (finished[2].status, finished[2].result) == ("done", "x")
    assert statuses(events) == [("faulty", "started"), ("faulty", "stopped")]
    assert wait_until_gone(list(server_pids(events).values())) == []


def test_processes_a_server_started_are_stopped_with_it(tmp_path: Path) -> None:
    replies = [analysis("Spawn", **needs("faulty__spawn_child")),
               plan(task(1, "faulty__spawn_child")), judge([1]), summary()]
    events, _ = run(replies, tmp_path, mcp_servers=(faulty_server("tools"),))

    child = int(of_kind(events, "task_finished")[0].result)
    assert wait_until_gone([child, *server_pids(events).values()]) == []


async def stopped_during_a_call(workspace: Path) -> list[Event]:
    replies = [analysis("Wait", **needs("faulty__stall")), plan(task(1, "faulty__stall")),
               summary()]
    engine = create_engine(settings(mcp_servers=(faulty_server("tools"),)), workspace,
                           model=ScriptedModel(replies))
    events: list[Event] = []
    async for event in engine.run("wait for the stalled call"):
        events.append(event)
        if event.kind == "task_started":
            engine.cancel()
    return events


def test_stop_during_an_mcp_call_stops_the_server(tmp_path: Path) -> None:
    events = asyncio.run(stopped_during_a_call(tmp_path))

    pids = list(server_pids(events).values())
    assert pids and not any(alive(p) for p in pids)
    assert of_kind(events, "task_finished")[0].error == "cancelled: the run was stopped"
    assert of_kind(events, "run_finished")[0].status == "cancelled"
    assert statuses(events) == [("faulty", "started"), ("faulty", "stopped")]
    assert wait_until_gone(pids) == []


def test_a_secret_in_a_servers_environment_never_reaches_the_events(tmp_path: Path) -> None:
    import dataclasses

    token = "tok-5ecret-0123456789"
    server = dataclasses.replace(faulty_server("tools"), env=(("FAULTY_TOKEN", token),))
    replies = [analysis("Echo", **needs("faulty__echo")),
               plan(task(1, "faulty__echo", text=f"the token is {token}")),
               judge([1]), summary()]
    events, _ = run(replies, tmp_path, mcp_servers=(server,))

    stopped = of_kind(events, "mcp_server")[-1]
    assert "faulty server: using token [redacted]" in stopped.stderr
    assert of_kind(events, "task_finished")[0].result == "the token is [redacted]"
    assert token not in repr(events)
