"""Check scripts of the request's examples run against a candidate file, off the workspace."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from core.tools import sandbox
from core.tools.check_runs import harness, run_checks

SCRIPT = ("from calc import double\n"
          "assert double(1) == 2, 'one'\n"
          "assert double(2) == 4\n"
          "assert raises(ValueError, double, -1)\n")
GOOD = "def double(x):\n    if x < 0:\n        raise ValueError('negative')\n    return 2 * x\n"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "calc.py").write_text("def double(x):\n    raise NotImplementedError\n")
    (folder / "data.txt").write_text("kept")
    return folder


def check(ws: Path, content: str, script: str = SCRIPT, timeout_s: float = 20):
    return asyncio.run(run_checks(ws, "calc.py", content, script, "auto", timeout_s))


def test_a_right_candidate_passes_and_the_workspace_is_untouched(ws: Path) -> None:
    run = check(ws, GOOD)
    assert (run.asserts, run.failed, run.problem) == (3, [], "")
    assert run.describe() == "all 3 checks of the request's examples pass"
    assert (ws / "calc.py").read_text() == "def double(x):\n    raise NotImplementedError\n"
    assert sorted(p.name for p in ws.iterdir()) == ["calc.py", "data.txt"]


def test_each_failing_assert_is_reported_with_its_line(ws: Path) -> None:
    run = check(ws, "def double(x):\n    return x * 3\n")
    assert run.failed == ["line 2: assert double(1) == 2, 'one' → AssertionError: one",
                          "line 3: assert double(2) == 4 → AssertionError: got 6",
                          "line 4: assert raises(ValueError, double, -1) → AssertionError: "
                          "did not raise ValueError (it returned -3)"]
    assert run.describe().startswith("3 of 3 checks of the request's examples fail: line 2")


def test_test_functions_are_called_and_a_crash_or_a_hang_is_said(ws: Path) -> None:
    run = check(ws, GOOD, "from calc import double\n\n\ndef test_big():\n"
                          "    assert double(50) == 10\n")
    assert run.failed == ["test_big(): AssertionError: got 100"]
    crashed = check(ws, "import sys\nsys.exit(3)\n")
    assert crashed.failed == ["the module or the checks stopped early (exit code 3)"]
    hung = check(ws, GOOD, "from calc import double\nwhile True:\n    pass\nassert 1\n", 2)
    assert hung.problem == "they did not finish within 2 s"
    assert check(ws, GOOD, "assert (\n").problem.startswith("the check script does not parse")


def test_the_checks_run_sandboxed_without_network(ws: Path) -> None:
    assert sandbox.availability().active, "bubblewrap is required (scripts/setup.sh installs it)"
    script = ("import socket\nfrom calc import double\n"
              "assert socket.socket().connect_ex(('127.0.0.1', 9)) != 0\n"
              "open('/tmp/escape-probe', 'w').write('x')\n")
    run = check(ws, GOOD, script)
    assert run.failed == [] and not Path("/tmp/escape-probe").exists()


def test_the_harness_counts_asserts_and_keeps_definitions() -> None:
    program, asserts = harness("import os\nX = 1\nassert X == 1\nfor i in range(2):\n"
                               "    assert i < 2\n")
    assert asserts == 2 and "def raises(" in program and "@@phasedesk-checks@@" in program
    _, blocks = harness("with open('notes.txt') as f:\n    f.read()\n"
                        "with raises(ValueError):\n    int('x')\n")
    assert blocks == 1  # the raise block is a check, opening a file is not


def test_a_raise_block_passes_only_when_its_error_is_raised(ws: Path) -> None:
    script = ("from calc import double\nwith raises(ValueError):\n    double(-1)\n"
              "with raises(ValueError):\n    double(2)\n")
    run = check(ws, GOOD, script)
    assert run.asserts == 2
    assert run.failed == ["line 4: with raises(ValueError): double(2) → AssertionError: "
                          "did not raise ValueError"]


def test_an_expected_message_is_checked_as_pytest_raises_checks_match(ws: Path) -> None:
    script = ("from calc import double\n"
              "assert raises(ValueError, double, -1, match='neg')\n"
              "assert raises(ValueError, double, -1, match='^positive')\n"
              "with raises(ValueError, match='negative'):\n    double(-1)\n"
              "with raises(ValueError, match='too small'):\n    double(-1)\n")
    run = check(ws, GOOD, script)
    assert run.asserts == 4
    assert [line.split(":")[0] for line in run.failed] == ["line 3", "line 6"]
    assert "ValueError message 'negative' does not match 'too small'" in run.failed[1]


def test_a_failing_assert_says_what_the_code_gave_as_pytest_would(ws: Path) -> None:
    script = ("from calc import double\n"
              "assert 4 == double(1)\n"
              "assert double(1) == double(2)\n"
              "assert 'ab' in str(double(3))\n"
              "assert double(0)\n"
              "assert double(1) < 3\n"
              "assert raises(ValueError, double, -1, match='^positive')\n"
              "calls = []\n"
              "assert calls.append(1) is not None\n"
              "assert calls == [1]\n"
              "assert double(9) == 1, 'the script says so'\n")
    run = check(ws, GOOD, script)
    assert run.asserts == 9
    assert [line.split(" → ")[1] for line in run.failed] == [
        "AssertionError: got 2",
        "AssertionError: left side 2, right side 4",
        "AssertionError: got '6'",
        "AssertionError: got 0",
        "AssertionError: ValueError message 'negative' does not match '^positive'",
        "AssertionError: got None",
        "AssertionError: the script says so"]
