"""What an answer rests on: the lines of files the run read that the answer cites, checked by
the engine without knowing the answer's language.

An answer cites a line when it names a file whose text the run read (a task read it, or a
prompt of the run showed it) and holds, in backticks or quotation marks, or as ``path:line``,
words that are on a line of that file. Such a citation is evidence the engine can back: the
cited words are there, in the file the answer names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from core.tools.code_in_text import mentions

SPAN = re.compile(r"`([^`\n]{2,200})`|\"([^\"\n]{2,200})\"|“([^”\n]{2,200})”|「([^」\n]{2,200})」"
                  r"|『([^』\n]{2,200})』|«([^»\n]{2,200})»|'([^'\n]{2,200})'")
LINE_REF = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w.-]+\.\w+):(\d{1,6})\b")
MAX_CITED = 3


@dataclass(frozen=True)
class Citation:
    path: str
    line: int
    text: str

    def sentence(self) -> str:
        return f"{self.path}, line {self.line}: `{self.text[:80]}`"


def _spans(answer: str) -> list[str]:
    return [next(group for group in match.groups() if group) for match in SPAN.finditer(answer)]


def _squeezed(text: str) -> str:
    return " ".join(text.split())


def cited(answer: str, read: Mapping[str, str]) -> list[Citation]:
    """The lines of the files ``read`` (path → text the run read) that ``answer`` cites, at
    most ``MAX_CITED``."""
    found: list[Citation] = []
    spans = [_squeezed(span) for span in _spans(answer)]
    for match in LINE_REF.finditer(answer):
        path, number = match.group(1), int(match.group(2))
        text = read.get(path) or next((t for p, t in read.items() if p.endswith("/" + path)),
                                      None)
        lines = text.splitlines() if text is not None else []
        if 0 < number <= len(lines) and lines[number - 1].strip():
            found.append(Citation(path, number, lines[number - 1].strip()))
    for path, text in read.items():
        if not mentions(answer, path):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            plain = _squeezed(line)
            hit = next((span for span in spans if span and span in plain), "")
            if hit:
                found.append(Citation(path, number, hit))
                break
    unique = {(c.path, c.line): c for c in found}
    return list(unique.values())[:MAX_CITED]
