"""What the engine itself found out about a candidate file, and when one candidate is better.

Evidence is produced by the engine, never taken from a model's word: whether the candidate
parses (Python), what will fail when it runs, found without running it (names nothing
defines, methods an attribute hides, that the file did not have before the run:
``core.tools.code_checks.new_faults``), how many of the workspace's own tests pass with it in
place (``core.tools.test_runs``), and how many of the examples the request states it meets
(``core.tools.request_examples``). A candidate is better than another only when this
evidence says so — it parses where the other does not, then fewer faults and failing checks
(then more passing ones). Equal evidence is no reason to replace what is there.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.tools.request_examples import ExampleRun
from core.tools.test_runs import TestRun

SHOWN_FAILURES = 8


@dataclass(frozen=True)
class Evidence:
    parse_error: str = ""
    tests: TestRun | None = None
    examples: ExampleRun | None = None
    faults: tuple[str, ...] = ()

    @property
    def parses(self) -> bool:
        return not self.parse_error

    @property
    def ran_tests(self) -> TestRun | None:
        return self.tests if self.tests is not None and self.tests.ran else None

    @property
    def ran_examples(self) -> ExampleRun | None:
        return self.examples if self.examples is not None and self.examples.ran else None

    def key(self) -> tuple[bool, int, int]:
        runs = [run for run in (self.ran_tests, self.ran_examples) if run is not None]
        return (self.parses, -len(self.faults) - sum(run.failed for run in runs),
                sum(run.passed for run in runs))

    def better_than(self, other: Evidence) -> bool:
        return self.key() > other.key()

    @property
    def failing(self) -> bool:
        """Whether a check the engine ran found something wrong."""
        tests, examples = self.ran_tests, self.ran_examples
        return not self.parses or bool(self.faults) or bool(tests and tests.failed) \
            or bool(examples and examples.failed)

    def found(self) -> list[str]:
        """What failed, one line each, for a repair call."""
        lines: list[str] = []
        if not self.parses:
            lines.append(f"it is not valid Python: {self.parse_error}")
        lines += [f"it will fail when run: {fault}" for fault in self.faults]
        tests = self.ran_tests
        if tests and tests.failed:
            lines.append(f"the workspace's tests: {tests.describe()}")
            lines += [f"  {failure}" for failure in tests.failures[:SHOWN_FAILURES]]
        examples = self.ran_examples
        if examples and examples.failed:
            lines.append(f"the request's examples: {examples.describe()}")
            lines += [f"  {failure}" for failure in examples.failures[:SHOWN_FAILURES]]
        return lines

    def facts(self) -> str:
        """One line for the judge and the next write of the file ("" when nothing ran)."""
        parts: list[str] = []
        if not self.parses:
            parts.append(f"does not parse ({self.parse_error})")
        if self.faults:
            parts.append(f"will fail when run ({'; '.join(self.faults[:4])})")
        if self.ran_tests:
            parts.append(f"the workspace's tests: {self.ran_tests.describe()}")
        if self.ran_examples:
            parts.append(self.ran_examples.describe())
        return "; ".join(parts)
