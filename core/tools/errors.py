"""The error every workspace tool raises for an expected failure (re-exported by ``base``)."""

from __future__ import annotations


class ToolError(Exception):
    """Raised inside a tool for an expected failure; becomes a failed task with this message."""
