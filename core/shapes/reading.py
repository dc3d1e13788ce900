"""The reading of a request: what the person asks, as the model read it and the engine checked it.

The analysis stage returns the model's reading; ``core.engine.reading`` checks every item
without knowing the request's language and keeps only what holds. The reading then flows down
as one value: the stages, authoring and verification take the parts they need from it, and no
module reads the request's words again to decide what it asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["change", "question", "both", "unknown"]
EVERY_FILE = "*"  # in ``forbid``: no file may change


@dataclass(frozen=True)
class Rename:
    """A rename the request asks for: ``old`` becomes ``new`` wherever it is used."""

    old: str
    new: str


@dataclass(frozen=True)
class Example:
    """``call`` (source of a call of ``name`` with literal arguments) should equal the literal
    ``expected`` (its source), or raise the exception named ``raises``."""

    name: str
    call: str
    expected: str
    raises: str = ""

    def words(self) -> str:
        if self.raises:
            return f"{self.call} should raise {self.raises}"
        return f"{self.call} should give {self.expected}"

    def code(self) -> str:
        """The example as the reading writes it: ``f(1) == 2`` or ``f("x") raises E``."""
        return f"{self.call} raises {self.raises}" if self.raises \
            else f"{self.call} == {self.expected}"


@dataclass(frozen=True)
class Requirement:
    """One thing that must be true when the work is done, and the words of the request it
    rests on (``quote``: "" when the engine could not find them in the request)."""

    text: str
    quote: str = ""


@dataclass(frozen=True)
class Reading:
    """What a request asks, every item checked against the request and the workspace.

    ``kind``: a change, a question, both, or unknown (no reading: the draft decides).
    ``change``: existing files to change; ``create``: new files to write; ``read``: files or
    folders only read (kept as they are); ``forbid``: files or folders not to touch
    (``EVERY_FILE``: none may change); ``named``: the workspace files the request names
    (found by their names in its text). ``declared``: the functions the request writes as calls
    or signatures. ``dropped``: what the model read that did not hold,
    one line each, said to the person."""

    words: str = ""
    kind: Kind = "unknown"
    change: tuple[str, ...] = ()
    create: tuple[str, ...] = ()
    read: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    named: tuple[str, ...] = ()
    renames: tuple[Rename, ...] = ()
    examples: tuple[Example, ...] = ()
    tools: tuple[str, ...] = ()
    requirements: tuple[Requirement, ...] = ()
    assumptions: tuple[str, ...] = ()
    declared: frozenset[str] = frozenset()  # the functions the request writes as calls
    quotes: Mapping[str, str] = field(default_factory=dict)  # "role:path" → its words
    dropped: tuple[str, ...] = field(default_factory=tuple)

    def quote(self, role: str, path: str) -> str:
        """The request's words for a file's role ("" when none were given)."""
        return self.quotes.get(f"{role}:{path}", "")

    @property
    def asks_change(self) -> bool | None:
        """Whether the request asks for a change: True, False, or None when unknown."""
        if self.kind == "unknown":
            return None
        return self.kind in ("change", "both")

    @property
    def forbids_all(self) -> bool:
        return EVERY_FILE in self.forbid

    def targets(self) -> tuple[str, ...]:
        """The files the request changes or creates, in order, each once."""
        return tuple(dict.fromkeys((*self.change, *self.create)))

    def as_json(self) -> dict[str, object]:
        """The reading as the run's events and history keep it."""
        return {"kind": self.kind, "change": list(self.change), "create": list(self.create),
                "read": list(self.read), "forbid": list(self.forbid),
                "named": list(self.named),
                "renames": [{"old": r.old, "new": r.new} for r in self.renames],
                "examples": [e.code() for e in self.examples], "tools": list(self.tools),
                "dropped": list(self.dropped)}
