"""A run named by its id or by any start of it, as git names a commit.

A run prints the first 8 characters of its id; ``--export fca1e85b`` (and every command
that takes a run id) finds the run by that start. A start that several runs share, or
that none has, is refused with what matched, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SHOWN_MATCHES = 10  # an ambiguous start lists at most this many of its runs


class RunIdError(LookupError):
    """``text`` names no run (``matches`` empty) or several (``matches``, newest first, at
    most ``SHOWN_MATCHES``; ``more`` says that others match too)."""

    def __init__(self, text: str, matches: Sequence[Mapping[str, Any]] = (),
                 more: bool = False) -> None:
        self.text = text
        self.matches = list(matches)
        self.more = more
        super().__init__(self.message)

    @property
    def message(self) -> str:
        if not self.text:
            return "the run id is empty"
        if not self.matches:
            return f"no recorded run has an id starting with {self.text!r}"
        count = f"more than {len(self.matches)}" if self.more else str(len(self.matches))
        return f"the run id {self.text!r} is ambiguous: {count} runs start with it"


def id_start(text: str) -> str:
    """What is compared with run ids: ``text`` without surrounding space, in lower case
    (run ids are lower-case UUIDs)."""
    return text.strip().lower()


def the_one(text: str, matches: Sequence[Mapping[str, Any]]) -> str:
    """The id of the one run in ``matches`` (the runs whose id starts with ``text``; at most
    ``SHOWN_MATCHES`` + 1 of them); raises ``RunIdError`` for none or several."""
    if len(matches) != 1 or not id_start(text):
        raise RunIdError(id_start(text), matches[:SHOWN_MATCHES], len(matches) > SHOWN_MATCHES)
    return str(matches[0]["id"])
