"""``bench/evals/reading_report.py`` on a saved run folder, and on input that is not one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "evals" / "reading_report.py"


def report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_a_saved_runs_reading_is_reported_with_its_checks_on_the_solution(
        tmp_path: Path) -> None:
    """One phase run of ex-merge-intervals whose reading kept two examples: both run on the
    task's hand-written solution, one of them (a wrong result) fails there."""
    run = tmp_path / "run"
    (run / "phase" / "ex-merge-intervals").mkdir(parents=True)
    (run / "results.json").write_text(json.dumps({"set": "suite", "lang": "zh"}))
    reading = {"kind": "change", "dropped": ["x (create): the request does not name it"],
               "examples": ["merge_intervals([(1, 3), (3, 5)]) == [(1, 5)]",
                            "merge_intervals([(1, 2), (3, 4)]) == [(1, 4)]"]}
    (run / "phase" / "ex-merge-intervals" / "events.jsonl").write_text(
        json.dumps({"kind": "run_started"}) + "\n"
        + json.dumps({"kind": "request_analysed", "reading": reading}) + "\n")
    done = report(str(run))
    assert done.returncode == 0, done.stderr
    assert "suite/zh phase: 1 runs; checks on 1 (100%); 2 checks run on the solutions, " \
           "1 false (50.0%)" in done.stdout
    assert "items dropped 1" in done.stdout
    assert "ex-merge-intervals: false merge_intervals([(1, 2), (3, 4)])" in done.stdout


def test_a_folder_that_is_not_a_run_and_an_unknown_option_are_refused_by_name(
        tmp_path: Path) -> None:
    done = report(str(tmp_path), "--fast")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"error: {tmp_path} is not a runner's output folder (no results.json in it)" \
        in done.stderr
    assert "error: unknown option --fast" in done.stderr
    helped = report("--help")
    assert helped.returncode == 0 and "--recheck" in helped.stdout
