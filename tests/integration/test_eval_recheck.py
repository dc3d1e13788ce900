"""bench/evals/recheck.py: saved runs checked again with the current checkers. A one-shot reply
that only showed the files back passed question-version before its checker read the answer
outside fenced blocks; checked again it fails, and a run whose folder is gone keeps its verdict."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.evals.engine_run import RunResult
from bench.evals.report import as_json
from bench.evals.suite import select

RECHECK = Path(__file__).resolve().parents[2] / "bench" / "evals" / "recheck.py"


def _saved(folder: Path, summary: str) -> None:
    (task,) = select(["question-version"])
    task.prepare(folder / "workspace")
    (folder / "summary.txt").write_text(summary, encoding="utf-8")


def test_runs_are_checked_again_and_the_changed_verdicts_written(tmp_path: Path) -> None:
    echoed, answered = tmp_path / "oneshot", tmp_path / "phase"
    _saved(echoed, "setup.cfg\n```ini\n[metadata]\nversion = 2.7.1\n```\n")
    _saved(answered, "setup.cfg declares version 2.7.1.")
    runs = [RunResult("question-version", "oneshot", passed=True, check="PASS",
                      output=str(echoed)),
            RunResult("question-version", "phase", passed=True, check="PASS",
                      output=str(answered)),
            RunResult("question-version", "classic", passed=True, check="PASS",
                      output=str(tmp_path / "gone"))]
    results = tmp_path / "results.json"
    results.write_text(json.dumps(as_json("m", ["phase", "classic", "oneshot"], runs)),
                       encoding="utf-8")
    out = tmp_path / "rechecked.json"
    done = subprocess.run([sys.executable, str(RECHECK), str(results), "--write", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "oneshot/question-version: PASS → FAIL: the summary does not say 2.7.1" in done.stdout
    assert "phase/question-version" not in done.stdout
    assert "1 run(s) not checked again" in done.stdout
    engines = json.loads(out.read_text(encoding="utf-8"))["engines"]
    verdicts = {name: part["tasks"][0]["passed"] for name, part in engines.items()}
    assert verdicts == {"oneshot": False, "phase": True, "classic": True}
    assert engines["oneshot"]["totals"]["passed"] == 0
