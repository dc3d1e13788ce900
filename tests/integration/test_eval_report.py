"""The evaluation table's share of hidden tests passed, read from the checker's words."""

from __future__ import annotations

from bench.evals.engine_run import RunResult
from bench.evals.report import comparison, hidden_share, totals


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
    assert "phase        1/2   50%   75%" in table
