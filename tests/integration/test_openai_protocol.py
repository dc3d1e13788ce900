"""What the real ``openai`` client sends, seen by a local HTTP server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.llm.openai_client import OpenAIModel
from core.engine.build import create_engine
from tests.support.fake_openai import FakeOpenAI
from tests.support.script import analysis, judge, of, phases, plan, settings, summary, task

RAW_REQUEST = "Hmm, so... could you maybe list what's in here and read the README? zebra-42"
DRAFT = {"text": "The folder holds a README."}  # the one-shot draft answers in words


def run_against(server: FakeOpenAI, workspace: Path) -> list:
    async def go() -> list:
        model = OpenAIModel(server.base_url, "fake-model", "sk-test-123", timeout_s=5,
                            max_retries=0)
        engine = create_engine(settings(), workspace, model=model)
        events = [e async for e in engine.run(RAW_REQUEST)]
        await model.aclose()
        return events

    return asyncio.run(go())


def test_each_stage_forces_exactly_its_tool_and_keeps_pairs(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# hello\n")
    replies = [analysis("List and read the README", phases=2),
               phases((1, "List", []), (2, "Read", [1])), DRAFT,
               plan(task(1, "list_files")), judge([1]),
               plan(task(1, "read_file", path="README.md"), task(2, "list_files")),
               judge([1, 2], completed=True, action="continue_phase"),  # open: Think decides
               {"tool": "think", "arguments": {
                   "internal_analysis": "done really", "user_summary": "ok",
                   "phase_completed": True, "continue_phase": False,
                   "next_round_strategy": ""}},
               summary()]
    with FakeOpenAI(replies) as server:
        events = run_against(server, tmp_path)
    assert events[-1].status == "completed"
    draft = server.requests[2]["body"]  # the one-shot draft: plain text, no tool offered
    assert "tools" not in draft and "tool_choice" not in draft
    bodies = [r["body"] for r in server.requests if r["body"] is not draft]
    stages = [b["tool_choice"]["function"]["name"] for b in bodies]
    assert stages == ["request_analyser", "phase_planner", "plan_tool_call", "judge_tasks",
                      "plan_tool_call", "judge_tasks", "think", "summarizer"]
    for body, stage in zip(bodies, stages):
        assert body["model"] == "fake-model"
        assert [t["function"]["name"] for t in body["tools"]] == [stage]
        assert body["tool_choice"] == {"type": "function", "function": {"name": stage}}
        assert_pairs_intact(body["messages"])
    headers = {k.lower(): v for k, v in server.requests[0]["headers"].items()}
    assert headers["authorization"] == "Bearer sk-test-123"


def test_raw_request_text_reaches_only_the_analyser_the_draft_and_the_summarizer(
        tmp_path: Path) -> None:
    """The rounds work from the structured request; the one-shot draft (what the model alone
    would be asked) and the summary answer the person's own words."""
    replies = [analysis("List the files", complexity="complex"), phases((1, "List", [])),
               DRAFT, plan(task(1, "list_files")), judge([1]), summary()]
    with FakeOpenAI(replies) as server:
        run_against(server, tmp_path)
    texts = [str(r["body"]["messages"]) for r in server.requests]
    assert [r["stage"] for r in server.requests] == [
        "request_analyser", "phase_planner", "auto", "plan_tool_call", "judge_tasks",
        "summarizer"]
    assert "zebra-42" in texts[0] and "zebra-42" in texts[2] and "zebra-42" in texts[-1]
    assert all("zebra-42" not in t for t in [texts[1], *texts[3:-1]])
    assert "List the files" in texts[1]


def test_usage_from_the_endpoint_is_reported(tmp_path: Path) -> None:
    replies = [analysis(complexity="complex"), phases((1, "List", [])), DRAFT,
               plan(task(1, "list_files")), judge([1]), summary()]
    with FakeOpenAI(replies) as server:
        events = run_against(server, tmp_path)
    calls = of(events, "llm_call")
    assert len(calls) == 6
    assert all(c.prompt_tokens == 100 and c.completion_tokens == 20 for c in calls)
    assert not any(c.usage_estimated for c in calls)
    assert events[-1].prompt_tokens == 600 and events[-1].completion_tokens == 120


def test_cached_prompt_tokens_are_recorded_per_call(tmp_path: Path) -> None:
    cached = {"prompt_tokens": 1500, "completion_tokens": 20, "cached_tokens": 1152}
    replies = [analysis(), DRAFT, dict(plan(task(1, "list_files")), usage=cached),
               dict(judge([1]), usage={"prompt_tokens": 1600, "completion_tokens": 30}),
               summary()]
    with FakeOpenAI(replies) as server:
        events = run_against(server, tmp_path)
    calls = {c.stage: c for c in of(events, "llm_call")}
    assert calls["plan"].prompt_tokens == 1500 and calls["plan"].cached_tokens == 1152
    assert calls["judge"].prompt_tokens == 1600 and calls["judge"].cached_tokens == 0
    assert calls["request_analyser"].cached_tokens == 0


def assert_pairs_intact(messages: list[dict]) -> None:
    """Every assistant tool_calls message is followed by exactly one tool message per id."""
    i = 0
    while i < len(messages):
        message = messages[i]
        if message["role"] == "assistant" and message.get("tool_calls"):
            ids = [c["id"] for c in message["tool_calls"]]
            following = messages[i + 1:i + 1 + len(ids)]
            assert [m["role"] for m in following] == ["tool"] * len(ids), messages
            assert sorted(m["tool_call_id"] for m in following) == sorted(ids)
            i += 1 + len(ids)
            continue
        assert message["role"] != "tool", f"orphan tool message at {i}"
        i += 1


def test_rounds_planned_by_the_judge_keep_the_protocol_exact(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# hello\n")
    replies = [analysis("List, then read the README", phases=2),
               phases((1, "List", []), (2, "Read", [1]),
                      first_tasks=[task(1, "list_files")]),
               judge([1], next_tasks=[task(1, "read_file", path="README.md")]),
               judge([1]), summary()]
    with FakeOpenAI(replies) as server:
        events = run_against(server, tmp_path)
    assert events[-1].status == "completed"
    read = [e for e in of(events, "task_finished") if e.tool == "read_file"]
    assert [e.status for e in read] == ["done"] and "# hello" in read[0].result
    bodies = [r["body"] for r in server.requests]
    assert [b["tool_choice"]["function"]["name"] for b in bodies] == [
        "request_analyser", "phase_planner", "judge_tasks", "judge_tasks", "summarizer"]
    for body in bodies:
        assert_pairs_intact(body["messages"])
    # the second phase's judge sees the handed-over round as executed tool calls
    calls = [c["function"]["name"] for m in bodies[3]["messages"] for c in m.get("tool_calls", [])]
    assert calls == ["read_file"]


def test_the_endpoints_model_list_through_the_real_client() -> None:
    from core.config import from_mapping
    from core.llm.base import ModelError
    from core.llm.factory import endpoint_models
    from tests.support.fake_openai import refused_url

    def listed(base_url: str) -> list[str] | ModelError:
        values = from_mapping({"provider": "openai", "base_url": base_url,
                               "api_key": "sk-list-1", "request_timeout_s": 5})
        try:
            return asyncio.run(endpoint_models(values))
        except ModelError as exc:
            return exc

    with FakeOpenAI(models=["b-model", "a-model", "b-model"]) as server:
        assert listed(server.base_url) == ["a-model", "b-model"]
    assert server.gets == ["/v1/models"] and server.requests == []
    with FakeOpenAI() as bare:
        missing = listed(bare.base_url)
    assert isinstance(missing, ModelError) and missing.status == 404
    refused = listed(refused_url())
    assert isinstance(refused, ModelError) and refused.unreachable
