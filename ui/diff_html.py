"""File diffs as the page shows them: numbered lines, added and removed ones marked, the code
coloured by pygments for the file's kind.

``diff_fields`` gives a ``file_changed`` event (``core.events.FileChanged``) its page
fields: ``diff_html`` for the write's diff and ``run_diff_html`` for the run's whole diff of
the file, when there is one. Each hunk's old and new sides are highlighted as whole texts
(so a string or comment over several lines is coloured as one), then split back into lines.
The header lines are left out (the page names the file); note lines (``\\ …``: a diff cut
short, a binary file) are shown as notes. pygments escapes every token, and the result is
cleaned by ``nh3`` down to divs and spans with the classes below. The block is a
``codehilite`` one, so the page's pygments.css colours its tokens.
"""

from __future__ import annotations

import html
import re
from typing import Any

import nh3
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.token import STANDARD_TYPES, _TokenType
from pygments.util import ClassNotFound

HUNK = re.compile(r"@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@.*")
LINE_KINDS = {" ": "ctx", "-": "del", "+": "add"}
# Token classes pygments.css colours (the default style); other tokens go in as plain text,
# which keeps a diff's HTML small (a span per name and space would triple it).
STYLED = {name for name in HtmlFormatter(style="default").class2style if name} - {"w"}
ALLOWED_CLASSES: dict[str, set[str]] = {
    "div": {"diff", "codehilite", "diff-line", "diff-hunk", "diff-note", "diff-ctx", "diff-del",
            "diff-add"},
    "span": {"diff-num", "diff-sign", "diff-code"} | {c for c in STANDARD_TYPES.values() if c},
}
Tokens = list[tuple[_TokenType, str]]


def diff_fields(event: dict[str, Any]) -> dict[str, str]:
    """The page's HTML of a ``file_changed`` event's diffs (none for a diff that is empty)."""
    path = str(event.get("path", ""))
    fields: dict[str, str] = {}
    for name in ("diff", "run_diff"):
        text = event.get(name)
        if isinstance(text, str) and text:
            fields[f"{name}_html"] = diff_to_html(path, text)
    return fields


def diff_to_html(path: str, diff: str) -> str:
    """Safe HTML of the unified ``diff`` of the file at ``path``."""
    lexer = _lexer(path)
    rows: list[str] = []
    lines = diff.split("\n")
    index = 2 if len(lines) >= 2 and lines[0].startswith("--- ") else 0
    while index < len(lines):
        line = lines[index]
        match = HUNK.fullmatch(line)
        if match is None:
            rows.append(_row("note", "", "", html.escape(line.removeprefix("\\").strip())))
            index += 1
            continue
        rows.append(_row("hunk", "", "", html.escape(line)))
        end = index + 1
        while end < len(lines) and lines[end][:1] in LINE_KINDS:
            end += 1
        rows += _hunk(lexer, lines[index + 1:end], int(match.group(1)), int(match.group(2)))
        index = end
    body = "".join(rows)
    return nh3.clean(f'<div class="diff codehilite">{body}</div>', tags={"div", "span"},
                     attributes={}, allowed_classes=ALLOWED_CLASSES)


def _lexer(path: str) -> Lexer:
    options = {"stripnl": False, "stripall": False, "ensurenl": True}
    try:
        return get_lexer_for_filename(path.rsplit("/", 1)[-1], **options)
    except ClassNotFound:
        return TextLexer(**options)


def _hunk(lexer: Lexer, lines: list[str], old_no: int, new_no: int) -> list[str]:
    """The rows of one hunk, numbered from its header's start lines."""
    old = _highlighted(lexer, [line[1:] for line in lines if line[:1] in " -"])
    new = _highlighted(lexer, [line[1:] for line in lines if line[:1] in " +"])
    rows: list[str] = []
    for line in lines:
        sign = line[:1]
        if sign == "+":
            rows.append(_row("add", "", str(new_no), new.pop(0), sign))
            new_no += 1
        elif sign == "-":
            rows.append(_row("del", str(old_no), "", old.pop(0), sign))
            old_no += 1
        else:
            old.pop(0)
            rows.append(_row("ctx", str(old_no), str(new_no), new.pop(0), " "))
            old_no, new_no = old_no + 1, new_no + 1
    return rows


def _highlighted(lexer: Lexer, lines: list[str]) -> list[str]:
    """The lines as one text through ``lexer``, as HTML, one entry per line."""
    out: list[str] = [""]
    for ttype, value in lexer.get_tokens("\n".join(lines)):
        css = _css_class(ttype)
        for n, piece in enumerate(value.split("\n")):
            if n:
                out.append("")
            if piece:
                text = html.escape(piece, quote=False)
                out[-1] += f'<span class="{css}">{text}</span>' if css in STYLED else text
    return (out + [""] * len(lines))[:len(lines)]


def _css_class(ttype: _TokenType) -> str:
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def _row(kind: str, old_no: str, new_no: str, code: str, sign: str = "") -> str:
    mark = f'<span class="diff-sign">{html.escape(sign)}</span>' if sign else ""
    return (f'<div class="diff-line diff-{kind}"><span class="diff-num">{old_no}</span>'
            f'<span class="diff-num">{new_no}</span><span class="diff-code">{mark}{code}'
            "</span></div>")
