"""Counting things in text."""


def word_count(text):
    """How many words the text holds."""
    if text == "":
        return 0
    return len(text.split(" "))


def line_count(text):
    """How many lines the text holds."""
    return len(text.splitlines())
