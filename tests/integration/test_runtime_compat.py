"""PhaseDesk on the OpenAI-compatible runtimes people run: the real ``openai`` client and the
real headless front end against local fakes of each runtime (tests/support/fake_runtimes.py),
with default flags — the endpoint is probed and the stage calls use what it honours."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.llm.base import CallOptions
from core.llm.openai_client import OpenAIModel
from core.llm.probe import PROBE_TOOL, ProbeResult, store
from tests.support.fake_openai import FakeOpenAI
from tests.support.fake_runtimes import EXPECTED_STRATEGY, RUNTIMES, FakeRuntime
from tests.support.script import analysis, phases, plan, summary, task

ROOT = Path(__file__).resolve().parents[2]
WRITE = {"path": "hello.py", "content": 'def hello():\n    return "hello from the model"\n'}
# The request's example, written as code, is what checks the written file (a run that nothing
# checks would end 'unverified', exit code 3).
REQUEST = 'Write hello.py where hello() == "hello from the model"'


def stages() -> dict[str, list[dict[str, Any]]]:
    """The model's replies for a request that writes one file, on either engine (the clean
    write round is decided by the engine: no judge request). The phase engine asks the
    one-shot draft first: a plain call without tools (stage ``"plain"``), which the fakes
    answer "pong", a reply that gives no file, so the first round is planned."""
    return {"request_analyser": [analysis("Write hello.py")],
            "phase_planner": [phases((1, "Write", []))],
            "plan_tool_call": [plan(task(1, "write_file", **WRITE))],
            "summarizer": [summary("Wrote hello.py as asked.")],
            "auto": [{"tool": "write_file", "arguments": WRITE},
                     {"text": "I wrote hello.py as asked."}]}


def headless(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PHASEDESK_HOME": str(home)}
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.run([sys.executable, str(ROOT / "main_qt.py"), "--headless", *args],
                          env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("engine", ["phase", "classic"])
@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_run_on_each_runtime_writes_the_file_and_a_model_summary(
        runtime: str, engine: str, tmp_path: Path, isolated_home: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    flags = ["--classic"] if engine == "classic" else []
    with FakeRuntime(runtime, stages()) as server:
        done = headless(isolated_home, "--jsonl", "--workspace", str(ws), "--base-url",
                        server.base_url, "--model", "fake-model", "--api-key", "k", *flags,
                        REQUEST)
    assert done.returncode == 0, done.stderr[-3000:]
    events = [json.loads(line) for line in done.stdout.splitlines()]
    summary_event = next(e for e in events if e["kind"] == "summary")
    assert summary_event["generated_by"] == "model"
    assert "hello.py" in summary_event["final_summary"]
    assert events[-1]["status"] == "completed" and events[-1]["outcome"] == "succeeded"
    assert events[-1]["verification_line"] == "1 check of the request's examples passes"
    assert (ws / "hello.py").read_text() == WRITE["content"]
    notices = [e["message"] for e in events if e["kind"] == "notice"]
    assert any(f"stage calls use '{EXPECTED_STRATEGY[runtime]}'" in n for n in notices), notices
    assert not any("did not hold" in n or "invalid" in n for n in notices), notices
    refused = [r for r in server.requests if "error" in r["reply"]]
    assert [r["stage"] for r in refused] == (["phasedesk_probe"] if runtime == "no_tools" else [])


def test_a_second_run_uses_the_stored_probe(tmp_path: Path, isolated_home: Path) -> None:
    with FakeRuntime("llama_server", stages()) as server:
        # The runtime answers one run: the second, after the stored probe, fails (exit 1).
        for expected in (0, 1):
            done = headless(isolated_home, "--jsonl", "--workspace", str(tmp_path),
                            "--base-url", server.base_url, "--model", "fake-model", REQUEST)
            assert done.returncode == expected, done.stderr[-3000:]
    probes = [r for r in server.requests if r["stage"] == "phasedesk_probe"]
    assert [r["mode"] for r in probes] == ["named", "required", "json_schema"]
    stored = json.loads((isolated_home / "data" / "endpoint_probes.json").read_text())
    assert stored[f"{server.base_url} fake-model"]["chosen"] == "json_schema"


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_probe_flag_prints_what_the_endpoint_honours(runtime: str, isolated_home: Path) -> None:
    with FakeRuntime(runtime, {}) as server:
        done = headless(isolated_home, "--probe", "--base-url", server.base_url, "--model", "m")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].split() == ["strategy", "honoured", "answered", "detail"]
    marks = {line.split()[0]: line.split()[1] + line.split()[2] for line in lines[2:6]}
    expected = {"openai": "✓✓ ✓✓ ✓✓ ✓✓", "vllm": "✓✓ ✓✓ ✓✓ ✓✓",
                # llama-server writes the named call as text; "required" runs to max_tokens
                "llama_server": "✗✓ ✗– ✓✓ ✓✓", "ollama": "✗– ✗– ✓✓ ✓✓",
                "no_tools": "✗– ✗– ✗✓ ✓✓"}[runtime].split()
    assert marks == dict(zip(("named", "required", "json_schema", "prompted"), expected))
    assert lines[-1] == f"Stage calls will use: {EXPECTED_STRATEGY[runtime]}"
    assert ("refused by the server" in done.stdout) == (runtime == "no_tools")


def test_an_endpoint_refusing_max_tokens_gets_max_completion_tokens(tmp_path: Path) -> None:
    refusal = {"error": {"status": 400, "message": "Unsupported parameter: 'max_tokens' is not "
                         "supported with this model. Use 'max_completion_tokens' instead."}}

    async def go(server: FakeOpenAI) -> list[str]:
        model = OpenAIModel(server.base_url, "o-model", "k", timeout_s=5, max_retries=0)
        texts = []
        for _ in range(2):
            reply = await model.complete([{"role": "user", "content": "hi"}], [], None,
                                         CallOptions(max_tokens=64))
            texts.append(reply.text or "")
        await model.aclose()
        return texts

    with FakeOpenAI([refusal, {"text": "one"}, {"text": "two"}]) as server:
        assert asyncio.run(go(server)) == ["one", "two"]
    limits = [{k: v for k, v in r["body"].items() if k.startswith("max_")} for r in server.requests]
    assert limits == [{"max_tokens": 64}, {"max_completion_tokens": 64},
                      {"max_completion_tokens": 64}]


@pytest.mark.parametrize("flags, sent", [([], 0.0), (["--temperature", "0.7"], 0.7)])
def test_every_call_is_sampled_at_the_set_temperature(
        flags: list[str], sent: float, tmp_path: Path, isolated_home: Path) -> None:
    # llama-server samples at 0.8 unless told: stage replies of a small model at 0.8 were
    # what the H200 evaluation got before the setting existed
    with FakeRuntime("llama_server", stages()) as server:
        done = headless(isolated_home, "--jsonl", "--workspace", str(tmp_path), "--base-url",
                        server.base_url, "--model", "fake-model", *flags, REQUEST)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "hello.py").read_text() == WRITE["content"]
    sent_by_stage = {(r["stage"], r["body"].get("temperature")) for r in server.requests}
    assert {stage for stage, _ in sent_by_stage} >= {"phasedesk_probe", "request_analyser",
                                                      "plan_tool_call", "summarizer", "plain"}
    assert {temperature for stage, temperature in sent_by_stage if stage != "plain"} == {sent}
    # the one-shot draft is code: asked at temperature 0 whatever the setting, never unset
    assert {temperature for stage, temperature in sent_by_stage if stage == "plain"} == {0.0}


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("status, message", [
    (400, "Unsupported value: 'temperature' does not support 0.0 with this model. Only the "
          "default (1) value is supported."),
    (422, "Input validation error: `temperature` must be strictly positive")])
def test_a_model_refusing_a_temperature_is_asked_without_one(stream: bool, status: int,
                                                             message: str) -> None:
    refusal = {"error": {"status": status, "message": message}}
    pieces: list[str] = []

    async def go(server: FakeOpenAI) -> list[str]:
        model = OpenAIModel(server.base_url, "o-model", "k", timeout_s=5, max_retries=0,
                            temperature=0.0)
        sink = (lambda kind, piece: pieces.append(piece)) if stream else None
        texts = []
        for _ in range(2):
            reply = await model.complete([{"role": "user", "content": "hi"}], [], None,
                                         CallOptions(on_delta=sink))
            texts.append(reply.text or "")
        await model.aclose()
        return texts

    with FakeOpenAI([refusal, {"text": "one"}, {"text": "two"}]) as server:
        assert asyncio.run(go(server)) == ["one", "two"]
    assert [r["body"].get("temperature") for r in server.requests] == [0.0, None, None]
    assert [r["body"].get("stream", False) for r in server.requests] == [stream] * 3
    assert ("".join(pieces) == "onetwo") == stream


def test_a_probe_answered_with_a_wrong_value_picks_named_and_the_run_ends_with_a_model_summary(
        tmp_path: Path, isolated_home: Path) -> None:
    wrong = {PROBE_TOOL: [{"tool": PROBE_TOOL, "arguments": {"color": "red"}}]}
    with FakeRuntime("openai", {**stages(), **wrong}) as server:
        done = headless(isolated_home, "--jsonl", "--workspace", str(tmp_path), "--base-url",
                        server.base_url, "--model", "fake-model", "--api-key", "k", REQUEST)
    assert done.returncode == 0, done.stderr[-3000:]
    events = [json.loads(line) for line in done.stdout.splitlines()]
    summary_event = next(e for e in events if e["kind"] == "summary")
    assert summary_event["generated_by"] == "model"
    assert (tmp_path / "hello.py").read_text() == WRITE["content"]
    probes = [r for r in server.requests if r["stage"] == PROBE_TOOL]
    assert [r["mode"] for r in probes] == ["named"]
    # every stage call is named; the one-shot draft is a plain call, without tools
    assert [r["stage"] for r in server.requests if r["mode"] != "named"] == ["plain"]
    stored = json.loads((isolated_home / "data" / "endpoint_probes.json").read_text())
    entry = stored[f"{server.base_url} fake-model"]
    assert (entry["chosen"], entry["honoured"], entry["answered"]) == (
        "named", {"named": True}, {"named": False})
    notices = [e["message"] for e in events if e["kind"] == "notice"]
    assert not any("did not hold" in n or "invalid" in n for n in notices), notices


def test_a_stored_result_that_does_not_hold_is_probed_again(tmp_path: Path,
                                                           isolated_home: Path) -> None:
    old = ProbeResult(chosen="named", honoured={"named": True}, answered={"named": True})
    with FakeRuntime("ollama", stages()) as server:
        store(server.base_url, "fake-model", old)  # the headless run shares isolated_home
        before = json.loads((isolated_home / "data" / "endpoint_probes.json").read_text())
        done = headless(isolated_home, "--jsonl", "--workspace", str(tmp_path), "--base-url",
                        server.base_url, "--model", "fake-model", REQUEST)
    assert done.returncode == 0, done.stderr[-3000:]
    events = [json.loads(line) for line in done.stdout.splitlines()]
    modes = [(r["stage"], r["mode"]) for r in server.requests]
    assert modes[:5] == [("request_analyser", "named"), ("request_analyser", "named"),
                         (PROBE_TOOL, "named"), (PROBE_TOOL, "required"),
                         (PROBE_TOOL, "json_schema")]
    # every later stage call uses json_schema; the one-shot draft is a plain call, no tools
    assert {mode for stage, mode in modes[5:] if stage != "plain"} == {"json_schema"}
    assert [stage for stage, mode in modes[5:] if mode != "json_schema"] == ["plain"]
    notices = [e["message"] for e in events if e["kind"] == "notice"]
    assert any("again, as its stored result did not hold: stage calls use 'json_schema'" in n
               and "Using 'json_schema' for the rest of the run." in n for n in notices), notices
    entry = json.loads((isolated_home / "data" / "endpoint_probes.json").read_text())[
        f"{server.base_url} fake-model"]
    assert entry["chosen"] == "json_schema"
    assert entry["probed_at"] >= before[f"{server.base_url} fake-model"]["probed_at"]
    assert next(e for e in events if e["kind"] == "summary")["generated_by"] == "model"
    assert (tmp_path / "hello.py").read_text() == WRITE["content"]
