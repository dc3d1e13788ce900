"""Phase engine vs classic loop on the same tool work: LLM calls, prompt size, peak context.

Each scenario (``engine_scenarios``) is a list of phases, each a list of rounds, each a list
of tool calls (with dependencies inside a round); writes go through the authoring calls, the
run's one-shot draft among them, as in both engines. The phase engine's scripted model plans
exactly those rounds, and is asked no verdict where the engine settles a round itself; the
classic engine's scripted model makes exactly the same calls (``engine_scripts``). Two classic
behaviours are measured: "batched" sends every call of a dependency level in one reply
(the most capable ReAct model), "stepwise" one call per reply (seed 003's examples). Two
models: "lean" writes only what the stage schemas require, "full" every field they offer,
as a strict OpenAI-compatible endpoint's model does. ``chars`` are the characters of every
request (messages and tools, as sent); tokens are the same estimate for both engines
(about 4 characters a token). ``engine_wire`` checks the characters against the bytes the
real ``openai`` client sends to a local server.

Run: .venv/bin/python bench/bench_engines.py [--mode lean|full|both] [--stages] [--no-wire]
         [--assists-off NAMES]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)

from bench.engine_runs import ENGINES, GENERATED_TOKENS_PER_S, PREFILL_TOKENS_PER_S, \
    SECONDS_PER_CALL, bench_settings, run_one  # noqa: E402
from bench.engine_scenarios import scenarios  # noqa: E402
from bench.engine_wire import wire_report  # noqa: E402
from bench.engine_writes import program_offered  # noqa: E402

COLUMNS = (("calls", 5, "d"), ("chars", 8, "d"), ("prompt", 7, "d"), ("uncached", 8, "d"),
           ("local", 6, "d"), ("completion", 6, "d"), ("peak", 6, "d"), ("seconds", 6, ".1f"))
RATIOS = ("calls", "chars", "prompt", "completion")


def table(full: bool, stages: bool, assists_off: str) -> None:
    rows = []
    totals = {e: {key: 0.0 for key, _, _ in COLUMNS} for e in ENGINES}
    breakdown: list[tuple[str, str, dict[str, int]]] = []
    for s in scenarios():
        figures = {}
        for engine in ENGINES:
            run = run_one(s, engine, full, assists_off)
            figures[engine] = run.figures
            for key, _, _ in COLUMNS:
                totals[engine][key] += figures[engine][key]
            if stages and engine != "stepwise":
                breakdown.append((s.name, engine, run.model.chars_by_stage))
        rows.append((s.name, figures))
    rows.append(("TOTAL", totals))
    print(f"\nmodel: {'full (every field a stage schema offers)' if full else 'lean (required fields)'}")
    header = (f"{'scenario':24} {'engine':16} {'calls':>5} {'chars':>8} {'tokens':>7} "
              f"{'uncached':>8} {'local':>6} {'compl':>6} {'peak':>6} {'model s':>7}"
              "   phase/this: calls  chars tokens  compl")
    print(header)
    print("-" * len(header))
    labels = {"phase": "phase", "batched": "classic batched", "stepwise": "classic stepwise"}
    for name, figures in rows:
        if name == "TOTAL":
            print("-" * len(header))
        for engine in ENGINES:
            line = _line(name if engine == "phase" else "", labels[engine], figures[engine])
            if engine != "phase":
                p, c = figures["phase"], figures[engine]
                line += "   " + " ".join(f"{p[k] / c[k]:>{16 if k == 'calls' else 6}.2f}"
                                         for k in RATIOS)
            print(line)
    for name, engine, by_stage in breakdown:
        print(f"  {name:24} {engine:8} " + ", ".join(f"{stage} {chars:,}"
                                                     for stage, chars in by_stage.items()))


def _line(name: str, engine: str, f: dict[str, float]) -> str:
    cells = " ".join(f"{f[key]:>{width}{fmt}}" if fmt != "d" else f"{int(f[key]):>{width}}"
                     for key, width, fmt in COLUMNS)
    return f"{name:24} {engine:16} {cells}  "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=("lean", "full", "both"), default="both")
    parser.add_argument("--stages", action="store_true",
                        help="print each run's request characters by stage (draft: the "
                             "one-shot draft; author: the other authoring calls)")
    parser.add_argument("--no-wire", action="store_true",
                        help="skip the check against the real openai client")
    parser.add_argument("--assists-off", default="", metavar="NAMES",
                        help="assists to switch off, comma-separated; computed_files: every "
                             "first write asks the one-shot draft, as where no command sandbox "
                             "works")
    args = parser.parse_args()
    for full in {"lean": (False,), "full": (True,), "both": (False, True)}[args.mode]:
        table(full, args.stages, args.assists_off)
    print(f"\nchars = characters of every request (messages and tools as JSON); tokens = "
          f"the estimate of both engines (about 4 characters a token); model s = "
          f"{SECONDS_PER_CALL} s a call + uncached tokens at {PREFILL_TOKENS_PER_S:,} tok/s + "
          f"completion tokens at {GENERATED_TOKENS_PER_S} tok/s; uncached = tokens minus "
          "what a prefix cache (OpenAI's rule) would serve; local = tokens evaluated anew "
          "where only the previous prompt is cached (llama.cpp, the embedded model).")
    offered = program_offered("report.md", bench_settings(False, args.assists_off))
    print("\nA data or text file's first write (report.md, notes.md, CHANGES.md) " + (
        "is offered as a program and asks no one-shot draft" if offered else
        "asks the one-shot draft, as every first write does")
          + " (the computed_files assist, where a command sandbox works: "
          + ("on" if offered else "off or no sandbox") + " in this run).")
    if not args.no_wire:
        print("\n" + wire_report())


if __name__ == "__main__":
    main()
