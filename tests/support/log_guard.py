"""Tests fail on warnings nobody expected (qutebrowser's way, ``tests/helpers/logfail.py``).

One handler on the root logger keeps every record of level WARNING or worse that was logged
through ``logging`` while a test ran (its fixtures included). A test that provokes a warning
or an error on purpose declares it with the ``expect_warning`` fixture (``tests/conftest.py``):
a piece of the message, and optionally how many times it must be logged. When the test ends,
every warning must match a declaration and every declaration must have been met; otherwise the
test fails and the report lists what was logged. Qt's own messages that its C++ side prints to
stderr do not go through ``logging`` and are not seen here.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field


@dataclass
class ExpectedWarning:
    """A warning a test provokes on purpose: ``text`` is a piece of its message; ``count`` the
    exact number of times it must be logged (``None``: at least once). ``records`` fills as
    matching records arrive (a test can wait on it)."""

    text: str
    count: int | None = None
    records: list[logging.LogRecord] = field(default_factory=list)

    def matches(self, record: logging.LogRecord) -> bool:
        return self.text in record.getMessage()

    def unmet(self) -> str:
        """Why the declaration was not met ("" when it was)."""
        seen = len(self.records)
        if self.count is None and seen == 0:
            return f"expected a warning containing {self.text!r}; none was logged"
        if self.count is not None and seen != self.count:
            return f"expected {self.count} warning(s) containing {self.text!r}; {seen} logged"
        return ""


class WarningGuard(logging.Handler):
    """On the root logger for the whole session: sorts each WARNING-or-worse record into the
    current test's first matching declaration, or into ``unexpected``."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.expected: list[ExpectedWarning] = []
        self.unexpected: list[logging.LogRecord] = []
        self._lock = threading.RLock()  # records arrive from worker threads too

    def emit(self, record: logging.LogRecord) -> None:
        with self._lock:
            match = next((e for e in self.expected if e.matches(record)), None)
            (self.unexpected if match is None else match.records).append(record)

    def start_test(self) -> None:
        with self._lock:
            self.expected, self.unexpected = [], []

    def expect(self, text: str, count: int | None = None) -> ExpectedWarning:
        """Declare a warning; records of it already logged (in a fixture) count too."""
        expected = ExpectedWarning(text, count)
        with self._lock:
            self.expected.append(expected)
            expected.records.extend(r for r in self.unexpected if expected.matches(r))
            self.unexpected = [r for r in self.unexpected if not expected.matches(r)]
        return expected

    def take_unexpected(self) -> list[str]:
        """The unexpected warnings logged since the last call, described."""
        with self._lock:
            taken, self.unexpected = self.unexpected, []
        return [describe(r) for r in taken]

    def unmet(self) -> list[str]:
        return [problem for e in self.expected if (problem := e.unmet())]


def describe(record: logging.LogRecord) -> str:
    return f"{record.levelname} {record.name}: {record.getMessage()}"
