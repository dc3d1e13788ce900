"""The evaluation's results as tables: per task set, language and runtime, a row per engine,
then a row per task and engine (and as JSON). The one-shot baseline's row is on every table
(saying so when it was not run), so every measurement shows what the engines add over the
model alone.

Run alone, it prints one table per (set, language, runtime) from the ``results.json`` files of
several runner calls (say, one call per task, so that runs cut short by time still leave whole
rows):

    .venv/bin/python bench/evals/report.py artifacts/evals/*/results.json
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)
from bench.evals.engine_run import RunResult  # noqa: E402

WIDE = 22  # an engine's column: a labelled run ("phase/no-writes_after_reads") fits
ONESHOT = "oneshot"
OUTCOMES = ("succeeded", "unverified", "partial", "failed")  # the engines' outcomes
CHECKED = ("verified", "failing")  # verification states of a run that ran a check itself
CELL = 14  # an outcome's column: "164 (150 pass)"
ENGINE_HEADER = (f"{'engine':{WIDE}} {'passed':>7} {'rate':>5} {'tests':>5} {'calls':>6} "
                 f"{'median':>6} {'prompt tok':>10} {'×1shot':>6} "
                 f"{'cached':>8} {'compl tok':>9} {'wall s':>8} {'med s':>6} {'checked':>7} "
                 f"{'won':>4} {'lost':>4}  " + " ".join(f"{name:{CELL}}" for name in OUTCOMES)
                 + " status · other outcomes")
TASK_HEADER = (f"{'task':20} {'engine':{WIDE}} {'result':6} {'tests':>5} "
               f"{'outcome (status)':28} "
               f"{'calls':>5} "
               f"{'prompt tok':>10} {'cached':>8} {'compl tok':>9} {'wall s':>8}")
LEGEND = ("tests: the share of the task's hidden tests that pass (averaged over tasks; a "
          "file that does not import counts 0); median: calls per run; ×1shot: prompt tokens "
          "per task over the one-shot call's, median; med s: wall time per run, median; "
          "checked: the share of runs in which the engine ran a check itself (verified or "
          "failing); succeeded … failed: runs that ended in that outcome (how many of them "
          "passed the checker); won / lost: tasks passed where the one-shot baseline failed / "
          "failed where it passed (the engines' first write of a file the request names sends "
          "the baseline's prompt, so lost counts drafts that passed and were replaced by a "
          "failing file); the one-shot baseline is one plain call (outcome: the files its "
          "reply wrote)")


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
    """Pass rate, calls, tokens, wall time, statuses and outcomes of one engine's runs (per
    outcome, how many runs ended in it and how many of those passed the checker), the share
    of runs that ran a check themselves, and what they did beside the ``baseline``'s runs of
    the same tasks."""
    passed = sum(r.passed for r in results)
    count = len(results)
    return {"tasks": count, "passed": passed,
            "pass_rate": round(passed / count, 3) if count else 0.0,
            "tests_share": round(sum(map(hidden_share, results)) / count, 3) if count else 0.0,
            "calls": sum(r.calls for r in results),
            "median_calls": median(r.calls for r in results) if count else 0,
            "prompt_tokens": sum(r.prompt_tokens for r in results),
            "cached_tokens": sum(r.cached_tokens for r in results),
            "completion_tokens": sum(r.completion_tokens for r in results),
            "wall_s": round(sum(r.wall_s for r in results), 1),
            "median_wall_s": round(median(r.wall_s for r in results), 1) if count else 0.0,
            "statuses": dict(sorted(Counter(r.status for r in results).items())),
            "outcomes": dict(sorted(Counter(r.outcome or "none" for r in results).items())),
            "outcome_runs": {name: {"runs": sum(r.outcome == name for r in results),
                                    "passed": sum(r.outcome == name and r.passed
                                                  for r in results)}
                             for name in OUTCOMES},
            "claimed_success_but_failed": sum(r.outcome == "succeeded" and not r.passed
                                              for r in results),
            "verification": dict(sorted(Counter(r.verification or "none"
                                                for r in results).items())),
            "checked_share": (round(sum(r.verification in CHECKED for r in results) / count, 3)
                              if count else 0.0),
            "assists": dict(sorted(sum((Counter(r.assists) for r in results),
                                       Counter()).items())),
            **against(results, baseline or {})}


def _counts(counter: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counter.items())


def engine_row(engine: str, results: list[RunResult],
               baseline: dict[str, RunResult] | None = None) -> str:
    if not results:
        return f"{engine:{WIDE}} not run (no runs of it for this set, language and runtime)"
    total = totals(results, baseline)
    passed = f"{total['passed']}/{total['tasks']}"
    ratio = total["prompt_ratio_median"]
    shown_ratio = f"{ratio:6.1f}" if ratio is not None else f"{'-':>6}"
    alone = engine == ONESHOT  # one plain call: no outcome of the engines', no check of its own
    checked = f"{'-':>7}" if alone else f"{total['checked_share']:>7.0%}"
    cells = " ".join(f"{'-' if alone else _outcome_cell(total['outcome_runs'][name]):{CELL}}"
                     for name in OUTCOMES)
    others = {name: n for name, n in total["outcomes"].items() if name not in OUTCOMES}
    return (f"{engine:{WIDE}} {passed:>7} {total['pass_rate']:>5.0%} "
            f"{total['tests_share']:>5.0%} "
            f"{total['calls']:6} {total['median_calls']:6g} {total['prompt_tokens']:10} "
            f"{shown_ratio} {total['cached_tokens']:8} "
            f"{total['completion_tokens']:9} {total['wall_s']:8.1f} "
            f"{total['median_wall_s']:6.1f} {checked} {total['won']:4} {total['lost']:4}  "
            f"{cells} {_counts(total['statuses'])}"
            + (f" · {_counts(others)}" if others else ""))


def _outcome_cell(count: dict[str, int]) -> str:
    return f"{count['runs']} ({count['passed']} pass)"


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


@dataclass(frozen=True)
class Group:
    """The runs one table compares: a task set, the requests' language and the runtime."""

    task_set: str = "suite"
    lang: str = "en"
    runtime: str = ""

    def describe(self) -> str:
        return (f"set {self.task_set} · language {self.lang} · "
                f"runtime {self.runtime or 'not recorded'}")


def comparison(engines: list[str], results: list[RunResult], group: Group | None = None,
               models: list[str] | None = None) -> str:
    """The engines side by side, the one-shot baseline's row always among them: one row each
    with their totals, then each task's runs together (in the order run, engines in the
    order given)."""
    shown = [*engines, *([] if ONESHOT in engines else [ONESHOT])]
    by_engine = {engine: [r for r in results if r.engine == engine] for engine in shown}
    baseline = {r.task: r for r in by_engine[ONESHOT]}
    count = max((len(runs) for runs in by_engine.values()), default=0)
    lines = [f"== {count} task(s) on {', '.join(engines)}"]
    if group is not None:
        lines += [group.describe() + (f" · {', '.join(models)}" if models else "")]
    lines += [ENGINE_HEADER]
    lines += [engine_row(engine, runs, baseline) for engine, runs in by_engine.items()]
    lines += [extras(engine, runs) for engine, runs in by_engine.items()
              if engine != ONESHOT and runs]
    lines += ["", TASK_HEADER]
    tasks = list(dict.fromkeys(r.task for r in results))
    for task in tasks:
        lines += [task_row(r) for engine in shown for r in by_engine[engine] if r.task == task]
    lines += ["", LEGEND]
    return "\n".join(lines)


def failures(results: list[RunResult]) -> str:
    """Why each failed task failed (the checker's words, and what the run said), and where its
    run was saved."""
    lines = [f"{r.engine}/{r.task}: {r.check}{f' [{r.note}]' if r.note else ''} ({r.output})"
             for r in results if not r.passed]
    return "\n".join(["failed checks:", *lines]) if lines else ""


def as_json(model: str, engines: list[str], results: list[RunResult],
            group: Group | None = None, sample: dict[str, int] | None = None) -> dict[str, Any]:
    """The results file: which set, language, runtime and model, then per engine its totals
    and its runs; ``sample`` records a random draw of the set's tasks (``n``, ``seed``)."""
    group = group or Group()
    baseline = {r.task: r for r in results if r.engine == ONESHOT}
    return {"set": group.task_set, "lang": group.lang, "runtime": group.runtime,
            "model": model, **({"sample": sample} if sample else {}),
            "engines": {engine: {"totals": totals([r for r in results if r.engine == engine],
                                                  baseline),
                                 "tasks": [r.to_dict() for r in results if r.engine == engine]}
                        for engine in engines}}


@dataclass
class Table:
    """The runs of one (set, language, runtime) from one or more results files."""

    group: Group
    models: list[str] = field(default_factory=list)
    engines: list[str] = field(default_factory=list)
    runs: dict[tuple[str, str], RunResult] = field(default_factory=dict)

    @property
    def results(self) -> list[RunResult]:
        return list(self.runs.values())


def recorded_runtime(data: dict[str, Any]) -> str:
    """The results file's runtime; for files written before it was recorded, read from how
    the runner described the model (``ModelChoice.describe``)."""
    if data.get("runtime"):
        return str(data["runtime"])
    model = str(data.get("model", ""))
    if model.startswith("embedded "):
        return "embedded"
    return "scripted" if model.startswith("replies from ") else "endpoint"


def merged(files: list[Path]) -> list[Table]:
    """The runs of several results files, a table per (set, language, runtime) in the order
    first seen; a later file's run of the same task and engine replaces an earlier one."""
    tables: dict[Group, Table] = {}
    for file in files:
        data = json.loads(file.read_text(encoding="utf-8"))
        group = Group(str(data.get("set", "suite")), str(data.get("lang", "en")),
                      recorded_runtime(data))
        table = tables.setdefault(group, Table(group))
        model = str(data.get("model", ""))
        if model and model not in table.models:
            table.models.append(model)
        for engine, part in data["engines"].items():
            if engine not in table.engines:
                table.engines.append(engine)
            for task in part["tasks"]:
                known = {k: v for k, v in task.items() if k in RunResult.__dataclass_fields__}
                table.runs[(engine, task["task"])] = RunResult(**known)
    return list(tables.values())


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    if not argv:
        print("usage: report.py RESULTS.json [RESULTS.json ...]", file=sys.stderr)
        return 2
    try:
        tables = merged([Path(name) for name in argv])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"report.py: cannot read the results: {exc}", file=sys.stderr)
        return 2
    print("\n\n".join(comparison(t.engines, t.results, t.group, t.models) for t in tables))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
