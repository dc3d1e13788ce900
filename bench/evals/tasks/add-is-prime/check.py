"""mathtools.is_prime is right on many values; test_mathtools.py tests it and passes."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import call, expect, main, require, tests_pass, text  # noqa: E402

PRIMES = [2, 3, 5, 7, 11, 13, 97, 7919]
NOT_PRIMES = [-7, 0, 1, 4, 9, 15, 25, 91, 7917]


def check(workspace: Path, summary: str, original: Path) -> None:
    values = PRIMES + NOT_PRIMES
    got = call(workspace, "mathtools", f"[n for n in {values} if mathtools.is_prime(n)]")
    require(got == repr(PRIMES), f"is_prime holds for {got}, expected exactly {PRIMES}")
    expect(workspace, "mathtools", {"mathtools.is_even(4)": True})
    require("is_prime" in text(workspace, "test_mathtools.py"),
            "test_mathtools.py does not test is_prime")
    tests_pass(workspace, "test_mathtools.py")


main(check)
