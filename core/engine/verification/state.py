"""A run's verification state, computed from what the engine ran and saw, never from a model.

``verified``: checks ran against the final files — the workspace's own tests, a test command
the run ran after its last change, the request's stated examples — every file the run changed
is covered by one, and none fails (the examples cover a file only when they call every
function of it that the request names). ``failing``: such a check ran on the final files and
failed, a rename the request asks for is not done, a file it tells the agent to write is
missing, or a Python file the run wrote has a fault it did not have before (a name nothing
defines, a method an attribute hides: read from the code, not run). ``unverified``: nothing
checked the final files (or the run changed nothing). A check is on the final files when
every changed file it saw still has the content it saw.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

Verification = Literal["verified", "failing", "unverified"]
CheckKind = Literal["tests", "command", "examples", "renames", "files", "faults"]
NOUNS = {"tests": ("test", "tests"), "command": ("test", "tests"),
         "examples": ("check of the request's examples", "checks of the request's examples"),
         "renames": ("requested rename", "requested renames"),
         "files": ("requested file", "requested files"),
         "faults": ("fault in the code", "faults in the code")}
FAILED = {"files": ("is missing", "are missing")}  # else "fails", "fail"


def digest(text: str | None) -> str:
    return "" if text is None else hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Check:
    """One check on workspace files: which files it saw (relative path → digest of the
    content it saw), whether it covers every changed file (a test run) or only those, and its
    counts. ``by``: who ran it, as a person reads it."""

    kind: CheckKind
    seen: Mapping[str, str]
    passed: int
    failed: int
    by: str
    covers_all: bool = True
    missing: tuple[str, ...] = ()  # the requested files a "files" check found missing
    unchecked: tuple[str, ...] = ()  # functions of the files it saw that it did not run
    results: tuple[tuple[str, bool], ...] = ()  # each example's call and whether it passed
    stated: tuple[str, ...] = ()  # each example as code: its call and the result it states

    def gaps(self) -> str:
        """What this check left out, as a sentence ("" when nothing)."""
        if not self.unchecked:
            return ""
        names = self.unchecked
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        return f"No example of the request calls {listed} in {', '.join(self.seen)}."

    def current(self, final: Mapping[str, str]) -> bool:
        """Whether the check saw the final version of every changed file it covers."""
        files = final if self.covers_all else {p: d for p, d in final.items() if p in self.seen}
        return bool(files) and all(self.seen.get(path) == sha for path, sha in files.items())

    def words(self) -> str:
        one, many = NOUNS[self.kind]
        if self.kind == "faults":  # made only when it finds something: no count of passes
            return f"{self.failed} {one if self.failed == 1 else many}"
        total = self.passed + self.failed
        noun = one if total == 1 else many
        if not self.failed:
            return f"{total} {noun} pass" if total != 1 else f"1 {noun} passes"
        one_fails, many_fail = FAILED.get(self.kind, ("fails", "fail"))
        return f"{self.failed} of {total} {noun} " + (one_fails if self.failed == 1 else many_fail)


@dataclass(frozen=True)
class VerificationState:
    """The state, a short line for the person ("12 tests pass", "not verified"), and what
    ran on the final files, as sentences."""

    state: Verification = "unverified"
    line: str = "not verified"
    sentences: tuple[str, ...] = field(default_factory=tuple)
    missing: tuple[str, ...] = ()  # the files the request asks for that do not exist
    only_missing: bool = False  # failing only because of them (no other check fails)
    changed: bool = True  # the run changed a file
    examples: tuple[tuple[str, bool], ...] = ()  # each example run on the final files
    broad: bool = False  # the workspace's tests or a test command checked the final files
    stated: tuple[str, ...] = ()  # the examples that ran on the final files, as code

    @property
    def checked(self) -> bool:
        return self.state != "unverified"


def verify(final: Mapping[str, str | None], checks: Iterable[Check],
           notes: Iterable[str] = ()) -> VerificationState:
    """The state of a run whose changed files have the ``final`` texts (None: deleted),
    given every check it ran; ``notes``: what the person should know of checks that could
    not count."""
    digests = {path: digest(text) for path, text in final.items()}
    if not digests:
        return VerificationState(sentences=("The run changed no file.",), changed=False)
    current = [check for check in checks if check.current(digests)]
    ran = tuple(result for check in current for result in check.results)
    failing = [check for check in current if check.failed]
    sentences = tuple(f"On the final files, {check.words()} ({check.by})." for check in current)
    sentences += tuple(check.gaps() for check in current if check.gaps()) + tuple(notes)
    if failing:
        missing = tuple(name for c in failing for name in c.missing)
        return VerificationState("failing", "; ".join(c.words() for c in failing), sentences,
                                 missing, all(c.kind == "files" for c in failing),
                                 examples=ran)
    covered = set(digests) if any(c.covers_all for c in current) else {
        path for check in current if not check.unchecked for path in check.seen}
    if current and covered >= set(digests):
        return VerificationState("verified", "; ".join(_merged(current)), sentences,
                                 examples=ran,
                                 broad=any(c.kind in ("tests", "command") for c in current),
                                 stated=tuple(code for c in current for code in c.stated))
    missing = sorted(set(digests) - covered)
    note = f"Nothing checked {', '.join(missing[:4])} as it is now." if missing else ""
    return VerificationState("unverified", "not verified", sentences + ((note,) if note else ()),
                             examples=ran)


def _merged(checks: list[Check]) -> list[str]:
    """One line per kind: the largest run of each (a later full test run says more)."""
    best: dict[str, Check] = {}
    for check in checks:
        kind = "tests" if check.kind == "command" else check.kind
        if kind not in best or check.passed + check.failed > best[kind].passed + best[kind].failed:
            best[kind] = check
    return [check.words() for check in best.values()]
