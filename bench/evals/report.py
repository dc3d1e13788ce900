"""The suite's results as one table: a row per engine, then a row per task and engine (and as
JSON). The one-shot baseline's row sits beside the engines', so every measurement shows what
the engines add over the model alone.

Run alone, it prints one table from the ``results.json`` files of several runner calls (say,
one call per task, so that runs cut short by time still leave whole rows):

    .venv/bin/python bench/evals/report.py artifacts/evals/*/results.json
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)
from bench.evals.engine_run import RunResult  # noqa: E402

ENGINE_HEADER = (f"{'engine':8} {'passed':>7} {'rate':>5} {'tests':>5} {'calls':>6} "
                 f"{'median':>6} {'prompt tok':>10} "
                 f"{'cached':>8} {'compl tok':>9} {'wall s':>8} {'claimed':>7}  "
                 f"status · outcome")
TASK_HEADER = (f"{'task':20} {'engine':8} {'result':6} {'tests':>5} {'outcome (status)':28} "
               f"{'calls':>5} "
               f"{'prompt tok':>10} {'cached':>8} {'compl tok':>9} {'wall s':>8}")
LEGEND = ("tests: the share of the task's hidden tests that pass (averaged over tasks; a "
          "file that does not import counts 0); median: calls per run; claimed: runs whose "
          "outcome was `succeeded` that failed the check; the one-shot baseline is one plain "
          "call (outcome: the files its reply wrote)")


def hidden_share(result: RunResult) -> float:
    """The share of the hidden tests that passed, read from the checker's tally ("3 failed,
    9 passed"): 1 for a passed run, 0 when no tally says otherwise (nothing written, a file
    that does not import)."""
    if result.passed:
        return 1.0
    found = re.search(r"\d+ (?:passed|failed|errors?)(?:, \d+ \w+)*", result.check)
    tally = found.group(0) if found else ""
    count = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|errors?)", tally)}
    passed = count.get("passed", 0)
    total = passed + count.get("failed", 0) + count.get("error", 0) + count.get("errors", 0)
    return passed / total if total else 0.0


def totals(results: list[RunResult]) -> dict[str, Any]:
    """Pass rate, calls, tokens, wall time and statuses of one engine's runs."""
    passed = sum(r.passed for r in results)
    return {"tasks": len(results), "passed": passed,
            "pass_rate": round(passed / len(results), 3) if results else 0.0,
            "tests_share": (round(sum(map(hidden_share, results)) / len(results), 3)
                            if results else 0.0),
            "calls": sum(r.calls for r in results),
            "median_calls": median(r.calls for r in results) if results else 0,
            "prompt_tokens": sum(r.prompt_tokens for r in results),
            "cached_tokens": sum(r.cached_tokens for r in results),
            "completion_tokens": sum(r.completion_tokens for r in results),
            "wall_s": round(sum(r.wall_s for r in results), 1),
            "statuses": dict(sorted(Counter(r.status for r in results).items())),
            "outcomes": dict(sorted(Counter(r.outcome or "none" for r in results).items())),
            "claimed_success_but_failed": sum(r.outcome == "succeeded" and not r.passed
                                              for r in results)}


def _counts(counter: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counter.items())


def engine_row(engine: str, results: list[RunResult]) -> str:
    total = totals(results)
    passed = f"{total['passed']}/{total['tasks']}"
    return (f"{engine:8} {passed:>7} {total['pass_rate']:>5.0%} {total['tests_share']:>5.0%} "
            f"{total['calls']:6} {total['median_calls']:6g} {total['prompt_tokens']:10} "
            f"{total['cached_tokens']:8} "
            f"{total['completion_tokens']:9} {total['wall_s']:8.1f} "
            f"{total['claimed_success_but_failed']:7}  {_counts(total['statuses'])} · "
            f"{_counts(total['outcomes'])}")


def task_row(r: RunResult) -> str:
    shown = f"{r.outcome or '-'} ({r.status})"
    return (f"{r.task:20} {r.engine:8} {'PASS' if r.passed else 'FAIL':6} "
            f"{hidden_share(r):>5.0%} {shown[:28]:28} "
            f"{r.calls:5} {r.prompt_tokens:10} {r.cached_tokens:8} {r.completion_tokens:9} "
            f"{r.wall_s:8.1f}")


def comparison(engines: list[str], results: list[RunResult]) -> str:
    """The engines side by side: one row each with their totals, then each task's runs
    together (in suite order, engines in the order given)."""
    by_engine = {engine: [r for r in results if r.engine == engine] for engine in engines}
    count = max((len(runs) for runs in by_engine.values()), default=0)
    lines = [f"== {count} task(s) on {', '.join(engines)}", ENGINE_HEADER]
    lines += [engine_row(engine, runs) for engine, runs in by_engine.items()]
    lines += ["", TASK_HEADER]
    tasks = list(dict.fromkeys(r.task for r in results))
    for task in tasks:
        lines += [task_row(r) for engine in engines for r in by_engine[engine] if r.task == task]
    lines += ["", LEGEND]
    return "\n".join(lines)


def failures(results: list[RunResult]) -> str:
    """Why each failed task failed (the checker's words, and what the run said), and where its
    run was saved."""
    lines = [f"{r.engine}/{r.task}: {r.check}{f' [{r.note}]' if r.note else ''} ({r.output})"
             for r in results if not r.passed]
    return "\n".join(["failed checks:", *lines]) if lines else ""


def as_json(model: str, engines: list[str], results: list[RunResult]) -> dict[str, Any]:
    return {"model": model,
            "engines": {engine: {"totals": totals([r for r in results if r.engine == engine]),
                                 "tasks": [r.to_dict() for r in results if r.engine == engine]}
                        for engine in engines}}


def merged(files: list[Path]) -> tuple[list[str], list[RunResult]]:
    """The engines (in the order first seen) and runs of several results files; a later file's
    run of the same task and engine replaces an earlier one."""
    engines: dict[str, None] = {}
    runs: dict[tuple[str, str], RunResult] = {}
    for file in files:
        data = json.loads(file.read_text(encoding="utf-8"))
        for engine, part in data["engines"].items():
            engines.setdefault(engine)
            for task in part["tasks"]:
                runs[(engine, task["task"])] = RunResult(**task)
    return list(engines), list(runs.values())


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: report.py RESULTS.json [RESULTS.json ...]", file=sys.stderr)
        return 2
    try:
        engines, results = merged([Path(name) for name in argv])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"report.py: cannot read the results: {exc}", file=sys.stderr)
        return 2
    print(comparison(engines, results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
