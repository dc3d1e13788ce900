"""What the checks of a request's reading need to know of the workspace before the run: its
files and folders, the text of the files the request names (and of those the reading lists),
and whether a name is used in its text files. Reads the workspace: run it in a thread."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from core.tools.code_in_text import named_files
from core.tools.paths import IGNORED_DIRS
from core.tools.gate import Gate
from core.tools.text_files import file_paths

TEXT_CHARS = 100_000  # of one file read for the checks
SCANNED = 400  # text files looked through for a name


@dataclass(frozen=True)
class WorkspaceFacts:
    """Every file's path and every folder (relative, "/"), the text of some files, the tools
    the run offers, and ``contains(name)``: whether a text file uses the name."""

    files: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()
    texts: Mapping[str, str] = field(default_factory=dict)
    offered: frozenset[str] = frozenset()
    contains: Callable[[str], bool] = lambda name: False

    def exists(self, path: str) -> bool:
        return path in self.files or path in self.folders


def _folders(root: Path) -> tuple[str, ...]:
    found: list[str] = []
    for folder, dirs, _ in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in IGNORED_DIRS
                         and not os.path.islink(os.path.join(folder, d)))
        found += [(Path(folder) / d).relative_to(root).as_posix() for d in dirs]
    return tuple(found)


def _text(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            data = handle.read(TEXT_CHARS * 4)
        return data.decode("utf-8")[:TEXT_CHARS]
    except (OSError, UnicodeDecodeError):
        return ""


def workspace_facts(root: Path, words: str, listed: list[str] | None = None,
                    offered: frozenset[str] = frozenset()) -> WorkspaceFacts:
    """The facts of ``root`` for the request ``words``; ``listed``: paths the model's reading
    gave, whose text is read too."""
    root = root.resolve()
    if not root.is_dir():
        return WorkspaceFacts(offered=offered)
    files = tuple(file_paths(root))
    wanted = set(named_files(words, list(files))) | {p for p in (listed or []) if p in files}
    texts = {rel: _text(root / rel) for rel in sorted(wanted)}

    def contains(name: str) -> bool:
        pattern = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
        return any(pattern.search(_text(root / rel)) for rel in files[:SCANNED])

    return WorkspaceFacts(files=files, folders=_folders(root), texts=texts, offered=offered,
                          contains=contains)


def named_texts(where: Path | Gate, words: str) -> dict[str, str]:
    """The text of the workspace files ``words`` names (their docstrings may state
    examples), through the gate (the run's, or one on the folder ``where``): the text of a
    file that looks like a secret is its held-back note."""
    gate = where if isinstance(where, Gate) else Gate(where)
    files = file_paths(gate) if gate.root.is_dir() else []
    return {rel: gate.shown(rel, _text(gate.root / rel)) for rel in named_files(words, files)}
