"""What the engines' reading of the requests yielded in saved runs: per set and language, how
many tasks got checks (examples kept by the reading), how many checks, and how many of them
fail on the hand-written solution (HumanEval's canonical one) — a check that fails a right
file would send candidates after it. Also whether each change request was read as a change.

    .venv/bin/python bench/evals/reading_report.py [--recheck] artifacts/evals/RUN [RUN2 …]

Each RUN is a runner's output folder (``results.json`` beside ``ENGINE/TASK/events.jsonl``).
``--recheck`` reads each run's recorded analysis reply again with this checkout's engine (no
model call: the reply is replayed), so a change to the reading's checks is measured on the
model's own replies.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)
from bench.evals.sets import select_tasks  # noqa: E402
from bench.evals.reading_probe import read_once  # noqa: E402
from bench.evals.suite import Task  # noqa: E402
from core.config import Settings  # noqa: E402
from core.llm.scripted import ScriptedModel  # noqa: E402
from core.engine.reading.check import parse_example  # noqa: E402
from core.tools.request_examples import examples_for, run_examples  # noqa: E402


def reading_of(events_file: Path) -> dict[str, Any] | None:
    """The checked reading a run's ``request_analysed`` event holds (None: no analysis)."""
    if not events_file.is_file():
        return None
    for line in events_file.read_text(encoding="utf-8").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("kind") == "request_analysed":
            return event.get("reading") or {}
    return None


def reread(run_dir: Path, task: Task) -> dict[str, Any] | None:
    """The reading this checkout's engine makes of the run's recorded analysis reply (None:
    the run has no export or no analysis reply)."""
    export = run_dir / "replies.json"
    if not export.is_file():
        return None
    replies = json.loads(export.read_text(encoding="utf-8")).get("replies") or []
    analysis = next((r for r in replies if r.get("tool") == "request_analyser"), None)
    if analysis is None:
        return None
    result = asyncio.run(read_once(ScriptedModel([analysis]), Settings(max_iterations=0),
                                   task.workspace, task.request))
    return result["reading"]


def false_checks(task: Task, codes: list[str], scratch: Path) -> tuple[int, list[str]]:
    """(checks run, the calls that fail) of the examples ``codes`` on ``task``'s solution."""
    examples = tuple(e for e in map(parse_example, codes) if e is not None)
    if not examples or not task.has_solution:
        return 0, []
    workspace = task.prepare(scratch / task.name)
    task.apply_solution(workspace)
    ran, failed = 0, []
    for path in sorted(workspace.rglob("*.py")):
        own = examples_for(path.read_text(encoding="utf-8"), examples)
        if own:
            result = asyncio.run(run_examples(workspace, {}, path.relative_to(workspace)
                                              .as_posix(), own, "auto"))
            ran += result.passed + result.failed
            failed += [f.split(": the request says", 1)[0] for f in result.failures]
    return ran, failed


def report(folder: Path, recheck: bool = False) -> str:
    meta = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    task_set, lang = meta.get("set", "suite"), meta.get("lang", "en")
    tasks = {t.name: t for t in select_tasks(task_set, None, lang)}
    lines, rows = [], []
    with tempfile.TemporaryDirectory(prefix="phasedesk-reading-") as scratch:
        for engine_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
            for run_dir in sorted(engine_dir.iterdir()):
                task = tasks.get(run_dir.name)
                if task is None:
                    continue
                reading = reread(run_dir, task) if recheck else \
                    reading_of(run_dir / "events.jsonl")
                if reading is None:
                    continue
                codes = list(reading.get("examples", []))
                ran, failed = false_checks(task, codes, Path(scratch) / engine_dir.name)
                rows.append((engine_dir.name, task.name, reading.get("kind", ""), len(codes),
                             ran, failed, len(reading.get("dropped", []))))
    for engine in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == engine]
        with_checks = sum(r[3] > 0 for r in mine)
        checks = sum(r[4] for r in mine)
        false = sum(len(r[5]) for r in mine)
        kinds = {k: sum(r[2] == k for r in mine) for k in ("change", "question", "both",
                                                           "unknown")}
        lines.append(f"{task_set}/{lang} {engine}: {len(mine)} runs; checks on {with_checks} "
                     f"({with_checks / len(mine):.0%}); {checks} checks run on the solutions, "
                     f"{false} false ({false / checks if checks else 0:.1%}); kinds {kinds}; "
                     f"items dropped {sum(r[6] for r in mine)}")
        lines += [f"    {r[1]}: false {', '.join(r[5])}" for r in mine if r[5]]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    recheck = "--recheck" in argv
    folders = [a for a in argv if a != "--recheck"]
    unknown = [a for a in folders if a.startswith("-")]
    missing = [a for a in folders if a not in unknown
               and not (Path(a) / "results.json").is_file()]
    if not folders or unknown or missing:
        print(__doc__, file=sys.stderr)
        for option in unknown:
            print(f"error: unknown option {option}", file=sys.stderr)
        for folder in missing:
            print(f"error: {folder} is not a runner's output folder (no results.json in it)",
                  file=sys.stderr)
        return 2
    for folder in folders:
        print(report(Path(folder), recheck))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
