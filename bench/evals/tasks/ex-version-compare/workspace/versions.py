"""Version numbers such as "1.4.2" and "2.0.0-rc1"."""


def parse_version(text):
    """(major, minor, patch, label) of the version ``text``."""
    raise NotImplementedError


def compare_versions(a, b):
    """-1, 0 or 1 as version ``a`` is lower than, equal to or higher than ``b``."""
    raise NotImplementedError


def latest(versions):
    """The highest of ``versions``."""
    raise NotImplementedError
