"""What the page receives: engine events as JSON, with model Markdown and diffs as safe HTML.

``page_message`` is the one path from a recorded or live event to the page (the history
replays through it too, so a reopened run looks exactly as it did live).

Model text the page shows as Markdown (the summary, the judge's lines, Think's line) is
rendered here with ``markdown`` (fenced code, codehilite, tables, sane lists, and single
newlines kept as line breaks, as seed 000's ``breaks: true``) and pygments, with raw HTML in
the source escaped so it shows as text; the result goes to the page as ``<field>_html``
beside the field; a file change's diffs get theirs from ``ui.diff_html``. Every HTML is
cleaned by ``nh3`` down to a small allow-list: no scripts, no event handlers, no styles, no
frames, no forms, no images, and links only to http(s)/mailto with rel="noopener
noreferrer".
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import markdown
import nh3
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from pygments.formatters import HtmlFormatter
from pygments.token import STANDARD_TYPES

from core.shapes.shown_text import shown_items, task_title, without_internal_names
from ui.diff_html import diff_fields, diff_to_html

MAX_SOURCE_CHARS = 200_000
PYGMENTS_CSS = Path(__file__).parent / "web" / "pygments.css"

ALLOWED_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "strong", "em",
    "b", "i", "del", "sup", "sub", "code", "pre", "blockquote", "table", "thead", "tbody",
    "tr", "th", "td", "a", "span", "div",
}
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {"a": {"href", "title"}, "ol": {"start"}}
ALLOWED_CLASSES: dict[str, set[str]] = {
    "div": {"codehilite"},
    "span": {name for name in STANDARD_TYPES.values() if name},
}
URL_SCHEMES = {"http", "https", "mailto"}
# Fields the page never shows: the model's full reply (the context digest is shown).
PAGE_OMITS: dict[str, tuple[str, ...]] = {"llm_call": ("reply",)}
# Model text the page shows as Markdown, per event kind (each gets ``<field>_html``).
MARKDOWN_FIELDS: dict[str, tuple[str, ...]] = {
    "summary": ("final_summary",),
    "judged": ("user_summary",),
    "thought": ("next_round_strategy", "user_summary"),
    "phase_finished": ("summary",),
}


class _EscapeRawHtml(Extension):
    """Treat raw HTML in the Markdown source as text (it is escaped, never passed through)."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")


LIST_ITEM = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)]) +\S")


class _ListAfterLine(Preprocessor):
    """Start a list that follows a line of text without a blank line between (models write
    "Done:\n- a\n- b"; Markdown as the page renders it elsewhere, GFM, sees a list there,
    python-markdown would join it into the line). Runs after fenced code is stashed away."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        in_list = False
        for line in lines:
            if not line.strip():
                in_list = False
            elif LIST_ITEM.match(line):
                if out and out[-1].strip() and not in_list:
                    out.append("")
                in_list = True
            out.append(line)
        return out


class _ListsAfterLines(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.register(_ListAfterLine(md), "list_after_line", 15)


def _markdown() -> markdown.Markdown:
    return markdown.Markdown(
        extensions=["fenced_code", "codehilite", "tables", "sane_lists", "nl2br",
                    _EscapeRawHtml(), _ListsAfterLines()],
        extension_configs={"codehilite": {"guess_lang": False, "css_class": "codehilite"}},
        output_format="html",
    )


def sanitize(html: str) -> str:
    """Clean any HTML down to the allow-list above."""
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        allowed_classes=ALLOWED_CLASSES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
        strip_comments=True,
    )


def markdown_to_html(source: str) -> str:
    """Safe HTML for ``source`` (Markdown written by a model); long input is cut first."""
    if len(source) > MAX_SOURCE_CHARS:
        source = source[:MAX_SOURCE_CHARS] + "\n\n… (cut)"
    return sanitize(_markdown().convert(source))


def _with_html(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the HTML of its Markdown fields (and a judge's verdict comments, a file
    change's diffs and the diffs of the versions a write weighed) beside them."""
    kind = data.get("kind", "")
    for name in MARKDOWN_FIELDS.get(kind, ()):
        if isinstance(data.get(name), str) and data[name]:
            data[f"{name}_html"] = markdown_to_html(data[name])
    if kind == "file_changed":
        data.update(diff_fields(data))
    if kind == "approval_requested" and isinstance(data.get("diff"), str) and data["diff"]:
        path = str(data.get("detail", "")).split(" (")[0]
        data["diff_html"] = diff_to_html(path, data["diff"])
    if kind == "task_finished" and isinstance(data.get("candidates"), list):
        data["candidates"] = [_candidate_html(c) for c in data["candidates"]]
    if kind == "judged" and isinstance(data.get("verdicts"), list):
        data["verdicts"] = [
            {**v, "comment_html": markdown_to_html(v["comment"])}
            if isinstance(v, dict) and isinstance(v.get("comment"), str) and v["comment"] else v
            for v in data["verdicts"]]
    return data


def _candidate_html(candidate: Any) -> Any:
    """A version a write weighed (``TaskFinished.candidates``) with its diff's HTML."""
    if not isinstance(candidate, dict) or not isinstance(candidate.get("diff"), str) \
            or not candidate["diff"]:
        return candidate
    return {**candidate, "diff_html": diff_to_html(str(candidate.get("path", "")),
                                                   candidate["diff"])}


def _shown_words(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with model text as a person is shown it (``core.shapes.shown_text``): an
    analysis's goal and assumptions without engine identifiers (an empty goal: the page
    shows the request), a summary's assumptions likewise, each planned task's
    ``shown_title`` as [words, code]."""
    kind = data.get("kind")
    if kind == "summary" and isinstance(data.get("assumptions"), list):
        data["assumptions"] = shown_items(data["assumptions"])
    elif kind == "request_analysed":
        data["core_goal"] = without_internal_names(str(data.get("core_goal", "")))
        for name in ("assumptions", "constraints"):
            if isinstance(data.get(name), list):
                data[name] = shown_items(data[name])
    elif kind == "tasks_planned" and isinstance(data.get("tasks"), list):
        data["tasks"] = [
            {**t, "shown_title": list(task_title(str(t.get("title", "")), str(t.get("tool", "")),
                                                 t.get("arguments")))}
            if isinstance(t, dict) else t for t in data["tasks"]]
    return data


async def page_message(event: dict[str, Any]) -> dict[str, Any]:
    """The event dict (``core.events.to_dict`` shape) as the page takes it.

    Omitted fields are dropped; model text is cleaned of engine identifiers; Markdown fields
    and diffs get their HTML rendered off the UI thread.
    """
    data = {k: v for k, v in event.items() if k not in PAGE_OMITS.get(event.get("kind", ""), ())}
    data = _shown_words(data)
    if data.get("kind") in MARKDOWN_FIELDS or data.get("kind") in (
            "file_changed", "approval_requested") or (data.get("kind") == "task_finished"
                                                      and data.get("candidates")):
        data = await asyncio.to_thread(_with_html, data)
    return data


def pygments_css() -> str:
    """The stylesheet for codehilite's classes (written to ``ui/web/pygments.css``)."""
    header = "/* Generated by ui.render.write_pygments_css() from pygments' default style. */\n"
    return header + HtmlFormatter(style="default").get_style_defs(".codehilite") + "\n"


def write_pygments_css(path: Path = PYGMENTS_CSS) -> Path:
    path.write_text(pygments_css(), encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write_pygments_css())
