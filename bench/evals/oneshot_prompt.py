"""The one-shot baseline's prompt: the request and the workspace's text files, in one message.

Which files go in: every regular file under the workspace, in path order, except the folders
the workspace tools skip (``core.tools.paths.IGNORED_DIRS``: ``.git``, ``node_modules``,
``.venv``, ``__pycache__``), symlinks, and binaries (a NUL byte in the first 8 KiB, or not
UTF-8). Bounds: a file over ``FILE_CHARS`` characters, or one that would take the files
shown past ``TOTAL_CHARS`` in all, is named in the prompt with the reason but its content is
left out. ``reply_tokens`` sizes the reply's ``max_tokens`` so the model can write every file
shown again, grown, with room for a few words around the blocks.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.tools.paths import IGNORED_DIRS

FILE_CHARS = 20_000  # one file's content shown at most (about 5,000 tokens)
TOTAL_CHARS = 48_000  # all files' contents shown at most (about 12,000 tokens)
SNIFF_BYTES = 8192
REPLY_TOKENS_MIN = 1536
REPLY_TOKENS_MAX = 8192
LANGUAGES = {".py": "python", ".json": "json", ".md": "markdown", ".cfg": "ini",
             ".ini": "ini", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".js": "javascript",
             ".sh": "bash", ".html": "html", ".css": "css", ".csv": "csv", ".txt": "text"}

SYSTEM = ("You are an expert programmer. You carry out a request on the files of a project "
          "folder by replying with the complete new content of each file you create or change.")
INSTRUCTIONS = """\
Reply with the complete new content of every file you create or change, each in one fenced \
code block, with the file's path alone on the line before the opening fence, like this:

path/of/the_file.py
```python
the whole file, every line of it
```

Write each file in full: no placeholders, no "rest unchanged" comments, no diffs. Leave out \
the files you do not change. If the request asks a question, answer it in plain text."""


@dataclass(frozen=True)
class TextFile:
    path: str  # relative to the workspace, with "/"
    text: str


@dataclass
class Listing:
    """The workspace's files as the prompt shows them."""

    files: list[TextFile] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # "path (why)"

    @property
    def chars(self) -> int:
        return sum(len(f.text) for f in self.files)


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
    data = path.read_bytes()
    if b"\x00" in data[:SNIFF_BYTES]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _fence(text: str) -> str:
    """A backtick fence longer than any line of only backticks in ``text`` (such a line would
    otherwise close the block early)."""
    runs = [len(line.strip()) for line in text.splitlines()
            if line.strip() and set(line.strip()) == {"`"}]
    return "`" * max(3, max(runs, default=0) + 1)


def show_file(file: TextFile) -> str:
    """A file as the prompt shows it: its path, then its content in a fenced block."""
    fence = _fence(file.text)
    body = file.text if file.text.endswith("\n") or not file.text else file.text + "\n"
    language = LANGUAGES.get(Path(file.path).suffix.lower(), "")
    return f"{file.path}\n{fence}{language}\n{body}{fence}"


def prompt_messages(request: str, listing: Listing) -> list[dict[str, Any]]:
    """The one call's messages: a short system turn, then request, files and instructions."""
    if listing.files:
        shown = "The project folder holds these files:\n\n" + "\n\n".join(
            show_file(f) for f in listing.files)
    else:
        shown = "The project folder has no text files."
    if listing.left_out:
        shown += "\n\nNot shown: " + "; ".join(listing.left_out) + "."
    user = f"Request:\n{request.strip()}\n\n{shown}\n\n{INSTRUCTIONS}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def reply_tokens(listing: Listing) -> int:
    """``max_tokens`` for the reply: the files shown, twice over at about three characters a
    token (a stub grows into its implementation), plus 1,024, within the bounds."""
    wanted = 2 * listing.chars // 3 + 1024
    return max(REPLY_TOKENS_MIN, min(REPLY_TOKENS_MAX, wanted))
