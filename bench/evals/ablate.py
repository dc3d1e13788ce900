"""What each model-specific helper ("assist") adds: the suite run again without it, on the tasks
where it acted.

    .venv/bin/python bench/evals/ablate.py --results artifacts/evals/RUN/results.json \\
        --base-url URL --model NAME [--jobs N] [--out DIR] [--only a,b]
    .venv/bin/python bench/evals/ablate.py --results R --gguf qwen2.5-coder-1.5b

``results.json`` is a full run's (``run.py``); each engine run in it lists the assists that
acted (the notices they raised). For every assist that acted somewhere, ``run.py --without
NAME`` runs those tasks again on the engines where it acted (all runs at once, ``--jobs``
each), and one table puts the two side by side: tasks passed, the share of hidden tests,
calls (with ``--gguf`` the runs go one assist after another). An assist that acted nowhere
changes nothing on this model and runtime: its row says so. A helper whose removal costs nothing on both runtimes is a candidate for deletion
(docs/evaluation.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)
from bench.evals.engine_run import RunResult  # noqa: E402
from bench.evals.report import hidden_share  # noqa: E402
from core.engine.assists import NAMES  # noqa: E402

RUN = Path(__file__).resolve().parent / "run.py"


def acted(results: dict) -> dict[tuple[str, str], list[str]]:
    """(assist, engine) → the tasks where the assist acted in that engine's runs."""
    found: dict[tuple[str, str], list[str]] = {}
    for engine, part in results["engines"].items():
        if engine == "oneshot" or "/" in engine:
            continue
        for task in part["tasks"]:
            for name in task.get("assists", {}):
                found.setdefault((name, engine), []).append(task["task"])
    return found


def model_flags(args: argparse.Namespace) -> list[str]:
    if args.gguf:
        return ["--gguf", args.gguf]
    return ["--base-url", args.base_url, "--model", args.model,
            *(["--api-key", args.api_key] if args.api_key else [])]


async def ablate(name: str, engine: str, tasks: list[str], args: argparse.Namespace) -> Path:
    out = args.out / f"no-{name}-{engine}"
    command = [sys.executable, str(RUN), *model_flags(args), "--engine", engine, "--tasks",
               ",".join(tasks), "--without", name, "--jobs", str(args.jobs), "--timeout",
               str(args.timeout), "--out", str(out)]
    log = (args.out / f"no-{name}-{engine}.log").open("w", encoding="utf-8")
    process = await asyncio.create_subprocess_exec(*command, stdout=log, stderr=log)
    await process.wait()
    log.close()
    return out / "results.json"


def runs(path: Path) -> list[RunResult]:
    if not path.is_file():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    fields = RunResult.__dataclass_fields__
    return [RunResult(**{k: v for k, v in task.items() if k in fields})
            for part in data["engines"].values() for task in part["tasks"]]


def row(name: str, engine: str, with_it: list[RunResult], without: list[RunResult]) -> str:
    def shown(results: list[RunResult]) -> str:
        if not results:
            return f"{'-':>14}"
        passed = sum(r.passed for r in results)
        share = sum(map(hidden_share, results)) / len(results)
        calls = sum(r.calls for r in results)
        return f"{passed:>3}/{len(results):<3} {share:>4.0%} {calls:>4}"

    return f"{name:20} {engine:8} {len(with_it):>5}  {shown(with_it)}   {shown(without)}"


def table(results: dict, found: dict[tuple[str, str], list[str]],
          paths: dict[tuple[str, str], Path]) -> str:
    by_task = {(engine, t["task"]): t for engine, part in results["engines"].items()
               for t in part["tasks"]}
    fields = RunResult.__dataclass_fields__
    lines = [f"{'assist':20} {'engine':8} {'tasks':>5}  {'with: passed tests calls':>24}   "
             f"{'without: passed tests calls':>27}"]
    for name in NAMES:
        keys = [key for key in found if key[0] == name]
        if not keys:
            lines.append(f"{name:20} {'-':8} {0:>5}  acted in no run: removing it changes "
                         "nothing here")
            continue
        for key in keys:
            tasks = found[key]
            with_it = [RunResult(**{k: v for k, v in by_task[(key[1], t)].items()
                                    if k in fields}) for t in tasks]
            lines.append(row(name, key[1], with_it, runs(paths[key])))
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> int:
    results = json.loads(args.results.read_text(encoding="utf-8"))
    found = acted(results)
    if args.only:
        wanted = {n.strip() for n in args.only.split(",")}
        found = {key: tasks for key, tasks in found.items() if key[0] in wanted}
    args.out.mkdir(parents=True, exist_ok=True)
    keys = list(found)
    if args.gguf:  # one embedded model at a time: the machine's cores are all it has
        done = [await ablate(name, engine, found[(name, engine)], args) for name, engine in keys]
    else:
        done = await asyncio.gather(*(ablate(name, engine, found[(name, engine)], args)
                                      for name, engine in keys))
    text = table(results, found, dict(zip(keys, done)))
    (args.out / "ablations.txt").write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Run the suite without each assist that acted.")
    parser.add_argument("--results", type=Path, required=True, help="a full run's results.json")
    parser.add_argument("--base-url", default="")
    parser.add_argument("--model", default="")
    parser.add_argument("--api-key", default="")
    parser.add_argument("--gguf", default="")
    parser.add_argument("--jobs", type=int, default=4, help="runs at the same time, per assist")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--only", default="", help="comma-separated assists (default: all)")
    parser.add_argument("--out", type=Path, default=Path("artifacts/evals/ablations"))
    args = parser.parse_args(argv)
    if not (args.base_url or args.gguf):
        parser.error("give --base-url or --gguf")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
