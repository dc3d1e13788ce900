"""Model roles over the wire: the thinking stages on one endpoint, the one-shot draft, Plan
and Think on another.

Two local OpenAI-compatible servers, the real ``openai`` client, models built from the
settings exactly as the window and the headless run build them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

from core.config import Settings
from core.events import Event
from core.llm.base import Capabilities
from core.llm.factory import make_model, make_thinking_model
from core.llm.scripted import ScriptedModel
from core.engine.build import create_engine
from tests.integration.test_headless import headless
from tests.support.fake_openai import FakeOpenAI, refused_url
from tests.support.script import analysis, judge, phases, plan, settings, summary, task, think

MAIN_KEY = "sk-main-key-0123456789abcdef"
THINKING_KEY = "sk-thinking-key-0123456789abcdef"
THINKING_TOOLS = ["request_analyser", "phase_planner", "judge_tasks", "summarizer"]
MAIN_TOOLS = ["auto", "plan_tool_call", "plan_tool_call", "think"]  # "auto": the draft
NO_DRAFT = {"text": "I will plan the work first."}  # the one-shot draft gives no file


def role_settings(main: FakeOpenAI, thinking_url: str, **values: Any) -> Settings:
    return settings(**{"provider": "openai", "base_url": main.base_url, "model": "main-model",
                       "api_key": MAIN_KEY, "thinking_base_url": thinking_url,
                       "thinking_model": "judge-model", "thinking_api_key": THINKING_KEY,
                       "request_timeout_s": 5.0, "max_retries": 0, "forcing": "named",
                       **values})


def run_with(config: Settings, workspace: Path) -> tuple[list[Event], Any]:
    """Run one request on the models the settings name; returns the events and the thinking
    model (the engine has closed it)."""
    async def go() -> tuple[list[Event], Any]:
        thinking = make_thinking_model(config)
        model = make_model(config)
        engine = create_engine(config, workspace, model=model, thinking=thinking)
        events = [e async for e in engine.run("Write notes.txt, then check it")]
        await model.aclose()
        return events, thinking

    return asyncio.run(go())


def host(server: FakeOpenAI) -> str:
    return server.base_url.removeprefix("http://").removesuffix("/v1")


def authorization(request: dict[str, Any]) -> str:
    return {k.lower(): v for k, v in request["headers"].items()}["authorization"]


def two_phase_replies() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(main model's replies: the one-shot draft, plans and Think; thinking model's:
    analysis, phases, the verdict, summary) of a two-phase run that writes notes.txt and reads
    it back. The draft gives no file, so the first round is planned; the clean write round is
    decided by the engine; the read round goes to the judge."""
    main = [NO_DRAFT, plan(task(1, "write_file", path="notes.txt", content="hello from A")),
            plan(task(1, "read_file", path="notes.txt")),
            think(True, False, "")]
    thinking = [analysis("Write and check the notes", phases=2),
                phases((1, "Write", []), (2, "Check", [1])),
                judge([1], completed=True, action="continue_phase"),  # open: Think settles it
                summary("## Done\n\n- notes written and read back")]
    return main, thinking


def calls(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.stage, e.model) for e in events if e.kind == "llm_call"]


def test_thinking_stages_reach_the_thinking_endpoint_and_plan_think_the_main_one(
        tmp_path: Path) -> None:
    main_replies, thinking_replies = two_phase_replies()
    with FakeOpenAI(main_replies) as main, FakeOpenAI(thinking_replies) as judge_server:
        events, thinking = run_with(role_settings(main, judge_server.base_url), tmp_path)

    assert [r["stage"] for r in main.requests] == MAIN_TOOLS
    assert [r["stage"] for r in judge_server.requests] == THINKING_TOOLS
    assert {r["body"]["model"] for r in main.requests} == {"main-model"}
    assert {r["body"]["model"] for r in judge_server.requests} == {"judge-model"}
    assert {authorization(r) for r in main.requests} == {f"Bearer {MAIN_KEY}"}
    assert {authorization(r) for r in judge_server.requests} == {f"Bearer {THINKING_KEY}"}

    served_main = f"main-model @ {host(main)}"
    served_thinking = f"judge-model @ {host(judge_server)} (thinking)"
    assert calls(events) == [("request_analyser", served_thinking),
                             ("phase_planner", served_thinking), ("author", served_main),
                             ("plan", served_main), ("plan", served_main),
                             ("judge", served_thinking),
                             ("think", served_main), ("summarizer", served_thinking)]
    assert [j.by_engine for j in events if j.kind == "judged"] == [True, False]
    final = [e for e in events if e.kind == "summary"][0]
    assert final.generated_by == "model" and "notes written and read back" in final.final_summary
    assert events[-1].status == "completed"
    assert (tmp_path / "notes.txt").read_text() == "hello from A"
    assert thinking._client.is_closed()  # the engine closed the model it owned


def test_without_thinking_settings_every_call_goes_to_the_main_model(tmp_path: Path) -> None:
    replies = [analysis("Write and check the notes", phases=2),
               phases((1, "Write", []), (2, "Check", [1])), NO_DRAFT,
               plan(task(1, "write_file", path="notes.txt", content="only A")),
               plan(task(1, "read_file", path="notes.txt")),
               judge([1], completed=True, action="continue_phase"), think(True, False, ""),
               summary()]
    with FakeOpenAI(replies) as main:
        config = dataclasses.replace(role_settings(main, ""), thinking_model="")
        assert make_thinking_model(config) is None
        events, _ = run_with(config, tmp_path)

    assert [r["stage"] for r in main.requests] == [
        "request_analyser", "phase_planner", "auto", "plan_tool_call", "plan_tool_call",
        "judge_tasks", "think", "summarizer"]
    assert {r["body"]["model"] for r in main.requests} == {"main-model"}
    assert {model for _, model in calls(events)} == {f"main-model @ {host(main)}"}
    assert events[-1].status == "completed"
    assert (tmp_path / "notes.txt").read_text() == "only A"


def test_an_unreachable_thinking_model_aborts_the_run_naming_it(tmp_path: Path) -> None:
    nowhere = refused_url()
    with FakeOpenAI([plan(task(1, "list_files"))]) as main:
        events, _ = run_with(role_settings(main, nowhere), tmp_path)

    assert main.requests == []  # the analysis comes first, and it goes to the thinking model
    failed = [e for e in events if e.kind == "llm_call"]
    assert [(e.stage, e.ok) for e in failed] == [("request_analyser", False)]
    where = nowhere.removeprefix("http://").removesuffix("/v1")
    assert failed[0].model == f"judge-model @ {where} (thinking)"
    final = [e for e in events if e.kind == "summary"][0]
    assert final.generated_by == "fallback"
    assert f"the thinking model (judge-model @ {where}): the model could not be reached" in \
        final.final_summary
    assert events[-1].status == "failed"


class Untrusted(ScriptedModel):
    capabilities = Capabilities(clarification_trusted=False)


def test_clarification_trust_comes_from_the_model_that_analysed(tmp_path: Path) -> None:
    """A small main model whose clarifications are ignored; the analysis is by a trusted
    thinking model, so its question reaches the person and the run waits for the answer."""
    main = Untrusted([plan(task(1, "list_files"))])
    thinking = ScriptedModel([analysis(questions=["Which notes file?"])], name="judge-model")

    async def go() -> list[Event]:
        engine = create_engine(settings(), tmp_path, model=main, thinking=thinking)
        return [e async for e in engine.run("write the notes")]

    events = asyncio.run(go())
    asked = [e for e in events if e.kind == "clarification"]
    assert [e.questions for e in asked] == [["Which notes file?"]]
    assert events[-1].status == "clarification_needed"
    assert main.requests == []
    assert calls(events) == [("request_analyser", "judge-model (thinking)")]


def test_the_main_key_is_never_sent_to_another_thinking_host() -> None:
    async def ask(config: Settings) -> None:
        thinking = make_thinking_model(config)
        assert thinking is not None
        await thinking.complete([{"role": "user", "content": "ping"}], [], None)
        await thinking.aclose()

    with FakeOpenAI([{"text": "a"}]) as main, FakeOpenAI([{"text": "b"}, {"text": "c"}]) as other:
        asyncio.run(ask(role_settings(main, other.base_url, thinking_api_key="")))
        asyncio.run(ask(role_settings(main, "", thinking_api_key="")))
    assert [authorization(r) for r in other.requests] == ["Bearer none"]
    assert [(authorization(r), r["body"]["model"]) for r in main.requests] == \
        [(f"Bearer {MAIN_KEY}", "judge-model")]  # same endpoint: the main key goes along


def test_headless_jsonl_names_the_model_of_every_call(tmp_path: Path, isolated_home: Path) -> None:
    """Nothing checks the notes written, so the run ends 'unverified' (exit code 3)."""
    main_replies = [NO_DRAFT, plan(task(1, "write_file", path="notes.txt", content="headless"))]
    thinking_replies = [analysis("Write the notes"), summary()]  # the engine decides the round
    with FakeOpenAI(main_replies) as main, FakeOpenAI(thinking_replies) as judge_server:
        done = headless(isolated_home, "--headless", "--jsonl", "--workspace", str(tmp_path),
                        "--base-url", main.base_url, "--model", "main-model",
                        "--api-key", MAIN_KEY, "--thinking-base-url", judge_server.base_url,
                        "--thinking-model", "judge-model", "--thinking-api-key", THINKING_KEY,
                        "--max-retries", "0", "Write notes.txt")
    assert done.returncode == 3, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    served = [(e["stage"], e["model"]) for e in events if e["kind"] == "llm_call"]
    assert served == [("request_analyser", f"judge-model @ {host(judge_server)} (thinking)"),
                      ("author", f"main-model @ {host(main)}"),
                      ("plan", f"main-model @ {host(main)}"),
                      ("summarizer", f"judge-model @ {host(judge_server)} (thinking)")]
    assert [e["by_engine"] for e in events if e["kind"] == "judged"] == [True]
    assert events[-1]["status"] == "completed" and events[-1]["outcome"] == "unverified"
    assert (tmp_path / "notes.txt").read_text() == "headless"
    assert THINKING_KEY not in done.stdout + done.stderr


def test_the_classic_loop_stays_on_the_main_model_and_its_summary_goes_to_the_thinking_one(
        tmp_path: Path) -> None:
    main = ScriptedModel([{"tool_calls": [{"tool": "write_file", "arguments": {
        "path": "notes.txt", "content": "classic"}}]}])
    thinking = ScriptedModel([analysis("Write the notes"),
                              summary("## Classic\n\n- notes written")], name="judge-model")

    async def go() -> list[Event]:
        engine = create_engine(settings(use_phase_task=False, max_iterations=1), tmp_path,
                               model=main, thinking=thinking)
        return [e async for e in engine.run("write the notes")]

    events = asyncio.run(go())
    assert calls(events) == [("request_analyser", "judge-model (thinking)"),
                             ("classic", "scripted"), ("summarizer", "judge-model (thinking)")]
    assert [r["tool_choice"] for r in main.requests] == ["auto"]
    final = [e for e in events if e.kind == "summary"][0]
    assert final.generated_by == "model" and "notes written" in final.final_summary
    assert (tmp_path / "notes.txt").read_text() == "classic"


def test_each_model_is_probed_once_and_its_stages_use_what_its_probe_found(
        tmp_path: Path) -> None:
    main_replies, thinking_replies = two_phase_replies()
    with FakeOpenAI(main_replies) as main, FakeOpenAI(thinking_replies) as judge_server:
        events, _ = run_with(role_settings(main, judge_server.base_url, forcing="auto"),
                             tmp_path)

    assert [r["stage"] for r in main.requests] == ["phasedesk_probe"] + MAIN_TOOLS
    assert [r["stage"] for r in judge_server.requests] == ["phasedesk_probe"] + THINKING_TOOLS
    probed = [e.message for e in events if e.kind == "notice" and "Probed" in e.message]
    assert len(probed) == 2 and any("main-model" in m for m in probed) \
        and any("judge-model" in m for m in probed)
    assert (tmp_path / "notes.txt").read_text() == "hello from A"
