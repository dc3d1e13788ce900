"""A diff as the page gets it: numbered, marked lines, coloured code, nothing executable."""

from __future__ import annotations

import asyncio
import re
from html import unescape

from core.tools.diffs import file_diff
from ui.diff_html import diff_to_html
from ui.render import page_message

OLD = b'def port():\n    """The port.\n    Old text."""\n    return 8000\n'
NEW = b'def port():\n    """The port.\n    New text."""\n    return 8080\n'


def rows(html: str) -> list[tuple[str, str, str, str]]:
    """(kind, old number, new number, code text) of every line."""
    found = re.findall(r'<div class="diff-line diff-(\w+)"><span class="diff-num">(\d*)</span>'
                       r'<span class="diff-num">(\d*)</span><span class="diff-code">(.*?)'
                       r'</span></div>', html)
    return [(kind, old, new, re.sub(r"<[^>]+>", "", code)) for kind, old, new, code in found]


def test_lines_are_numbered_marked_and_coloured_for_the_files_language() -> None:
    html = diff_to_html("app/port.py", file_diff("app/port.py", OLD, NEW).text)
    assert rows(html) == [
        ("hunk", "", "", "@@ -1,4 +1,4 @@"), ("ctx", "1", "1", " def port():"),
        ("ctx", "2", "2", '     """The port.'),
        ("del", "3", "", '-    Old text."""'), ("del", "4", "", "-    return 8000"),
        ("add", "", "3", '+    New text."""'), ("add", "", "4", "+    return 8080")]
    assert '<span class="k">def</span>' in html and '<span class="mi">8080</span>' in html
    # the docstring's second line is coloured as the string it is part of
    assert '<span class="sd">    New text."""</span>' in html


def test_model_written_content_is_escaped_text() -> None:
    evil = b'<img src=x onerror="alert(1)"><script>alert(2)</script>\n'
    html = diff_to_html("page.html", file_diff("page.html", None, evil).text)
    assert "<img" not in html and "<script" not in html
    assert unescape(rows(html)[1][3]) == "+" + evil.decode().rstrip("\n")
    assert set(re.findall(r"<(\w+)", html)) == {"div", "span"}
    assert not re.search(r"<\w+ (?!class=)", html)


def test_notes_and_unknown_file_kinds() -> None:
    cut = file_diff("big.txt", None, "".join(f"{n}\n" for n in range(700)).encode())
    html = diff_to_html("big.txt", cut.text)
    assert rows(html)[-1] == ("note", "", "", "203 more diff lines not shown")
    binary = diff_to_html("x.bin", file_diff("x.bin", b"\x00", b"\x01").text)
    assert rows(binary) == [("note", "", "", "binary file; no line diff")]
    plain = diff_to_html("NOTES", file_diff("NOTES", b"a\n", b"b\n").text)
    assert rows(plain)[1:] == [("del", "1", "", "-a"), ("add", "", "1", "+b")]


def test_a_file_changed_event_gets_the_html_of_both_diffs() -> None:
    diff = file_diff("c.py", b"A = 1\n", b"A = 2\n").text
    whole = file_diff("c.py", b"A = 0\n", b"A = 2\n").text
    data = asyncio.run(page_message({"kind": "file_changed", "path": "c.py", "diff": diff,
                                     "run_diff": whole}))
    assert rows(data["diff_html"])[1:] == [("del", "1", "", "-A = 1"), ("add", "", "1", "+A = 2")]
    assert rows(data["run_diff_html"])[1][3] == "-A = 0"
    legacy = asyncio.run(page_message({"kind": "file_changed", "path": "c.py", "bytes": 3}))
    assert "diff_html" not in legacy and "run_diff_html" not in legacy
