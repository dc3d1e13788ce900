"""What of the workspace may be listed, read and sent to the model: the one place that decides.

Every tool and every prompt that shows a workspace file asks the run's ``Gate``:

- a path the ignore files exclude (``ignore.IgnoreRules``: ``.gitignore`` unless turned off,
  ``.phasedeskignore`` always) is never listed, read, searched or sent; a tool that is given
  one refuses with that reason (``refuse_ignored``);
- a file that looks like a secret (``secret_files``: by its name, or a credential in the text
  about to be shown of it) is held back: where its content would go, the "held back" note
  stands instead (``held_entry``), unless the person approved it for this run (``allow``);
- a file is measured (stat) before it is read, and read within a bound (``read_bounded``).

The gate also keeps the run's ledger of what it let out (``release``) and held back, so each
model call can say which files its messages carried (``carried``).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.tools.errors import ToolError
from core.tools.ignore import IgnoreRules
from core.tools.paths import IGNORED_DIRS
from core.tools.secret_files import found_secret, named_secret

HELD = "held back: looks like a secret"
MARK_CHARS = 160  # of a released text, what a call's messages are searched for
SNIFF_BYTES = 8192


@dataclass(frozen=True)
class Entry:
    """A workspace file the walk finds: its posix path from the root, and its size (stat)."""

    rel: str
    size: int


@dataclass(frozen=True)
class Read:
    """A file read within a bound: ``text`` is None for a binary file; ``whole`` is False when
    only its beginning was read."""

    text: str | None
    whole: bool


class Gate:
    """The run's decisions on the workspace under ``workspace``."""

    def __init__(self, workspace: Path, honour_gitignore: bool = True) -> None:
        self.root = Path(os.path.realpath(workspace))
        self.rules = IgnoreRules(self.root, honour_gitignore)
        self.allowed: set[str] = set()  # secret files the person let the model see this run
        self._lock = threading.Lock()
        self._released: dict[str, list[str]] = {}
        self._held: dict[str, str] = {}

    @property
    def honour_gitignore(self) -> bool:
        return self.rules.honour_gitignore

    def ignored(self, rel: str, is_dir: bool = False) -> str:
        """"ignored by .gitignore" (or .phasedeskignore) when ``rel`` is out of view, else ""."""
        return self.rules.reason(rel, is_dir)

    def refuse_ignored(self, rel: str, is_dir: bool = False) -> None:
        """Raise the tool error for an ignored ``rel``; nothing when it is in view."""
        why = self.ignored(rel, is_dir)
        if why:
            raise ToolError(f"{rel} is {why}: PhaseDesk does not read, search or send it")

    def secret(self, rel: str, text: str | None = None) -> str:
        """Why ``rel`` looks like a secret ("" when it does not, or the person allowed it):
        its name, else a credential in ``text`` (what is about to be shown of it)."""
        if rel in self.allowed:
            return ""
        named = named_secret(rel)
        if named or not text:
            return named
        return found_secret(rel.rsplit("/", 1)[-1], text)

    def secret_name(self, rel: str) -> str:
        """Why the name of ``rel`` marks a secret ("" when it does not, or it is allowed)."""
        return "" if rel in self.allowed else named_secret(rel)

    def allow(self, rel: str) -> None:
        """The person approved sending ``rel`` although it looks like a secret."""
        self.allowed.add(rel)

    def held_entry(self, rel: str, why: str) -> str:
        """``rel (held back: looks like a secret (WHY))``, noted in the ledger."""
        entry = f"{rel} ({HELD} ({why}))"
        with self._lock:
            self._held.setdefault(rel, entry)
        return entry

    def release(self, rel: str, shown: str) -> str:
        """Note that ``shown`` (text that quotes ``rel``'s content) goes out; returns it."""
        mark = shown.strip()[:MARK_CHARS]
        if mark:
            with self._lock:
                marks = self._released.setdefault(rel, [])
                if mark not in marks:
                    marks.append(mark)
        return shown

    def shown(self, rel: str, text: str) -> str:
        """``text`` (of ``rel``) released, or the held-back note when it looks like a secret."""
        why = self.secret(rel, text)
        return self.held_entry(rel, why) if why else self.release(rel, text)

    def carried(self, messages: Iterable[dict[str, Any]]) -> tuple[list[str], list[str]]:
        """(the files whose content ``messages`` carry, the held-back notes they carry), each
        in path order."""
        text = "\n".join(_content(m) for m in messages)
        with self._lock:
            released = list(self._released.items())
            held = list(self._held.values())
        files = [rel for rel, marks in released if any(mark in text for mark in marks)]
        return sorted(files), sorted(entry for entry in held if entry in text)

    def walk(self, folder: str = ".", recursive: bool = True
             ) -> Iterator[tuple[str, os.DirEntry[str]]]:
        """(posix path from the root, entry) of what is in view under ``folder``, by name;
        symlinked folders are not entered."""
        base = self.root / folder if folder not in ("", ".") else self.root
        for entry in self.entries(base):
            rel = os.path.relpath(entry.path, self.root).replace(os.sep, "/")
            yield rel, entry
            if recursive and entry.is_dir(follow_symlinks=False):
                yield from self.walk(rel, recursive)

    def entries(self, folder: os.PathLike[str] | str) -> list[os.DirEntry[str]]:
        """The entries of ``folder`` in view (not a tool-skipped folder, not ignored), by
        name; none when it cannot be read."""
        try:
            with os.scandir(folder) as scan:
                found = sorted((e for e in scan if e.name not in IGNORED_DIRS),
                               key=lambda item: item.name)
        except OSError:
            return []
        kept = []
        for entry in found:
            rel = os.path.relpath(entry.path, self.root).replace(os.sep, "/")
            if not self.ignored(rel, _is_dir(entry)):
                kept.append(entry)
        return kept

    def files(self) -> list[Entry]:
        """Every regular file in view (no symlinks), in path order, with its size."""
        found = []
        for rel, entry in self.walk():
            try:
                if entry.is_file(follow_symlinks=False):
                    found.append(Entry(rel, entry.stat(follow_symlinks=False).st_size))
            except OSError:
                continue
        return sorted(found, key=lambda e: e.rel)

    def read_bounded(self, rel: str, limit: int) -> Read:
        """The text of ``rel``: whole when its size (stat first) is at most ``limit`` bytes,
        else its first ``limit`` bytes; ``text`` None for a binary file (a NUL byte in the
        first 8 KiB, or not UTF-8) or one that cannot be read."""
        try:
            with open(self.root / rel, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                data = handle.read(limit if size > limit else limit + 1)
        except OSError:
            return Read(None, False)
        whole = size <= limit and len(data) <= limit  # not grown since the stat either
        if b"\x00" in data[:SNIFF_BYTES]:
            return Read(None, whole)
        try:
            return Read(data.decode("utf-8"), whole)
        except UnicodeDecodeError as exc:
            if whole or exc.start < len(data) - 3:
                return Read(None, whole)
            return Read(data[:exc.start].decode("utf-8"), whole)  # cut inside a character

    def named(self, request: str, rels: Iterable[str]) -> list[str]:
        """The paths of ``rels`` whose path or file name occurs in ``request`` as a name
        (not inside a longer one)."""
        found = []
        for rel in rels:
            base = rel.rsplit("/", 1)[-1]
            if any(_occurs(name, request) for name in {rel, base}):
                found.append(rel)
        return found


def _occurs(name: str, text: str) -> bool:
    """Whether ``name`` occurs in ``text`` not as part of a longer name."""
    pattern = rf"(?<![\w.\-]){re.escape(name)}(?!\.?[\w\-])"
    return re.search(pattern, text) is not None


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _content(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content)
