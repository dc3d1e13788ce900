"""Which workspace files are test modules (no checks of the request's examples are asked for
them: a test module is not what a request's examples describe)."""

from __future__ import annotations

import pytest

from core.tools.workspace_tests import is_test_file


@pytest.mark.parametrize("path, expected", [
    ("test_calc.py", True), ("calc_test.py", True), ("tests/helpers.py", True),
    ("src/tests/conftest.py", True), ("calc.py", False), ("testing.py", False),
    ("tests/data.json", False), ("contest.py", False),
])
def test_test_modules_are_told_apart(path: str, expected: bool) -> None:
    assert is_test_file(path) is expected
