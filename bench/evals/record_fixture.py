"""Turn one run of the evaluation into a replay fixture for the tests: the request, the
workspace the run started from, every reply the model gave (the run's export) and what the run
ended with — its ``run_finished`` event and the workspace's files at the end.

    .venv/bin/python bench/evals/record_fixture.py artifacts/evals/OUT --engine phase \
        --task rename-key [--lang zh] NAME

writes ``tests/support/transcripts/NAME/`` (``request.txt``, ``workspace/``, ``replies.json``,
``end/``, ``ended.json``); ``tests/integration/test_recorded_runs.py`` replays every such
folder through the headless app and asserts it ends the same way. Once the engine decides
differently from the recorded run, a replay no longer fits its replies: record it again.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)
from bench.evals.sets import select_tasks  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "support" / "transcripts"
ENDED_FIELDS = ("status", "llm_calls", "outcome", "verification", "verification_line")


def ended(events_file: Path) -> dict[str, Any]:
    """The fields of the run's ``run_finished`` event a replay must reproduce; ``ValueError``
    when the run has none (it was cut off)."""
    for line in reversed(events_file.read_text(encoding="utf-8").splitlines()):
        event = json.loads(line)
        if event.get("kind") == "run_finished":
            return {name: event.get(name) for name in ENDED_FIELDS}
    raise ValueError(f"{events_file} has no run_finished event: the run did not end")


def record(run: Path, task_set: str, task_name: str, lang: str, target: Path) -> None:
    """Write the fixture for the run saved in ``run`` (``OUT/ENGINE/TASK``) to ``target``."""
    task = select_tasks(task_set, [task_name], lang)[0]
    replies = run / "replies.json"
    if not replies.is_file():
        raise ValueError(f"{run} has no replies.json (the run's export)")
    outcome = ended(run / "events.jsonl")
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    (target / "request.txt").write_text(task.request + "\n", encoding="utf-8")
    task.prepare(target / "workspace")
    shutil.copy(replies, target / "replies.json")
    shutil.copytree(run / "workspace", target / "end",
                    ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    source = {"task": task_name, "set": task_set, "lang": lang, "engine": run.parent.name}
    (target / "ended.json").write_text(json.dumps({**outcome, "recorded_from": source},
                                                  indent=2, ensure_ascii=False) + "\n",
                                       encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="a results folder of bench/evals/run.py")
    parser.add_argument("name", help="the fixture's folder name under tests/support/transcripts")
    parser.add_argument("--engine", default="phase")
    parser.add_argument("--task", required=True)
    parser.add_argument("--set", dest="task_set", default="suite")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args(argv)
    try:
        record(args.results / args.engine / args.task, args.task_set, args.task, args.lang,
               FIXTURES / args.name)
    except (OSError, ValueError) as exc:
        print(f"record_fixture: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {FIXTURES / args.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
