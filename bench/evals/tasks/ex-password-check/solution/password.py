"""Checking passwords against a few rules."""

import re


class WeakPasswordError(ValueError):
    """A password that breaks rules; ``problems`` lists them."""

    def __init__(self, problems):
        super().__init__("weak password: " + ", ".join(problems))
        self.problems = list(problems)


def check_password(password, username=""):
    """None for a strong password; raises WeakPasswordError listing the problems otherwise."""
    if not isinstance(password, str):
        raise TypeError("the password must be a string")
    rules = [
        ("too short", len(password) < 10),
        ("no digit", not re.search(r"[0-9]", password)),
        ("no lowercase letter", not any(c.islower() for c in password)),
        ("no uppercase letter", not any(c.isupper() for c in password)),
        ("no symbol", not any(not c.isalnum() and not c.isspace() for c in password)),
        ("contains the username",
         bool(username) and username.lower() in password.lower()),
        ("repeats a character", bool(re.search(r"(.)\1\1", password, re.DOTALL))),
    ]
    problems = [name for name, broken in rules if broken]
    if problems:
        raise WeakPasswordError(problems)
