"""Markdown (a summary, a judge's line) as terminal text: parsed by ``markdown`` into HTML and
written back as plain lines — headings and paragraphs as lines, emphasis without its
asterisks, lists as "- item" / "1. item", code blocks indented, links as "text (url)"."""

from __future__ import annotations

from html.parser import HTMLParser

import markdown
from markdown.extensions import Extension

BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table", "tr", "hr"}


class _TextWriter(HTMLParser):
    """Collects the text of rendered Markdown, one line per block, with list markers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line = ""
        self.lists: list[list[int]] = []  # per open list: [next number] or [] when bulleted
        self.pre = 0
        self.quote = 0
        self.href = ""

    def _break(self) -> None:
        if self.line.strip():
            prefix = "> " * self.quote
            self.lines.append(prefix + self.line.rstrip())
        self.line = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BLOCKS or tag in ("ul", "ol", "li", "br"):
            self._break()
        if tag == "ul":
            self.lists.append([])
        elif tag == "ol":
            start = dict(attrs).get("start") or "1"
            self.lists.append([int(start) if start.isdigit() else 1])
        elif tag == "li":
            indent = "  " * (len(self.lists) - 1)
            if self.lists and self.lists[-1]:
                self.line = f"{indent}{self.lists[-1][0]}. "
                self.lists[-1][0] += 1
            else:
                self.line = f"{indent}- "
        elif tag == "pre":
            self.pre += 1
        elif tag == "blockquote":
            self.quote += 1
        elif tag == "a":
            self.href = dict(attrs).get("href") or ""
        elif tag in ("td", "th") and self.line:
            self.line += " | "

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.href and self.href not in self.line:
            self.line += f" ({self.href})"
            self.href = ""
        if tag == "pre":
            self.pre -= 1
        if tag in BLOCKS or tag in ("ul", "ol", "li"):
            self._break()
        if tag in ("ul", "ol") and self.lists:
            self.lists.pop()
        elif tag == "blockquote":
            self.quote -= 1

    def handle_data(self, data: str) -> None:
        if self.pre:
            code = data.split("\n")
            for n, piece in enumerate(code):
                if n:
                    self._break()
                if piece or n < len(code) - 1:
                    self.line = "    " + piece if not self.line else self.line + piece
            return
        text = " ".join(data.split())
        if not text:
            if data and self.line and not self.line.endswith(" "):
                self.line += " "
            return
        if data[:1].isspace() and self.line and not self.line.endswith(" "):
            self.line += " "
        self.line += text
        if data[-1:].isspace():
            self.line += " "


class _RawHtmlAsText(Extension):
    """Raw HTML in the source stays text (``<b>`` prints as ``<b>``)."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")


def terminal_text(source: str) -> str:
    """``source`` (Markdown) as plain terminal lines; text that is not Markdown stays as it
    is, one line per line."""
    html = markdown.markdown(source, extensions=["fenced_code", "tables", "sane_lists",
                                                 "nl2br", _RawHtmlAsText()])
    writer = _TextWriter()
    writer.feed(html)
    writer.close()
    writer._break()
    return "\n".join(writer.lines)
