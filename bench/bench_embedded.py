"""The embedded model on a real engine run: seconds and prompt tokens evaluated per call, with
llama.cpp's KV-cache prefix reuse and without it.

Pass 1 runs one evaluation task (``bench/evals/tasks/``) through the engine in-process on the
embedded model and records every call. Pass 2 sends the very same calls again, clearing the
cache before each one, so every prompt is evaluated whole. The table gives, per call, the
prompt tokens, how many were evaluated (the rest came from the cache) and the seconds, for both
passes, and the seconds of the run.

Run: nice -n 19 .venv/bin/python bench/bench_embedded.py --gguf qwen2.5-coder-1.5b \
         [--task rename-key] [--engine phase|classic] [--max-iterations 8]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench.isolation  # noqa: E402  (its own app home, never the person's)

from bench.evals.suite import select  # noqa: E402
from core.config import Settings  # noqa: E402
from core.engine.build import create_engine  # noqa: E402
from core.llm.base import NO_OPTIONS, CallOptions, Capabilities, ModelError, Reply  # noqa: E402
from core.llm.embedded import EmbeddedModel  # noqa: E402
from core.llm.embedded_load import model_path  # noqa: E402
from core.tools import default_registry  # noqa: E402


@dataclass
class Call:
    stage: str
    args: tuple[list[dict[str, Any]], list[dict[str, Any]], Any]
    prompt: int = 0
    cached: int = 0
    completion: int = 0
    seconds: float = 0.0
    error: str = ""


class Recording:
    """The embedded model, with each call's arguments, tokens and seconds kept."""

    def __init__(self, model: EmbeddedModel) -> None:
        self.model = model
        self.calls: list[Call] = []

    @property
    def capabilities(self) -> Capabilities:
        return self.model.capabilities

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def provider(self) -> str:
        return self.model.provider

    @property
    def context_window(self) -> int:
        return self.model.context_window

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
                       tool_choice: Any, options: CallOptions = NO_OPTIONS) -> Reply:
        stage = tool_choice.get("function", {}).get("name", "?") \
            if isinstance(tool_choice, dict) else str(tool_choice or "text")
        call = Call(stage, copy.deepcopy((messages, tools, tool_choice)))
        self.calls.append(call)
        return await timed(self.model, call)

    async def aclose(self) -> None:
        """The model stays loaded for the second pass."""


async def timed(model: EmbeddedModel, call: Call) -> Reply:
    started = time.perf_counter()
    try:
        reply = await model.complete(*copy.deepcopy(call.args))
    except ModelError as exc:
        call.error, call.seconds = exc.message[:60], time.perf_counter() - started
        raise
    call.seconds = time.perf_counter() - started
    call.prompt, call.cached = reply.usage.prompt_tokens, reply.usage.cached_tokens
    call.completion = reply.usage.completion_tokens
    return reply


async def measure(args: argparse.Namespace) -> tuple[list[Call], list[Call], str, float]:
    registry = default_registry()
    model = EmbeddedModel(path=model_path(args.gguf), n_threads=args.threads, tool_parameters={
        name: registry.parameters(name) for name in registry.names()})
    recording = Recording(model)
    (task,) = select([args.task])
    settings = Settings(use_phase_task=args.engine == "phase", max_iterations=args.max_iterations,
                        command_approval="auto", write_approval="auto")
    with tempfile.TemporaryDirectory() as scratch:
        workspace = task.prepare(Path(scratch) / "ws")
        engine = create_engine(settings, workspace, model=recording)
        status = "?"
        async for event in engine.run(task.request):
            if event.kind == "run_finished":
                status = getattr(event, "status", "?")
    load = model.load_seconds or 0.0
    again: list[Call] = []
    for call in recording.calls:
        await model.clear_cache()
        repeat = Call(call.stage, call.args)
        again.append(repeat)
        try:
            await timed(model, repeat)
        except ModelError:
            pass
    await model.aclose()
    return recording.calls, again, status, load


def table(first: list[Call], second: list[Call]) -> str:
    lines = [f"{'#':>3} {'stage':18} {'prompt':>7} | {'evaluated':>9} {'compl':>5} {'s':>6} | "
             f"{'evaluated':>9} {'compl':>5} {'s':>6}",
             f"{'':30}   {'with prefix reuse':^23} | {'cache cleared each call':^23}"]
    for n, (a, b) in enumerate(zip(first, second), start=1):
        lines.append(f"{n:3} {a.stage[:18]:18} {a.prompt:7} | {a.prompt - a.cached:9} "
                     f"{a.completion:5} {a.seconds:6.1f} | {b.prompt - b.cached:9} "
                     f"{b.completion:5} {b.seconds:6.1f}" + (f"  {a.error}" if a.error else ""))
    lines.append(f"{'run':22} {sum(a.prompt for a in first):7} | "
                 f"{sum(a.prompt - a.cached for a in first):9} "
                 f"{sum(a.completion for a in first):5} {sum(a.seconds for a in first):6.0f} | "
                 f"{sum(b.prompt - b.cached for b in second):9} "
                 f"{sum(b.completion for b in second):5} {sum(b.seconds for b in second):6.0f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf", default="", help="a GGUF path or installed model name")
    parser.add_argument("--task", default="rename-key")
    parser.add_argument("--engine", choices=("phase", "classic"), default="phase")
    parser.add_argument("--max-iterations", type=int, default=8)
    parser.add_argument("--threads", type=int, help="fixed thread count (default: free cores)")
    args = parser.parse_args()
    installed = bench.isolation.PERSON_DATA_DIR / "models" / f"{args.gguf}.gguf"
    args.gguf = str(installed) if args.gguf and installed.is_file() else args.gguf
    started = time.perf_counter()
    first, second, status, load = asyncio.run(measure(args))
    print(f"{model_path(args.gguf).name} · task {args.task} on the {args.engine} engine · "
          f"{os.cpu_count()} cores · threads {args.threads or 'free cores'} · load {load:.1f} s "
          f"· run ended {status} after {len(first)} calls · bench {time.perf_counter() - started:.0f} s")
    print(table(first, second))


if __name__ == "__main__":
    main()
