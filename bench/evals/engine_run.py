"""One task on one engine: a headless PhaseDesk run in a subprocess, then its checker.

Each run gets a fresh copy of the task's workspace and its own ``PHASEDESK_HOME`` (a temporary
folder), so bench runs never touch the person's history or settings. What a run leaves in its
output folder (``OUT/ENGINE/TASK/``): ``events.jsonl`` (every event, as printed), ``replies.json``
(the run's export: its top-level ``replies`` are a model script, so ``--model-script`` replays
it), ``summary.txt``, ``check.txt``, ``stderr.txt`` and the final ``workspace/``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.evals.suite import Task, check

ROOT = Path(__file__).resolve().parents[2]
MAIN = ROOT / "main_qt.py"
GRACE_S = 90  # after a timeout's Ctrl+C, how long the run may take to write its summary
ENGINES = ("phase", "classic")


@dataclass(frozen=True)
class ModelChoice:
    """Which model the runs talk to: an endpoint, a GGUF file, or recorded replies."""

    base_url: str = ""
    model: str = ""
    api_key: str = ""
    gguf: str = ""  # an absolute path (resolved before any run starts)
    script: str = ""  # a replies file, or a folder of earlier results (ENGINE/TASK/replies.json)

    def flags(self, task: Task, engine: str) -> list[str]:
        if self.script:
            script = Path(self.script)
            if script.is_dir():
                script = script / engine / task.name / "replies.json"
            return ["--model-script", str(script)]
        if self.gguf:
            return ["--provider", "embedded", "--gguf", self.gguf]
        return ["--provider", "openai", "--base-url", self.base_url, "--model", self.model,
                "--api-key", self.api_key or "none"]

    @property
    def runtime(self) -> str:
        """What serves the model: ``embedded``, ``endpoint`` or ``scripted`` (recorded replies)."""
        return "scripted" if self.script else "embedded" if self.gguf else "endpoint"

    def describe(self) -> str:
        if self.script:
            return f"replies from {self.script}"
        if self.gguf:
            return f"embedded llama.cpp model {Path(self.gguf).name}"
        return f"{self.model or 'default model'} at {self.base_url}"


@dataclass
class RunResult:
    task: str
    engine: str
    passed: bool = False
    check: str = ""
    status: str = "not run"
    outcome: str = ""
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    wall_s: float = 0.0
    summary_by: str = ""
    run_id: str = ""
    output: str = ""
    stages: list[str] = field(default_factory=list)
    note: str = ""  # what the run says beside the checker: blocks not written, a model error
    verification: str = ""  # verified | failing | unverified, as the run found it
    assists: dict[str, int] = field(default_factory=dict)  # helpers that acted, and how often

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


Progress = Callable[[RunResult, dict[str, Any]], None]


async def run_task(task: Task, engine: str, model: ModelChoice, out_root: Path, *,
                   extra: list[str], timeout_s: float, on_event: Progress) -> RunResult:
    """Run ``task`` on ``engine``; the result says whether its checker passed."""
    out = out_root / engine / task.name
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    result = RunResult(task.name, engine, output=str(out))
    with tempfile.TemporaryDirectory(prefix=f"phasedesk-eval-{task.name}-") as scratch:
        workspace = task.prepare(Path(scratch) / "workspace")
        env = {**os.environ, "PHASEDESK_HOME": str(Path(scratch) / "home"),
               "PYTHONUNBUFFERED": "1"}
        for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "PHASEDESK_GGUF"):
            env.pop(name, None)
        command = [sys.executable, str(MAIN), "--headless", "--jsonl", "--yes", "--workspace",
                   str(workspace), *(["--classic"] if engine == "classic" else []),
                   *model.flags(task, engine), *extra, task.request]
        started = time.monotonic()
        summary = await _run_engine(command, env, out, result, timeout_s, on_event)
        result.wall_s = round(time.monotonic() - started, 1)
        summary_file = out / "summary.txt"
        summary_file.write_text(summary, encoding="utf-8")
        verdict = check(task, workspace, summary_file)
        result.passed, result.check = verdict.passed, verdict.message
        (out / "check.txt").write_text(("PASS: " if verdict.passed else "FAIL: ")
                                       + verdict.message + "\n", encoding="utf-8")
        if result.run_id:
            await _export(result.run_id, env, out / "replies.json")
        shutil.copytree(workspace, out / "workspace",
                        ignore=shutil.ignore_patterns("__pycache__"))
    return result


async def _run_engine(command: list[str], env: dict[str, str], out: Path, result: RunResult,
                      timeout_s: float, on_event: Progress) -> str:
    """Run the headless engine, recording its events into ``result``; returns the summary."""
    with (out / "events.jsonl").open("w", encoding="utf-8") as events, \
            (out / "stderr.txt").open("w", encoding="utf-8") as errors:
        process = await asyncio.create_subprocess_exec(
            *command, cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=errors, limit=1 << 24)
        assert process.stdout is not None
        try:
            return await _follow(process, events, result, timeout_s, on_event)
        finally:
            if process.returncode is None:  # the runner itself was stopped: so is the engine
                with contextlib.suppress(ProcessLookupError):
                    process.kill()


async def _follow(process: asyncio.subprocess.Process, events: Any, result: RunResult,
                  timeout_s: float, on_event: Progress) -> str:
    """Read the engine's events until it ends (interrupted at ``timeout_s``, killed a grace
    period later); returns the summary."""
    assert process.stdout is not None
    summary = ""
    deadline = time.monotonic() + timeout_s
    interrupted = False
    while True:
        limit = deadline + (GRACE_S if interrupted else 0)
        try:
            line = await asyncio.wait_for(process.stdout.readline(),
                                          max(limit - time.monotonic(), 0.1))
        except TimeoutError:
            if interrupted:
                with contextlib.suppress(ProcessLookupError):  # it may have just ended
                    process.kill()
                result.status = "killed (timeout)"
                break
            interrupted = True
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGINT)  # the engine stops and still summarises
            continue
        if not line:
            break
        events.write(line.decode("utf-8", "replace"))
        try:
            event = json.loads(line)
        except ValueError:
            continue
        summary = _record(event, result) or summary
        on_event(result, event)
    await process.wait()
    if interrupted and result.status != "killed (timeout)":
        result.status = f"timeout ({result.status})"
    return summary


def _record(event: dict[str, Any], result: RunResult) -> str:
    kind = event.get("kind")
    if kind == "run_started":
        result.run_id = event.get("run_id", "")
        result.status = "running"
    elif kind == "llm_call":
        result.calls += 1
        result.prompt_tokens += int(event.get("prompt_tokens", 0))
        result.completion_tokens += int(event.get("completion_tokens", 0))
        result.cached_tokens += int(event.get("cached_tokens", 0))
        result.stages.append(str(event.get("stage", "")))
    elif kind == "summary":
        result.summary_by = str(event.get("generated_by", ""))
        return str(event.get("final_summary", ""))
    elif kind == "run_finished":
        result.status = str(event.get("status", ""))
        result.outcome = str(event.get("outcome", ""))
        result.verification = str(event.get("verification", ""))
    elif kind == "notice" and event.get("assist"):
        name = str(event["assist"])
        result.assists[name] = result.assists.get(name, 0) + 1
    return ""


async def _export(run_id: str, env: dict[str, str], target: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(MAIN), "--export", run_id, "--format", "json", cwd=ROOT, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    stdout, stderr = await process.communicate()
    if process.returncode == 0:
        target.write_bytes(stdout)
    else:
        target.with_suffix(".error.txt").write_bytes(stderr)
