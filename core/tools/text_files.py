"""The workspace's text files as the draft prompt shows them, within bounds.

Which files go in: every regular file under the workspace, in path order, except the folders
the workspace tools skip (``paths.IGNORED_DIRS``: ``.git``, ``node_modules``, ``.venv``,
``__pycache__``), symlinks, and binaries (a NUL byte in the first 8 KiB, or not UTF-8). A
file over ``FILE_CHARS`` characters, or one that would take the files shown past
``TOTAL_CHARS`` in all, is named with the reason but its content is left out.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from core.tools.paths import IGNORED_DIRS

FILE_CHARS = 20_000  # one file's content shown at most (about 5,000 tokens)
TOTAL_CHARS = 48_000  # all files' contents shown at most (about 12,000 tokens)
SNIFF_BYTES = 8192


@dataclass(frozen=True)
class TextFile:
    path: str  # relative to the workspace, with "/"
    text: str


@dataclass
class Listing:
    """The workspace's files as a prompt shows them."""

    files: list[TextFile] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # "path (why)"

    @property
    def chars(self) -> int:
        return sum(len(f.text) for f in self.files)

    @property
    def paths(self) -> list[str]:
        return [f.path for f in self.files]


def collect(workspace: Path) -> Listing:
    """The text files of ``workspace`` within the bounds, and what was left out and why."""
    listing = Listing()
    for path in _walk(workspace):
        rel = path.relative_to(workspace).as_posix()
        text = _text(path)
        if text is None:
            listing.left_out.append(f"{rel} (binary)")
        elif len(text) > FILE_CHARS:
            listing.left_out.append(f"{rel} ({len(text):,} characters, over the "
                                    f"{FILE_CHARS:,} shown of one file)")
        elif listing.chars + len(text) > TOTAL_CHARS:
            listing.left_out.append(f"{rel} (the files shown reached {TOTAL_CHARS:,} "
                                    f"characters)")
        else:
            listing.files.append(TextFile(rel, text))
    return listing


def file_paths(workspace: Path) -> list[str]:
    """The relative paths of every regular file the walk above finds, in path order."""
    return [path.relative_to(workspace).as_posix() for path in _walk(workspace)]


def _walk(workspace: Path) -> list[Path]:
    found: list[Path] = []
    for folder, dirs, names in os.walk(workspace):
        dirs[:] = sorted(d for d in dirs if d not in IGNORED_DIRS
                         and not os.path.islink(os.path.join(folder, d)))
        for name in sorted(names):
            path = Path(folder) / name
            if not path.is_symlink() and path.is_file():
                found.append(path)
    return sorted(found, key=lambda p: p.relative_to(workspace).as_posix())


def _text(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\x00" in data[:SNIFF_BYTES]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
