"""What the engine itself found out about a candidate file, and when one candidate is better.

Evidence is produced by the engine, never taken from a model's word: whether the candidate
parses (Python), how many of the workspace's own tests pass with it in place (``test_runs``),
and how many of the request's stated examples pass (the ``example_checks`` assist). A
candidate is better than another only when this evidence says so — it parses where the other
does not, then fewer of the workspace's tests fail (more pass), then fewer of the request's
examples fail. Equal evidence is no reason to replace what is there.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.tools.check_runs import CheckRun
from core.tools.test_runs import TestRun

SHOWN_FAILURES = 8


@dataclass(frozen=True)
class Evidence:
    parse_error: str = ""
    tests: TestRun | None = None
    examples: CheckRun | None = None

    @property
    def parses(self) -> bool:
        return not self.parse_error

    @property
    def ran_tests(self) -> TestRun | None:
        return self.tests if self.tests is not None and self.tests.ran else None

    @property
    def ran_examples(self) -> CheckRun | None:
        runs = self.examples
        return runs if runs is not None and not runs.problem and runs.asserts else None

    def key(self) -> tuple[bool, int, int, int]:
        tests, examples = self.ran_tests, self.ran_examples
        return (self.parses, -(tests.failed if tests else 0), tests.passed if tests else 0,
                -(len(examples.failed) if examples else 0))

    def better_than(self, other: Evidence) -> bool:
        return self.key() > other.key()

    @property
    def failing(self) -> bool:
        """Whether a check the engine ran found something wrong."""
        tests, examples = self.ran_tests, self.ran_examples
        return not self.parses or bool(tests and tests.failed) or bool(
            examples and examples.failed)

    def found(self) -> list[str]:
        """What failed, one line each, for a repair call."""
        lines: list[str] = []
        if not self.parses:
            lines.append(f"it is not valid Python: {self.parse_error}")
        tests, examples = self.ran_tests, self.ran_examples
        if tests and tests.failed:
            lines.append(f"the workspace's tests: {tests.describe()}")
            lines += [f"  {failure}" for failure in tests.failures[:SHOWN_FAILURES]]
        if examples and examples.failed:
            lines += [f"check of the request's example {failure}"
                      for failure in examples.failed[:SHOWN_FAILURES]]
        return lines

    def facts(self) -> str:
        """One line for the judge and the next write of the file ("" when nothing ran)."""
        parts: list[str] = []
        if not self.parses:
            parts.append(f"does not parse ({self.parse_error})")
        tests, examples = self.ran_tests, self.ran_examples
        if tests:
            parts.append(f"the workspace's tests: {tests.describe()}")
        if examples:
            parts.append(examples.describe())
        return "; ".join(parts)


def failed_ids(run: CheckRun | None) -> frozenset[str]:
    """The checks a run failed, each named by its line and text (what it got left out)."""
    if run is None or run.problem:
        return frozenset()
    return frozenset(failure.partition(" → ")[0] for failure in run.failed)
