"""Phase engine vs classic loop on the same tool work: LLM calls, tokens, peak context.

Each scenario is a list of phases, each a list of rounds, each a list of tool calls
(with dependencies inside a round). The phase engine's scripted model plans exactly those
rounds; the classic engine's scripted model makes exactly the same calls. Two classic
behaviours are measured: "batched" sends every call of a dependency level in one reply
(the most capable ReAct model), "stepwise" one call per reply (seed 003's examples).
Token counts are the same estimate for both engines (about 4 characters a token).

Run: .venv/bin/python bench/bench_engines.py
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)

from bench.bench_model import StageScriptedModel  # noqa: E402
from core.config import Settings  # noqa: E402
from core.engine.runner import create_engine  # noqa: E402
from tests.support.script import analysis, judge, phases, plan, summary, task, think  # noqa: E402

Call = tuple[str, dict[str, Any], list[int]]
SECONDS_PER_CALL = 0.5
PREFILL_TOKENS_PER_S = 2000
GENERATED_TOKENS_PER_S = 50  # tool, arguments, dependencies (task ids)


@dataclass
class Scenario:
    name: str
    rounds: list[list[list[Call]]]  # phases → rounds → calls
    failing: frozenset[tuple[int, int, int]] = frozenset()  # (phase, round, task) judged failed


def read(path: str, deps: list[int] | None = None) -> Call:
    return ("read_file", {"path": path}, deps or [])


def scenarios() -> list[Scenario]:
    edit = ("edit_file", {"path": "src/app.py", "old_text": "VERSION = 1",
                          "new_text": "VERSION = 2"}, [1])
    bad_edit = ("edit_file", {"path": "src/app.py", "old_text": "NOPE", "new_text": "x"}, [])
    fix = ("edit_file", {"path": "src/app.py", "old_text": "VERSION = 2",
                         "new_text": "VERSION = 3"}, [])
    return [
        Scenario("1-phase simple", [[[("list_files", {}, []), read("README.md")]]]),
        Scenario("3-phase with a failure", [
            [[read("src/app.py"), read("src/util.py"), read("README.md")]],
            [[read("src/app.py"), edit, bad_edit], [fix]],
            [[("write_file", {"path": "CHANGES.md", "content": "v3\n"}, [])]],
        ], failing=frozenset({(2, 1, 3)})),
        Scenario("long 5-phase", [
            [[read(f"src/mod{p}{r}{i}.py") for i in range(3)] for r in range(2)]
            for p in range(5)]),
        Scenario("file-heavy", [
            [[read("data/big1.txt"), read("data/big2.txt"), read("data/big3.txt")],
             [read("data/big4.txt"), ("search_code", {"pattern": "needle"}, [])]],
            [[read("data/big5.txt"), ("write_file", {"path": "notes.md", "content": "ok"}, [])]],
        ]),
        Scenario("search then edit chain", [
            [[("search_code", {"pattern": "VERSION"}, []), read("src/app.py", [1])]],
            [[edit[:2] + ([],)], [read("src/app.py")]],
        ]),
        Scenario("commands", [
            [[("run_command", {"command": "echo build"}, []),
              ("run_command", {"command": "ls src"}, [])]],
            [[("run_command", {"command": "echo test"}, [])]],
        ]),
    ]


def make_workspace(root: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "README.md").write_text("# bench\n" + "Some words about the project.\n" * 20)
    (root / "src" / "app.py").write_text("VERSION = 1\n" + "def f():\n    return 1\n" * 40)
    (root / "src" / "util.py").write_text("def util():\n    return 'u'\n" * 40)
    for p in range(5):
        for r in range(2):
            for i in range(3):
                (root / "src" / f"mod{p}{r}{i}.py").write_text(f"# module {p}{r}{i}\n" * 60)
    for n in range(1, 6):
        (root / "data" / f"big{n}.txt").write_text(f"line {n} with a needle maybe\n" * 1500)


def phase_script(s: Scenario) -> dict[str, list[dict[str, Any]]]:
    """Replies per stage for the phase engine doing exactly the scenario's rounds: the first
    round is planned with the phases (by plan_tool_call when a one-phase request is not
    phase-planned), every later one by the judge of the round before (``next_tasks``), as a
    model that knows its next step does."""
    rounds = [(p, r, calls) for p, phase in enumerate(s.rounds, start=1)
              for r, calls in enumerate(phase, start=1)]
    queues: dict[str, list[dict[str, Any]]] = {
        "request_analyser": [analysis("bench goal", phases=len(s.rounds))],
        "judge_tasks": [], "summarizer": [summary()]}
    first = tasks_of(rounds[0][2])
    if len(s.rounds) > 1:  # the phase planner gives the first tasks with the phases
        queues["phase_planner"] = [phases(*[(p + 1, f"Phase {p + 1}", [p] if p else [],
                                             len(rounds)) for p, rounds in enumerate(s.rounds)],
                                          first_tasks=first)]
    else:  # a simple one-phase request is not phase-planned: plan_tool_call plans round 1
        queues["plan_tool_call"] = [plan(*first)]
    for n, (p, r, calls) in enumerate(rounds):
        failed = [i for i in range(1, len(calls) + 1) if (p, r, i) in s.failing]
        done = [i for i in range(1, len(calls) + 1) if i not in failed]
        last = r == len(s.rounds[p - 1])
        action = "end_phase" if last else ("retry_failed" if failed else "continue_phase")
        following = tasks_of(rounds[n + 1][2]) if n + 1 < len(rounds) else None
        # the failed edit failed in the tool: the engine has its error, the judge restates none
        queues["judge_tasks"].append(judge(done, [], completed=last, action=action,
                                           quality=None, next_tasks=following))
    return queues


def tasks_of(calls: list[Call]) -> list[dict[str, Any]]:
    return [task(i, tool, deps, **args) for i, (tool, args, deps) in enumerate(calls, start=1)]


THINK_DEFAULT = think(False, True, "")


def classic_script(s: Scenario, batched: bool) -> dict[str, list[dict[str, Any]]]:
    replies: list[dict[str, Any]] = []
    for rounds in s.rounds:
        for calls in rounds:
            levels: list[list[Call]] = [[c for c in calls if not c[2]],
                                        [c for c in calls if c[2]]]
            for level in levels:
                groups = [level] if batched else [[c] for c in level]
                for group in groups:
                    if group:
                        replies.append({"tool_calls": [{"tool": t, "arguments": a}
                                                       for t, a, _ in group]})
    return {"auto": replies + [{"text": "## Done\n\nAll the work is done."}]}


def tool_work(s: Scenario) -> list[str]:
    return sorted(_work(tool, args) for rounds in s.rounds for calls in rounds
                  for tool, args, _ in calls)


def _work(tool: str, arguments: dict[str, Any]) -> str:
    return tool + json.dumps(arguments, sort_keys=True)


async def measure(s: Scenario, queues: dict[str, list[dict[str, Any]]], classic: bool,
                  workspace: Path) -> dict[str, float]:
    """One run's figures; raises when the phase engine did not run exactly the scenario's
    tool calls (the classic loop: did not plan each of them; it refuses a repeated call as
    a loop) or the run ended without a model-written summary: a script that does not fit
    the engine."""
    settings = Settings(use_phase_task=not classic, think_stage="auto", command_approval="auto",
                        max_iterations=200)
    model = StageScriptedModel(queues, defaults={"think": THINK_DEFAULT})
    engine = create_engine(settings, workspace, model=model)
    peak = cached = 0
    planned: dict[tuple[int, int, int], str] = {}
    ran: list[str] = []
    generated_by = ""
    async for event in engine.run("bench request: do the work described"):
        if event.kind == "llm_call":
            peak = max(peak, event.context_tokens)
            cached += event.cached_tokens
        elif event.kind == "tasks_planned":
            for card in event.tasks:
                planned[(event.phase_id, event.round, card["id"])] = _work(card["tool"],
                                                                          card["arguments"])
        elif event.kind == "task_started":
            ran.append(planned[(event.phase_id, event.round, event.task_id)])
        elif event.kind == "summary":
            generated_by = event.generated_by
        elif event.kind == "run_finished":
            problems = []
            if classic and set(planned.values()) != set(tool_work(s)):
                problems.append(f"planned {sorted(planned.values())}, expected {tool_work(s)}")
            if not classic and sorted(ran) != tool_work(s):
                problems.append(f"ran {sorted(ran)}, expected {tool_work(s)}")
            if generated_by != "model":
                problems.append(f"summary written by {generated_by or 'nobody'}")
            if model.left_over():
                problems.append(f"replies never asked for: {model.left_over()}")
            if problems:
                engine_name = "classic" if classic else "phase"
                raise RuntimeError(f"{s.name} ({engine_name}): " + "; ".join(problems))
            figures = {"calls": event.llm_calls, "prompt": event.prompt_tokens,
                       "uncached": event.prompt_tokens - cached,
                       "completion": event.completion_tokens, "peak": peak}
            figures["seconds"] = model_seconds(figures)
            return figures
    raise RuntimeError("no run_finished")


def model_seconds(f: dict[str, float]) -> float:
    """Modelled model time: a fixed latency per call, uncached prompt tokens at the prefill
    rate, completion tokens at the generation rate (cached prompt tokens taken as free)."""
    return (f["calls"] * SECONDS_PER_CALL + f["uncached"] / PREFILL_TOKENS_PER_S
            + f["completion"] / GENERATED_TOKENS_PER_S)


COLUMNS = (("calls", 5, "d"), ("prompt", 8, "d"), ("uncached", 8, "d"),
           ("completion", 6, "d"), ("peak", 6, "d"), ("seconds", 6, ".1f"))


def main() -> None:
    rows = []
    engines = ("phase", "batched", "stepwise")
    totals = {e: {key: 0.0 for key, _, _ in COLUMNS} for e in engines}
    for s in scenarios():
        figures = {}
        for engine, classic, script in (("phase", False, phase_script(s)),
                                        ("batched", True, classic_script(s, True)),
                                        ("stepwise", True, classic_script(s, False))):
            with tempfile.TemporaryDirectory() as folder:
                make_workspace(Path(folder))
                figures[engine] = asyncio.run(measure(s, script, classic, Path(folder)))
            for key, _, _ in COLUMNS:
                totals[engine][key] += figures[engine][key]
        rows.append((s.name, figures))
    rows.append(("TOTAL", totals))
    header = (f"{'scenario':24} {'engine':16} {'calls':>5} {'prompt':>8} {'uncached':>8} "
              f"{'compl':>6} {'peak':>6} {'model s':>7}   phase/this: calls prompt  compl")
    print(header)
    print("-" * len(header))
    labels = {"phase": "phase", "batched": "classic batched", "stepwise": "classic stepwise"}
    for name, figures in rows:
        if name == "TOTAL":
            print("-" * len(header))
        for engine in engines:
            line = _line(name if engine == "phase" else "", labels[engine], figures[engine])
            if engine != "phase":
                p, c = figures["phase"], figures[engine]
                line += (f"   {p['calls'] / c['calls']:>16.2f} {p['prompt'] / c['prompt']:>6.2f}"
                         f" {p['completion'] / c['completion']:>6.2f}")
            print(line)
    print(f"\nmodel s = {SECONDS_PER_CALL} s a call + uncached prompt tokens at "
          f"{PREFILL_TOKENS_PER_S:,} tok/s + completion tokens at {GENERATED_TOKENS_PER_S} tok/s; "
          "uncached = prompt tokens minus what a prefix cache (OpenAI's rule) would serve.")


def _line(name: str, engine: str, f: dict[str, float]) -> str:
    cells = " ".join(f"{f[key]:>{width}{fmt if fmt != 'd' else ''}}" if fmt != "d"
                     else f"{int(f[key]):>{width}}" for key, width, fmt in COLUMNS)
    return f"{name:24} {engine:16} {cells}  "


if __name__ == "__main__":
    main()
