"""Fenced code blocks as small models write them, read out of a plain-text reply.

A reply may hold text around the block, a fence with or without a language tag
(```` ```python ````, ```` ``` ````, ``~~~``), and the file's name on the line before the
fence (``hello.py``, ``**hello.py**``, ``### File: hello.py``, ``hello.py:``) or in the
fence's info string (```` ```python hello.py ````, ```` ```hello.py ````,
```` ```python title="hello.py" ````). A block the reply ends inside is kept but marked
``closed=False``: it was cut off, and nothing should be written from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*?)[ \t]*$")
PATHLIKE = re.compile(r"^[\w./\\-]*[\w-]\.[A-Za-z0-9]{1,8}$|^[\w./\\-]*/[\w.-]+$")
NAME_LINE = re.compile(r"^\s*(?:#{1,6}\s*|[-*+]\s+|\d+[.)]\s+)?(?:\*\*|__|`)?"
                       r"(?:(?:file(?:name)?|path|updated file|new file)\s*[:=]\s*)?"
                       r"(?:\*\*|__|`)?(?P<path>[^\s`*]+?)(?:\*\*|__|`)?\s*:?\s*(?:\*\*|__)?\s*$",
                       re.IGNORECASE)
TITLE = re.compile(r"""(?:title|file(?:name)?|path)\s*=\s*["']?(?P<path>[^"'\s]+)""",
                   re.IGNORECASE)


@dataclass(frozen=True)
class CodeBlock:
    body: str  # the lines between the fences, each ending in "\n"
    language: str  # the fence's language tag, "" when it has none
    path: str | None  # the file the reply names for this block, if any
    closed: bool  # False when the reply ended inside the block


def _name(candidate: str) -> str | None:
    candidate = candidate.strip().strip("'\"").replace("\\", "/")
    if candidate.startswith("./"):
        candidate = candidate[2:]
    return candidate if candidate and PATHLIKE.match(candidate) else None


def _from_info(info: str) -> tuple[str, str | None]:
    """(language, path) from a fence's info string."""
    titled = TITLE.search(info)
    words = info.split()
    first = words[0] if words else ""
    language, _, after = first.partition(":")
    path = _name(titled.group("path")) if titled else _name(after) if after else None
    if path is None and len(words) > 1 and not titled:
        path = _name(words[1])
    if path is None and _name(language) and "." in language:
        return "", _name(language)
    return language.lower(), path


def _from_line(line: str) -> str | None:
    """The file name a line before a fence gives, if it gives one (and nothing else)."""
    match = NAME_LINE.match(line)
    return _name(match.group("path")) if match else None


def code_blocks(text: str) -> list[CodeBlock]:
    """Every fenced block of ``text``, in order."""
    lines = text.splitlines()
    blocks: list[CodeBlock] = []
    index = 0
    before = ""
    while index < len(lines):
        opened = OPEN.match(lines[index])
        if opened is None:
            if lines[index].strip():
                before = lines[index]
            index += 1
            continue
        fence = opened.group("fence")
        language, path = _from_info(opened.group("info"))
        if path is None and before:
            path = _from_line(before)
        body: list[str] = []
        index += 1
        closed = False
        while index < len(lines):
            line = lines[index]
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and set(stripped) == {fence[0]}:
                closed = True
                index += 1
                break
            body.append(line[len(opened.group("indent")):] if line.startswith(
                opened.group("indent")) else line)
            index += 1
        blocks.append(CodeBlock("".join(f"{line}\n" for line in body), language, path, closed))
        before = ""
    return blocks


def same_path(named: str | None, path: str) -> bool:
    """Whether a block's name stands for ``path`` (its full relative path or its file name)."""
    if not named:
        return False
    named, path = named.replace("\\", "/").lstrip("/"), path.replace("\\", "/").lstrip("/")
    return named == path or path.endswith("/" + named) or named.endswith("/" + path)
