"""The evaluation table's share of hidden tests passed, read from the checker's words."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from bench.evals.engine_run import RunResult
from bench.evals.report import as_json, comparison, hidden_share, totals

REPORT = Path(__file__).resolve().parents[2] / "bench" / "evals" / "report.py"


def _failed(check: str) -> RunResult:
    return RunResult(task="ex", engine="phase", check=check, calls=3)


def test_share_is_read_from_the_pytest_tally_not_from_the_failure_text() -> None:
    result = _failed("the task's tests fail: 3 failed, 9 passed in 0.04s: "
                     "test_a - AssertionError: 40 passed")
    assert hidden_share(result) == 0.75


def test_a_file_that_does_not_import_and_a_run_that_wrote_nothing_count_zero() -> None:
    assert hidden_share(_failed("the task's tests fail: 1 error in 0.10s: SyntaxError")) == 0.0
    assert hidden_share(_failed("solution.py was never written")) == 0.0


def test_totals_average_the_share_over_tasks_and_the_table_shows_it() -> None:
    runs = [RunResult(task="a", engine="phase", passed=True, calls=5),
            _failed("the task's tests fail: 1 failed, 1 passed in 0.01s: test_b")]
    total = totals(runs)
    assert total["tests_share"] == 0.75 and total["median_calls"] == 4
    table = comparison(["phase"], runs)
    assert re.search(r"^phase +1/2 +50% +75% ", table, re.M), table


def test_the_report_merges_results_files_and_a_later_run_of_a_task_replaces_the_earlier(
        tmp_path: Path) -> None:
    first = [RunResult(task="a", engine="phase", check="the task's tests fail: 1 failed, "
                       "1 passed", calls=9),
             RunResult(task="a", engine="oneshot", passed=True, calls=1)]
    again = [RunResult(task="a", engine="phase", passed=True, calls=4),
             RunResult(task="b", engine="phase", check="never written", calls=7),
             RunResult(task="b", engine="oneshot", calls=1)]
    files = []
    for name, runs in (("one", first), ("two", again)):
        engines = list(dict.fromkeys(r.engine for r in runs))
        file = tmp_path / f"{name}.json"
        file.write_text(json.dumps(as_json("m", engines, runs)), encoding="utf-8")
        files.append(str(file))
    done = subprocess.run([sys.executable, str(REPORT), *files], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "== 2 task(s) on phase, oneshot"
    assert any(re.match(r"phase +1/2 +50% +50% +11 ", line) for line in lines), lines
    assert any(re.match(r"oneshot +1/2 +50% ", line) for line in lines), lines
    rows = [line.split()[:3] for line in lines if line.startswith(("a ", "b "))]
    assert rows == [["a", "phase", "PASS"], ["a", "oneshot", "PASS"], ["b", "phase", "FAIL"],
                    ["b", "oneshot", "FAIL"]]


def test_the_report_says_why_it_cannot_read_a_file(tmp_path: Path) -> None:
    broken = tmp_path / "results.json"
    broken.write_text("{not json", encoding="utf-8")
    done = subprocess.run([sys.executable, str(REPORT), str(broken)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "cannot read the results" in done.stderr
