"""Search results name the function or class a Python line is in."""

from __future__ import annotations

from core.tools.enclosing import enclosing

SOURCE = '''class Account:
    def deposit(self, amount):
        raise ValueError("empty deposit")

    @staticmethod
    def withdraw(amount):
        raise ValueError("negative amount")


def top():
    def inner():
        return 1
    return inner
LIMIT = 1
'''


def test_the_innermost_definition_names_the_line() -> None:
    named = enclosing(SOURCE)
    assert [named(n) for n in range(1, 15)] == [
        "Account", "Account.deposit", "Account.deposit", "Account",
        "Account.withdraw", "Account.withdraw", "Account.withdraw", "", "",
        "top", "top.inner", "top.inner", "top", ""]


def test_a_file_that_does_not_parse_names_nothing() -> None:
    assert enclosing("def broken(:\n    pass\n")(2) == ""
