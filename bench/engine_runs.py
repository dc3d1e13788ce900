"""One bench run: an engine doing a scenario's work on the scripted model, and its figures.

``run_one`` runs the phase engine or the classic loop (batched or stepwise) on a scenario
with the lean or the full model, in a fresh copy of the scenario's workspace, and refuses a
run that did not do exactly the scenario's work (see ``measure``).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bench_model import StageScriptedModel
from bench.engine_scenarios import Scenario
from bench.engine_writes import for_phase
from bench.engine_scripts import THINK_DEFAULT, THINK_FULL, classic_script, phase_script
from core.config import Settings
from core.engine.build import create_engine

SECONDS_PER_CALL = 0.5
PREFILL_TOKENS_PER_S = 2000
GENERATED_TOKENS_PER_S = 50  # tool, arguments, dependencies (task ids)
ENGINES = ("phase", "batched", "stepwise")


@dataclass(frozen=True)
class BenchRun:
    """One run's figures, its model (calls, characters by stage) and its Judge cards:
    (phase, round, decided by the engine without a judge call)."""

    figures: dict[str, float]
    model: StageScriptedModel
    cards: list[tuple[int, int, bool]]


def bench_settings(classic: bool, assists_off: str = "") -> Settings:
    """The bench's settings; ``assists_off``: assists switched off."""
    return Settings(use_phase_task=not classic, think_stage="auto", command_approval="auto",
                    write_approval="auto", max_iterations=200, assists_off=assists_off)


def tool_work(s: Scenario) -> list[str]:
    return sorted(_work(tool, args) for _, (tool, args, _) in s.calls())


def _work(tool: str, arguments: dict[str, Any]) -> str:
    return tool + json.dumps(arguments, sort_keys=True)


async def measure(s: Scenario, queues: dict[str, list[dict[str, Any]]], settings: Settings,
                  workspace: Path, full: bool) -> BenchRun:
    """One run's figures; raises when the phase engine did not run exactly the scenario's
    tool calls (the classic loop: did not plan each of them; it refuses a repeated call as
    a loop), other writes failed than the scenario's failing ones, a call found no scripted
    reply, a reply was left unasked for, or the run ended without a model-written summary:
    a script that does not fit the engine."""
    think = THINK_FULL if full else THINK_DEFAULT
    model = StageScriptedModel(queues, defaults={"think": think}, full=full)
    classic = not settings.use_phase_task
    engine = create_engine(settings, workspace, model=model)
    peak = cached = 0
    planned: dict[tuple[int, int, int], str] = {}
    ran: list[str] = []
    failed_writes = 0
    generated_by = ""
    cards: list[tuple[int, int, bool]] = []
    async for event in engine.run(s.request):
        if event.kind == "llm_call":
            peak = max(peak, event.context_tokens)
            cached += event.cached_tokens
        elif event.kind == "tasks_planned":
            for card in event.tasks:
                planned[(event.phase_id, event.round, card["id"])] = _work(card["tool"],
                                                                          card["arguments"])
        elif event.kind == "task_started":
            ran.append(planned[(event.phase_id, event.round, event.task_id)])
        elif event.kind == "task_finished" and event.tool == "write_file":
            failed_writes += event.status == "failed"
        elif event.kind == "judged":
            cards.append((event.phase_id, event.round, event.by_engine))
        elif event.kind == "summary":
            generated_by = event.generated_by
        elif event.kind == "run_finished":
            _check(s, classic, planned, ran, failed_writes, generated_by, model)
            figures = {"calls": event.llm_calls, "chars": model.chars,
                       "prompt": event.prompt_tokens, "uncached": event.prompt_tokens - cached,
                       "local": model.local_uncached,
                       "completion": event.completion_tokens, "peak": peak}
            figures["seconds"] = model_seconds(figures)
            return BenchRun(figures, model, cards)
    raise RuntimeError("no run_finished")


def _check(s: Scenario, classic: bool, planned: dict[tuple[int, int, int], str],
           ran: list[str], failed_writes: int, generated_by: str,
           model: StageScriptedModel) -> None:
    problems = []
    if classic and set(planned.values()) != set(tool_work(s)):
        problems.append(f"planned {sorted(planned.values())}, expected {tool_work(s)}")
    if not classic and sorted(ran) != tool_work(s):
        problems.append(f"ran {sorted(ran)}, expected {tool_work(s)}")
    if failed_writes != len(s.failing):
        problems.append(f"{failed_writes} write(s) failed, expected {len(s.failing)}")
    if generated_by != "model":
        problems.append(f"summary written by {generated_by or 'nobody'}")
    if model.left_over():
        problems.append(f"replies never asked for: {model.left_over()}")
    if model.unscripted:
        problems.append(f"calls the script holds no reply for: {model.unscripted}")
    if problems:
        engine_name = "classic" if classic else "phase"
        raise RuntimeError(f"{s.name} ({engine_name}): " + "; ".join(problems))


def model_seconds(f: dict[str, float]) -> float:
    """Modelled model time: a fixed latency per call, uncached prompt tokens at the prefill
    rate, completion tokens at the generation rate (cached prompt tokens taken as free)."""
    return (f["calls"] * SECONDS_PER_CALL + f["uncached"] / PREFILL_TOKENS_PER_S
            + f["completion"] / GENERATED_TOKENS_PER_S)


def run_one(s: Scenario, engine: str, full: bool, assists_off: str = "") -> BenchRun:
    settings = bench_settings(engine != "phase", assists_off)
    s = for_phase(s) if engine == "phase" else s
    script = phase_script(s, settings, full) if engine == "phase" else \
        classic_script(s, settings, engine == "batched", full)
    with tempfile.TemporaryDirectory() as folder:
        s.workspace(Path(folder))
        return asyncio.run(measure(s, script, settings, Path(folder), full))
