"""Checking passwords against a few rules."""


class WeakPasswordError(ValueError):
    """A password that breaks rules; ``problems`` lists them."""

    def __init__(self, problems):
        super().__init__("weak password: " + ", ".join(problems))
        self.problems = list(problems)


def check_password(password, username=""):
    """None for a strong password; raises WeakPasswordError listing the problems otherwise."""
    raise NotImplementedError
