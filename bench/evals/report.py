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

WIDE = 22  # an engine's column: a labelled run ("phase/no-writes_after_reads") fits
ENGINE_HEADER = (f"{'engine':{WIDE}} {'passed':>7} {'rate':>5} {'tests':>5} {'calls':>6} "
                 f"{'median':>6} {'prompt tok':>10} {'×1shot':>6} "
                 f"{'cached':>8} {'compl tok':>9} {'wall s':>8} {'claimed':>7} {'won':>4} "
                 f"{'lost':>4}  status · outcome")
TASK_HEADER = (f"{'task':20} {'engine':{WIDE}} {'result':6} {'tests':>5} "
               f"{'outcome (status)':28} "
               f"{'calls':>5} "
               f"{'prompt tok':>10} {'cached':>8} {'compl tok':>9} {'wall s':>8}")
LEGEND = ("tests: the share of the task's hidden tests that pass (averaged over tasks; a "
          "file that does not import counts 0); median: calls per run; ×1shot: prompt tokens "
          "per task over the one-shot call's, median; claimed: runs whose outcome was "
          "`succeeded` that failed the check; won / lost: tasks passed where the one-shot "
          "baseline failed / failed where it passed (the engines' first write of a file the "
          "request names sends the baseline's prompt, so lost counts drafts that passed and "
          "were replaced by a failing file); the one-shot baseline is one plain call (outcome: "
          "the files its reply wrote)")


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


def against(results: list[RunResult], baseline: dict[str, RunResult]) -> dict[str, Any]:
    """What one engine's runs did beside the one-shot baseline's of the same tasks."""
    pairs = [(r, baseline[r.task]) for r in results if r.task in baseline]
    ratios = [r.prompt_tokens / b.prompt_tokens for r, b in pairs if b.prompt_tokens]
    return {"won": sum(r.passed and not b.passed for r, b in pairs),
            "lost": sum(b.passed and not r.passed for r, b in pairs),
            "prompt_ratio_median": round(median(ratios), 2) if ratios else None}


def totals(results: list[RunResult], baseline: dict[str, RunResult] | None = None
           ) -> dict[str, Any]:
    """Pass rate, calls, tokens, wall time and statuses of one engine's runs, and what they
    did beside the ``baseline``'s runs of the same tasks."""
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
                                              for r in results),
            "verification": dict(sorted(Counter(r.verification or "none"
                                                for r in results).items())),
            "assists": dict(sorted(sum((Counter(r.assists) for r in results),
                                       Counter()).items())),
            **against(results, baseline or {})}


def _counts(counter: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counter.items())


def engine_row(engine: str, results: list[RunResult],
               baseline: dict[str, RunResult] | None = None) -> str:
    total = totals(results, baseline)
    passed = f"{total['passed']}/{total['tasks']}"
    ratio = total["prompt_ratio_median"]
    shown_ratio = f"{ratio:6.1f}" if ratio is not None else f"{'-':>6}"
    return (f"{engine:{WIDE}} {passed:>7} {total['pass_rate']:>5.0%} "
            f"{total['tests_share']:>5.0%} "
            f"{total['calls']:6} {total['median_calls']:6g} {total['prompt_tokens']:10} "
            f"{shown_ratio} {total['cached_tokens']:8} "
            f"{total['completion_tokens']:9} {total['wall_s']:8.1f} "
            f"{total['claimed_success_but_failed']:7} {total['won']:4} {total['lost']:4}  "
            f"{_counts(total['statuses'])} · {_counts(total['outcomes'])}")


def extras(engine: str, results: list[RunResult]) -> str:
    """The engine's verification states and the helpers that acted in its runs."""
    total = totals(results)
    return (f"  {engine}: verification {_counts(total['verification'])}"
            + (f"; helpers acted {_counts(total['assists'])}" if total["assists"] else ""))


def task_row(r: RunResult) -> str:
    shown = f"{r.outcome or '-'} ({r.status})"
    return (f"{r.task:20} {r.engine:{WIDE}} {'PASS' if r.passed else 'FAIL':6} "
            f"{hidden_share(r):>5.0%} {shown[:28]:28} "
            f"{r.calls:5} {r.prompt_tokens:10} {r.cached_tokens:8} {r.completion_tokens:9} "
            f"{r.wall_s:8.1f}")


def comparison(engines: list[str], results: list[RunResult]) -> str:
    """The engines side by side: one row each with their totals, then each task's runs
    together (in suite order, engines in the order given)."""
    by_engine = {engine: [r for r in results if r.engine == engine] for engine in engines}
    baseline = {r.task: r for r in by_engine.get("oneshot", [])}
    count = max((len(runs) for runs in by_engine.values()), default=0)
    lines = [f"== {count} task(s) on {', '.join(engines)}", ENGINE_HEADER]
    lines += [engine_row(engine, runs, baseline) for engine, runs in by_engine.items()]
    lines += [extras(engine, runs) for engine, runs in by_engine.items() if engine != "oneshot"]
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
    baseline = {r.task: r for r in results if r.engine == "oneshot"}
    return {"model": model,
            "engines": {engine: {"totals": totals([r for r in results if r.engine == engine],
                                                  baseline),
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
                known = {k: v for k, v in task.items() if k in RunResult.__dataclass_fields__}
                runs[(engine, task["task"])] = RunResult(**known)
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
