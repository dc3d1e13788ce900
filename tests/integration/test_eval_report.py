"""The evaluation table's share of hidden tests passed, read from the checker's words."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from bench.evals.engine_run import RunResult
from bench.evals.report import Group, as_json, comparison, hidden_share, totals

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
    helped = subprocess.run([sys.executable, str(REPORT), "--help"], capture_output=True,
                            text=True, timeout=60)
    assert helped.returncode == 0 and "report.py artifacts/evals/*/results.json" in helped.stdout


def _run(task: str, engine: str, outcome: str, passed: bool, verification: str = "",
         wall_s: float = 10.0) -> RunResult:
    return RunResult(task=task, engine=engine, outcome=outcome, passed=passed, calls=4,
                     status="completed", verification=verification, wall_s=wall_s,
                     check="PASS" if passed else "the task's tests fail: 1 failed")


ENGINE_RUNS = [_run("a", "phase", "succeeded", True, "verified", 4.0),
               _run("b", "phase", "succeeded", False, "unverified", 6.0),
               _run("c", "phase", "unverified", True, "unverified", 8.0),
               _run("d", "phase", "partial", False, "failing", 30.0),
               _run("e", "phase", "failed", False, "failing", 50.0),
               _run("f", "phase", "", False, "", 70.0)]  # recorded before outcomes


def test_each_outcome_counts_its_runs_and_those_that_pass_and_the_checked_share() -> None:
    total = totals(ENGINE_RUNS)
    assert total["outcome_runs"] == {"succeeded": {"runs": 2, "passed": 1},
                                     "unverified": {"runs": 1, "passed": 1},
                                     "partial": {"runs": 1, "passed": 0},
                                     "failed": {"runs": 1, "passed": 0}}
    assert total["checked_share"] == 0.5 and total["median_wall_s"] == 19.0
    table = comparison(["phase"], ENGINE_RUNS, Group("humaneval", "en", "embedded"))
    lines = table.splitlines()
    assert lines[:2] == ["== 6 task(s) on phase",
                         "set humaneval · language en · runtime embedded"]
    (row,) = [line for line in lines if line.startswith("phase ")]
    assert re.match(r"phase +2/6 +33% +33% +24 +4 .* 19\.0 +50% +0 +0  2 \(1 pass\) +"
                    r"1 \(1 pass\) +1 \(0 pass\) +1 \(0 pass\) +completed 6 · none 1$", row), row
    # the one-shot row is on every table, saying it was not run here
    assert any(re.match(r"oneshot +not run \(no runs of it", line) for line in lines), table
    assert [line.split()[0] for line in lines if re.match(r"[a-f] ", line)] == list("abcdef")


def test_runs_recorded_before_unverified_existed_show_none_of_it_and_the_baseline_dashes(
        ) -> None:
    runs = [_run("a", "classic", "succeeded", True, "verified"),
            _run("b", "classic", "partial", False, "unverified"),
            RunResult(task="a", engine="oneshot", passed=True, calls=1, outcome="wrote 1 file",
                      status="completed", prompt_tokens=100),
            RunResult(task="b", engine="oneshot", calls=1, outcome="wrote nothing",
                      status="completed", prompt_tokens=100)]
    table = comparison(["classic", "oneshot"], runs)
    (classic,) = [line for line in table.splitlines() if line.startswith("classic ")]
    assert re.search(r"  1 \(1 pass\) +0 \(0 pass\) +1 \(0 pass\) +0 \(0 pass\) +completed 2$",
                     classic), classic
    assert re.search(r" 50% +0 +0 ", classic), classic  # checked: 1 of 2; won 0, lost 0
    (oneshot,) = [line for line in table.splitlines() if line.startswith("oneshot ")]
    assert re.search(r" +- +0 +0  - +- +- +- +completed 2 · wrote 1 file 1, wrote nothing 1$",
                     oneshot), oneshot


def _results_file(folder: Path, name: str, runs: list[RunResult], group: Group | None,
                  model: str = "m") -> str:
    file = folder / f"{name}.json"
    data = as_json(model, list(dict.fromkeys(r.engine for r in runs)), runs, group)
    if group is None:  # a file written before the set, language and runtime were recorded
        del data["set"], data["lang"], data["runtime"]
    file.write_text(json.dumps(data), encoding="utf-8")
    return str(file)


def test_the_report_prints_one_table_per_set_language_and_runtime(tmp_path: Path) -> None:
    embedded = "embedded llama.cpp model qwen.gguf"
    files = [
        _results_file(tmp_path, "old", [_run("a", "phase", "succeeded", False),
                                        _run("a", "oneshot", "wrote 1 file", True)],
                      None, embedded),
        _results_file(tmp_path, "he", [_run("HumanEval_3", "phase", "unverified", True),
                                       _run("HumanEval_3", "phase/k=3", "succeeded", True,
                                            "verified")],
                      Group("humaneval", "en", "embedded"), embedded),
        _results_file(tmp_path, "zh", [_run("a", "phase", "partial", False)],
                      Group("suite", "zh", "embedded"), embedded),
        _results_file(tmp_path, "new", [_run("a", "phase", "succeeded", True, "verified")],
                      Group("suite", "en", "embedded"), embedded)]
    done = subprocess.run([sys.executable, str(REPORT), *files], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    tables = done.stdout.split("\n\n== ")
    assert len(tables) == 3, done.stdout
    groups = [table.splitlines()[1] for table in tables]
    assert groups == [f"set suite · language en · runtime embedded · {embedded}",
                      f"set humaneval · language en · runtime embedded · {embedded}",
                      f"set suite · language zh · runtime embedded · {embedded}"]
    suite_en, humaneval_en, suite_zh = tables
    # the later file's run of a on phase replaced the earlier; the old file's baseline stays
    assert re.search(r"^phase +1/1 .*  1 \(1 pass\) +0 \(0 pass\)", suite_en, re.M), suite_en
    assert re.search(r"^oneshot +1/1 ", suite_en, re.M), suite_en
    assert re.search(r"^phase +1/1 .*  0 \(0 pass\) +1 \(1 pass\) ", humaneval_en, re.M)
    assert re.search(r"^phase/k=3 +1/1 .* 100% +0 +0  1 \(1 pass\) ", humaneval_en, re.M)
    for table in tables:
        assert re.search(r"^oneshot ", table, re.M), table
    assert "oneshot                not run" in suite_zh
