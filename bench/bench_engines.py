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
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.config import Settings  # noqa: E402
from core.llm.scripted import ScriptedModel  # noqa: E402
from core.engine.runner import create_engine  # noqa: E402
from tests.support.script import analysis, judge, phases, plan, summary, task  # noqa: E402

Call = tuple[str, dict[str, Any], list[int]]  # tool, arguments, dependencies (task ids)


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


def phase_script(s: Scenario) -> list[dict[str, Any]]:
    replies = [analysis("bench goal", phases=len(s.rounds)),
               phases(*[(p + 1, f"Phase {p + 1}", [p] if p else [], len(rounds))
                        for p, rounds in enumerate(s.rounds)])]
    for p, rounds in enumerate(s.rounds, start=1):
        for r, calls in enumerate(rounds, start=1):
            replies.append(plan(*[task(i, tool, deps, **args)
                                  for i, (tool, args, deps) in enumerate(calls, start=1)]))
            failed = [i for i in range(1, len(calls) + 1) if (p, r, i) in s.failing]
            done = [i for i in range(1, len(calls) + 1) if i not in failed]
            last = r == len(rounds)
            replies.append(judge(done, failed, completed=last,
                                 action="end_phase" if last else (
                                     "retry_failed" if failed else "continue_phase")))
    return replies + [summary()]


def classic_script(s: Scenario, batched: bool) -> list[dict[str, Any]]:
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
    return replies + [{"text": "## Done\n\nAll the work is done."}]


async def measure(replies: list[dict[str, Any]], classic: bool, workspace: Path) -> dict[str, int]:
    settings = Settings(use_phase_task=not classic, think_stage="auto", command_approval="auto",
                        max_iterations=200)
    engine = create_engine(settings, workspace, model=ScriptedModel(replies))
    peak = 0
    async for event in engine.run("bench request: do the work described"):
        if event.kind == "llm_call":
            peak = max(peak, event.context_tokens)
        if event.kind == "run_finished":
            return {"calls": event.llm_calls, "prompt": event.prompt_tokens,
                    "completion": event.completion_tokens, "peak": peak}
    raise RuntimeError("no run_finished")


def main() -> None:
    rows = []
    totals = {k: [0, 0, 0] for k in ("calls", "prompt", "completion", "peak")}
    for s in scenarios():
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b, \
                tempfile.TemporaryDirectory() as c:
            for folder in (a, b, c):
                make_workspace(Path(folder))
            phase = asyncio.run(measure(phase_script(s), False, Path(a)))
            batched = asyncio.run(measure(classic_script(s, True), True, Path(b)))
            stepwise = asyncio.run(measure(classic_script(s, False), True, Path(c)))
        rows.append((s.name, phase, batched, stepwise))
        for key in totals:
            for i, figures in enumerate((phase, batched, stepwise)):
                totals[key][i] += figures[key]
    header = (f"{'scenario':24} {'engine':16} {'calls':>5} {'prompt tok':>10} {'compl tok':>9} "
              f"{'peak ctx':>8}   phase/classic: calls  prompt")
    print(header)
    print("-" * len(header))
    for name, phase, batched, stepwise in rows:
        print(_line(name, "phase", phase))
        for label, classic in (("classic batched", batched), ("classic stepwise", stepwise)):
            print(_line("", label, classic) + f"   {phase['calls'] / classic['calls']:>19.2f}"
                  f"  {phase['prompt'] / classic['prompt']:>6.2f}")
    total = {k: {"phase": v[0], "batched": v[1], "stepwise": v[2]} for k, v in totals.items()}
    print("-" * len(header))
    for label, key in (("phase", "phase"), ("classic batched", "batched"),
                       ("classic stepwise", "stepwise")):
        figures = {k: total[k][key] for k in total}
        ratio = ""
        if key != "phase":
            ratio = (f"   {total['calls']['phase'] / figures['calls']:>19.2f}"
                     f"  {total['prompt']['phase'] / figures['prompt']:>6.2f}")
        print(_line("TOTAL" if key == "phase" else "", label, figures) + ratio)


def _line(name: str, engine: str, f: dict[str, int]) -> str:
    return (f"{name:24} {engine:16} {f['calls']:>5} {f['prompt']:>10} {f['completion']:>9} "
            f"{f['peak']:>8}")


if __name__ == "__main__":
    main()
