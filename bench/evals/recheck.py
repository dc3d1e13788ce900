"""Check saved runs again with the tasks' current checkers, for when a checker changes.

    .venv/bin/python bench/evals/recheck.py RESULTS.json [--tasks a,b] [--write OUT.json]

For each run in the results file whose folder (``output``) still holds its ``workspace/`` and
``summary.txt``, the task's checker runs again; the runs whose verdict changes are printed,
and ``--write`` saves the results with the new verdicts (a run whose folder is gone keeps its
old one, and is counted as such). Runs the checker cannot see again are never guessed at.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)
from bench.evals.report import as_json, merged  # noqa: E402
from bench.evals.sets import select_tasks  # noqa: E402
from bench.evals.suite import check  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--tasks", default="", help="comma-separated task names (default all)")
    parser.add_argument("--write", type=Path, help="save the re-checked results here")
    args = parser.parse_args(argv)
    try:
        data = json.loads(args.results.read_text(encoding="utf-8"))
        (table,) = merged([args.results])
        runs = table.results
        tasks = {task.name: task for task in select_tasks(table.group.task_set,
                                                          sorted({r.task for r in runs}))}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"recheck.py: cannot read the results: {exc}", file=sys.stderr)
        return 2
    wanted = {name for name in args.tasks.split(",") if name}
    gone = 0
    for run in runs:
        if wanted and run.task not in wanted:
            continue
        folder = Path(run.output)
        if not (folder / "workspace").is_dir() or not (folder / "summary.txt").is_file():
            gone += 1
            continue
        verdict = check(tasks[run.task], folder / "workspace", folder / "summary.txt")
        if verdict.passed != run.passed:
            was = "PASS" if run.passed else "FAIL"
            now = "PASS" if verdict.passed else f"FAIL: {verdict.message}"
            print(f"{run.engine}/{run.task}: {was} → {now}")
        run.passed, run.check = verdict.passed, verdict.message
    print(f"{gone} run(s) not checked again: their folders are gone")
    if args.write:
        args.write.write_text(json.dumps(as_json(data.get("model", ""), table.engines, runs,
                                                 table.group, data.get("sample")), indent=1),
                              encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
