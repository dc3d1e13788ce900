"""Converting identifiers between camelCase and snake_case."""

import re


def to_snake_case(name):
    """``name`` (camelCase or PascalCase) in snake_case."""
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", spaced)
    return spaced.lower()


def to_camel_case(name):
    """``name`` (snake_case) in camelCase."""
    words = [word for word in name.split("_") if word]
    if not words:
        return ""
    return words[0].lower() + "".join(word[0].upper() + word[1:].lower() for word in words[1:])
