"""The suite's results as a table per engine (and as JSON)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bench.evals.engine_run import RunResult

HEADER = (f"{'task':20} {'result':6} {'outcome (status)':28} {'calls':>5} {'prompt tok':>10} "
          f"{'cached':>8} {'compl tok':>9} {'wall s':>8}")


def totals(results: list[RunResult]) -> dict[str, Any]:
    """Pass rate, calls, tokens, wall time and statuses of one engine's runs."""
    passed = sum(r.passed for r in results)
    return {"tasks": len(results), "passed": passed,
            "pass_rate": round(passed / len(results), 3) if results else 0.0,
            "calls": sum(r.calls for r in results),
            "prompt_tokens": sum(r.prompt_tokens for r in results),
            "cached_tokens": sum(r.cached_tokens for r in results),
            "completion_tokens": sum(r.completion_tokens for r in results),
            "wall_s": round(sum(r.wall_s for r in results), 1),
            "statuses": dict(sorted(Counter(r.status for r in results).items())),
            "outcomes": dict(sorted(Counter(r.outcome or "none" for r in results).items())),
            "claimed_success_but_failed": sum(r.outcome == "succeeded" and not r.passed
                                              for r in results)}


def engine_table(engine: str, results: list[RunResult]) -> str:
    total = totals(results)
    statuses = ", ".join(f"{name} {count}" for name, count in total["statuses"].items())
    outcomes = ", ".join(f"{name} {count}" for name, count in total["outcomes"].items())
    lines = [f"== engine {engine}: {total['passed']}/{total['tasks']} passed "
             f"({total['pass_rate']:.0%}) · {total['calls']} calls · "
             f"{total['prompt_tokens']:,} prompt tokens ({total['cached_tokens']:,} cached) · "
             f"{total['completion_tokens']:,} completion tokens · {total['wall_s']:.0f} s · "
             f"status: {statuses} · outcome: {outcomes} · claimed success but failed the "
             f"check: {total['claimed_success_but_failed']}", HEADER]
    for r in results:
        shown = f"{r.outcome or '-'} ({r.status})"
        lines.append(f"{r.task:20} {'PASS' if r.passed else 'FAIL':6} {shown[:28]:28} "
                     f"{r.calls:5} {r.prompt_tokens:10} {r.cached_tokens:8} "
                     f"{r.completion_tokens:9} {r.wall_s:8.1f}")
    return "\n".join(lines)


def failures(results: list[RunResult]) -> str:
    """Why each failed task failed (the checker's words), and where its run was saved."""
    lines = [f"{r.engine}/{r.task}: {r.check} ({r.output})" for r in results if not r.passed]
    return "\n".join(["failed checks:", *lines]) if lines else ""


def as_json(model: str, engines: list[str], results: list[RunResult]) -> dict[str, Any]:
    return {"model": model,
            "engines": {engine: {"totals": totals([r for r in results if r.engine == engine]),
                                 "tasks": [r.to_dict() for r in results if r.engine == engine]}
                        for engine in engines}}
