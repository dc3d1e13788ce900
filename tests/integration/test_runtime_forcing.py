"""Forcing on a running engine: a strategy that stops holding is stepped down once and
announced; a repair never sends a runtime what it refuses; cut replies are invalid, and
Stop or a timeout closes the HTTP request."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from core.events import Event
from core.llm.openai_client import OpenAIModel
from core.engine.build import create_engine
from core.engine.stages.schemas import SUMMARY_CHARS
from tests.support.fake_runtimes import FakeRuntime
from tests.support.script import analysis, judge, plan, settings, summary, task

WRITE = {"path": "hello.txt", "content": "hello\n"}


def stages(**changed: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The replies per stage; the clean write round is decided by the engine, so the judge
    is asked only where a test's plan has a task fail. The one-shot draft, asked right after
    the analysis, is a plain call without tools (stage ``"plain"``) that the fakes answer
    "pong": it gives no file, so the first round is planned."""
    base = {"request_analyser": [analysis("Write hello.txt")],
            "plan_tool_call": [plan(task(1, "write_file", **WRITE))],
            "judge_tasks": [judge([1])],
            "summarizer": [summary("Wrote hello.txt.")]}
    return {**base, **changed}


async def drive(server: FakeRuntime, workspace: Path, forcing: str | None,
                stop_at: str = "", timeout_s: float = 5) -> list[Event]:
    """A run; ``stop_at``: Stop is pressed as that stage's request reaches the server."""
    model = OpenAIModel(server.base_url, "fake-model", "k", timeout_s=timeout_s,
                        max_retries=0, forcing=forcing)
    engine = create_engine(settings(), workspace, model=model)
    loop = asyncio.get_running_loop()
    if stop_at:
        server.on_request = lambda stage, _: (
            loop.call_soon_threadsafe(engine.cancel) if stage == stop_at else None)
    events = [event async for event in engine.run("Write hello.txt")]
    await model.aclose()
    return events


def run(server: FakeRuntime, workspace: Path, forcing: str | None = "named", **kw: Any
        ) -> list[Event]:
    with server:
        return asyncio.run(drive(server, workspace, forcing, **kw))


def notices(events: list[Event]) -> list[str]:
    return [e.message for e in events if e.kind == "notice"]


def test_a_strategy_ignored_twice_in_a_row_steps_down_once_and_is_announced(
        tmp_path: Path) -> None:
    as_text = {"as_text": True}
    server = FakeRuntime("openai", stages(
        request_analyser=[{**analysis("Write hello.txt"), **as_text}],
        plan_tool_call=[{**plan(task(1, "write_file", **WRITE)), **as_text}]))
    events = run(server, tmp_path)
    said = notices(events)
    assert [n for n in said if "did not hold" in n] == [
        "Stage calls: 'named' forcing did not hold (the model ignored it in 2 stage replies "
        "in a row); using 'required' for the rest of the run."]
    # the plain draft call between the two stage replies does not break "in a row"
    assert [(r["mode"], r["stage"]) for r in server.requests] == [
        ("named", "request_analyser"), ("plain", "plain"), ("named", "plan_tool_call"),
        ("required", "summarizer")]
    final = next(e for e in events if e.kind == "summary")
    assert final.generated_by == "model" and (tmp_path / "hello.txt").read_text() == "hello\n"


def test_a_server_that_refuses_tools_mid_run_gets_the_stage_without_tools(tmp_path: Path) -> None:
    server = FakeRuntime("no_tools", stages())
    events = run(server, tmp_path, forcing="named")
    assert [(r["mode"], "error" in r["reply"]) for r in server.requests] == [
        ("named", True), ("json_schema", False), ("plain", False), ("json_schema", False),
        ("prompted", False)]  # the draft's plain call has no tools: the server takes it
    said = [n for n in notices(events) if "did not hold" in n]
    assert said == [
        "Stage calls: 'named' forcing did not hold (the server does not accept tools); using "
        "'json_schema' for the rest of the run.",
        "Stage calls: 'json_schema' forcing did not hold (the model ignored it in 2 stage "
        "replies in a row); using 'prompted' for the rest of the run."]
    final = next(e for e in events if e.kind == "summary")
    assert final.generated_by == "model" and (tmp_path / "hello.txt").exists()


def test_a_repair_on_llama_server_never_echoes_unparseable_arguments(tmp_path: Path) -> None:
    broken = {"tool": "plan_tool_call", "raw_arguments": '{"tasks": [{"tool": "write_', "native": True}
    server = FakeRuntime("llama_server", stages(
        plan_tool_call=[broken, plan(task(1, "write_file", **WRITE))]))
    events = run(server, tmp_path, forcing="named")
    assert not [r for r in server.requests if "error" in r["reply"]]
    repair = [r for r in server.requests if r["stage"] == "plan_tool_call"][1]["body"][
        "messages"]
    assert repair[-2]["role"] == "assistant" and "tool_calls" not in repair[-2]
    assert '"write_' in repair[-2]["content"] and repair[-1]["role"] == "user"
    assert (tmp_path / "hello.txt").exists()
    assert events[-1].kind == "run_finished"


def test_required_on_llama_server_runs_to_max_tokens_and_is_handled_as_invalid(
        tmp_path: Path) -> None:
    server = FakeRuntime("llama_server", stages())
    events = run(server, tmp_path, forcing="required")
    first, second = server.requests[0], server.requests[1]
    assert first["mode"] == second["mode"] == "required"
    assert first["body"]["max_tokens"] == first["reply"]["usage"]["completion_tokens"]
    said = notices(events)
    assert any("cut off at its token limit" in n for n in said)
    assert any("using 'json_schema' for the rest of the run" in n for n in said)
    # after the step down: the draft's plain call, then every stage call on json_schema
    assert [r["mode"] for r in server.requests[2:]] == \
        ["plain"] + ["json_schema"] * (len(server.requests) - 3)
    assert events[-1].kind == "run_finished"


def test_every_stage_call_is_bounded(tmp_path: Path) -> None:
    failing = plan(task(1, "write_file", **WRITE), task(2, "read_file", path="missing.txt"))
    server = FakeRuntime("vllm", stages(
        plan_tool_call=[failing],
        judge_tasks=[judge([1], [2], completed=False, reason="missing.txt is not there")]))
    run(server, tmp_path)
    bounds = {r["stage"]: r["body"].get("max_tokens") for r in server.requests}
    assert set(bounds) == {"request_analyser", "plain", "plan_tool_call", "judge_tasks",
                           "summarizer"}  # "plain": the one-shot draft
    assert all(isinstance(b, int) and 512 <= b <= 8192 for b in bounds.values())
    # room for the longest summary the schema allows (about 4 characters a token)
    assert bounds["summarizer"] * 4 > SUMMARY_CHARS


def test_stop_closes_the_http_request(tmp_path: Path) -> None:
    server = FakeRuntime("vllm", stages(plan_tool_call=[{"fault": "hang"}]), hang_s=30)
    events = run(server, tmp_path, stop_at="plan_tool_call")
    assert server.closed_by_client.wait(10)
    assert events[-1].kind == "run_finished" and events[-1].status == "cancelled"


def test_a_per_call_timeout_closes_the_http_request(tmp_path: Path) -> None:
    server = FakeRuntime("vllm", stages(request_analyser=[{"fault": "hang"}]), hang_s=30)
    events = run(server, tmp_path, timeout_s=0.5)
    assert server.closed_by_client.wait(10)
    assert any("did not answer in time" in n for n in notices(events))
    assert events[-1].kind == "run_finished"
