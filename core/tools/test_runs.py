"""The workspace's own tests run off the workspace: in a sandboxed copy of it with some files
replaced (a candidate not written yet, or the files as they are), so the engine can tell
which of two versions of a file more of the person's tests pass, and whether the final files
pass them. Nothing a test does reaches the workspace or the network.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from core.tools import scratch
from core.tools.workspace_tests import test_runner

TIMEOUT_S = 60
FAILURES_KEPT = 8
COUNTS = re.compile(r"(\d+) (passed|failed|errors?)\b")
FAILED_LINE = re.compile(r"^(?:FAILED|ERROR) (\S+)(?: - (.*))?$", re.MULTILINE)
UNITTEST_RAN = re.compile(r"^Ran (\d+) tests?", re.MULTILINE)
UNITTEST_BAD = re.compile(r"(failures|errors)=(\d+)")


@dataclass(frozen=True)
class TestRun:
    """How many of the workspace's tests passed and failed (errors count as failed), the
    first failures as pytest names them, or ``problem`` when they could not run."""

    __test__ = False  # not a pytest class

    passed: int = 0
    failed: int = 0
    failures: tuple[str, ...] = ()
    problem: str = ""

    @property
    def ran(self) -> bool:
        return not self.problem and self.passed + self.failed > 0

    def describe(self) -> str:
        if self.problem:
            return f"the workspace's tests did not run: {self.problem}"
        if not self.passed + self.failed:
            return "no tests were found"
        total = self.passed + self.failed
        if not self.failed:
            return f"{total} test{'s' if total != 1 else ''} pass"
        return f"{self.failed} of {total} tests fail"


def read_counts(output: str, code: int | None, runner: str = "the test run") -> TestRun:
    """What a pytest (or unittest) run printed, as counts and failures; a run that found no
    tests is a ``problem``, never a pass."""
    tail = output[-6000:]
    counts: dict[str, int] = {}
    for number, kind in COUNTS.findall(tail):
        counts[kind.rstrip("s")] = int(number)
    failures = tuple(f"{name}{' - ' + why[:200] if why else ''}"
                     for name, why in FAILED_LINE.findall(tail))[:FAILURES_KEPT]
    if counts:
        return TestRun(counts.get("passed", 0), counts.get("failed", 0) + counts.get("error", 0),
                       failures)
    ran = UNITTEST_RAN.search(tail)
    if ran and int(ran.group(1)):
        bad = sum(int(n) for _, n in UNITTEST_BAD.findall(tail))
        return TestRun(int(ran.group(1)) - bad, bad, failures)
    if ran or code == 5 or "no tests ran" in tail:
        return TestRun(problem=f"no tests found by {runner}")
    last = " ".join(tail.strip().splitlines()[-2:])[-200:]
    return TestRun(problem=f"the test run printed no counts (exit code {code}): {last}")


async def run_tests(workspace: Path, files: dict[str, str], sandbox_mode: str,
                    timeout_s: float = TIMEOUT_S, test_command: str = "") -> TestRun:
    """The workspace's tests with ``files`` (relative path → text) put in place, run by
    their runner (``workspace_tests.test_runner``; ``test_command``: the setting)."""
    missing = scratch.unavailable(sandbox_mode)
    if missing:
        return TestRun(problem=missing)
    runner = test_runner(workspace, test_command)
    if not runner.command:
        return TestRun(problem=runner.problem)
    command = runner.command + (" -p no:cacheprovider --tb=no -rfE"
                                if runner.command.endswith("-m pytest -q") else "")
    with tempfile.TemporaryDirectory(prefix="phasedesk-tests-") as scratch_dir:
        root = Path(scratch_dir) / "workspace"
        copied = await asyncio.to_thread(scratch.copy_workspace, workspace, root, files)
        if copied:
            return TestRun(problem=copied)
        ran = await scratch.run_in(root, command, sandbox_mode, timeout_s,
                                   read_only=runner.uses)
    if ran.timed_out:
        return TestRun(problem=f"they did not finish within {timeout_s:g} s")
    found = read_counts(ran.output, ran.code, runner.name)
    if test_command.strip() and found.problem and ran.code is not None:
        return TestRun(1, 0) if ran.code == 0 else TestRun(0, 1, (
            f"{runner.name} exited {ran.code}",))
    return found
