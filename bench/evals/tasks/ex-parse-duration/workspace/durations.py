"""Durations written as text, such as "1h30m"."""


def parse_duration(text):
    """The number of seconds ``text`` stands for."""
    raise NotImplementedError


def format_duration(seconds):
    """The shortest text for ``seconds``."""
    raise NotImplementedError
