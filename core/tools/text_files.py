"""The workspace's text files as the draft prompt shows them, within a budget, through the gate.

Which files go in: every regular file the run's ``Gate`` keeps in view (not in a folder the
tools skip, not ignored by ``.gitignore`` or ``.phasedeskignore``, not a symlink), in path
order. Each is measured (stat) before it is read:

- a file that looks like a secret is held back (its place says why);
- a binary file (a NUL byte in the first 8 KiB, or not UTF-8) is named with that reason;
- a file over ``FILE_CHARS`` characters is shown as its path, size and first lines;
- the others are shown whole while they fit in the budget — the files the request names
  first, then the rest in path order — and the ones that do not fit are listed with their
  sizes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from core.tools.gate import Entry, Gate

FILE_CHARS = 20_000  # one file's content shown at most (about 5,000 tokens)
TOTAL_CHARS = 48_000  # all files' contents shown at most (about 12,000 tokens)
HEAD_LINES = 20  # of a file over FILE_CHARS, the first lines shown
HEAD_CHARS = 2_000
BYTES_PER_CHAR = 4  # UTF-8: a file of more bytes than this many per character is over


@dataclass(frozen=True)
class TextFile:
    path: str  # relative to the workspace, with "/"
    text: str


@dataclass(frozen=True)
class Head:
    """A file too large to show whole: its size in bytes and its first lines."""

    path: str
    size: int
    text: str


@dataclass
class Listing:
    """The workspace's files as a prompt shows them: ``files`` whole, ``heads`` begun,
    ``listed`` only named with their sizes (over the budget), ``left_out`` "path (why)"."""

    files: list[TextFile] = field(default_factory=list)
    heads: list[Head] = field(default_factory=list)
    listed: list[Entry] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)

    @property
    def chars(self) -> int:
        return sum(len(f.text) for f in self.files) + sum(len(h.text) for h in self.heads)

    @property
    def paths(self) -> list[str]:
        return [f.path for f in self.files]


def collect(where: Path | Gate, request: str = "", budget: int = TOTAL_CHARS) -> Listing:
    """The text files of the workspace (a folder, or a run's gate) within ``budget``
    characters, the files ``request`` names first; what was left out and why."""
    gate = where if isinstance(where, Gate) else Gate(where)
    entries = gate.files()
    named = set(gate.named(request, [e.rel for e in entries])) if request else set()
    order = sorted(entries, key=lambda e: (e.rel not in named, e.rel))
    listing = Listing()
    for entry in order:
        _add(gate, entry, listing, budget)
    listing.files.sort(key=lambda f: f.path)
    listing.heads.sort(key=lambda h: h.path)
    listing.listed.sort(key=lambda e: e.rel)
    listing.left_out.sort()
    return listing


def _add(gate: Gate, entry: Entry, listing: Listing, budget: int) -> None:
    """Put ``entry`` where it belongs in ``listing``, reading it only when it may be shown
    (and then no more of it than can be)."""
    rel, size = entry.rel, entry.size
    why = gate.secret_name(rel)
    if why:
        listing.left_out.append(gate.held_entry(rel, why))
        return
    room = budget - listing.chars
    if room <= 0 or (size <= FILE_CHARS and size > room * BYTES_PER_CHAR):
        listing.listed.append(entry)  # it cannot fit in what is left of the budget
        return
    over = size > FILE_CHARS * BYTES_PER_CHAR  # more characters than FILE_CHARS, surely
    read = gate.read_bounded(rel, HEAD_CHARS * BYTES_PER_CHAR if over
                          else FILE_CHARS * BYTES_PER_CHAR)
    if read.text is None:
        listing.left_out.append(f"{rel} (binary)")
    elif read.whole and len(read.text) <= FILE_CHARS:
        _show(gate, listing, entry, read.text, room, whole=True)
    else:
        _show(gate, listing, entry, _first_lines(read.text), room, whole=False)


def _show(gate: Gate, listing: Listing, entry: Entry, text: str, room: int,
          whole: bool) -> None:
    """``text`` (the file whole, or its beginning) shown when it fits in ``room`` and holds
    no secret; else the file is listed, or held back."""
    if len(text) > room:
        listing.listed.append(entry)
        return
    why = gate.secret(entry.rel, text)
    if why:
        listing.left_out.append(gate.held_entry(entry.rel, why))
    elif whole:
        listing.files.append(TextFile(entry.rel, gate.release(entry.rel, text)))
    else:
        listing.heads.append(Head(entry.rel, entry.size, gate.release(entry.rel, text)))


def _first_lines(text: str) -> str:
    lines = text.splitlines(keepends=True)[:HEAD_LINES]
    return "".join(lines)[:HEAD_CHARS]


def file_paths(workspace: Path | Gate) -> list[str]:
    """The relative paths of every regular file in view, in path order."""
    gate = workspace if isinstance(workspace, Gate) else Gate(workspace)
    return [entry.rel for entry in gate.files()]
