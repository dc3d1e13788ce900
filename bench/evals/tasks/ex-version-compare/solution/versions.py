"""Version numbers such as "1.4.2" and "2.0.0-rc1"."""

import re

PATTERN = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-([A-Za-z0-9]+))?")


def parse_version(text):
    """(major, minor, patch, label) of the version ``text``."""
    match = PATTERN.fullmatch(text)
    if match is None:
        raise ValueError(f"not a version: {text!r}")
    major, minor, patch, label = match.groups()
    return int(major), int(minor), int(patch), label or ""


def _key(text):
    major, minor, patch, label = parse_version(text)
    return major, minor, patch, label == "", label


def compare_versions(a, b):
    """-1, 0 or 1 as version ``a`` is lower than, equal to or higher than ``b``."""
    first, second = _key(a), _key(b)
    return (first > second) - (first < second)


def latest(versions):
    """The highest of ``versions``."""
    if not versions:
        raise ValueError("no versions given")
    return max(versions, key=_key)
