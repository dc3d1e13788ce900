"""Model Markdown as the page gets it: single newlines are line breaks (seed 000's
``breaks: true``), code blocks and lists stay what they are, and every Markdown field the
page shows (summary, judge lines, Think) gets its HTML."""

from __future__ import annotations

import asyncio
import re

from ui.render import markdown_to_html, page_message


def test_single_newlines_in_a_summary_become_separate_lines() -> None:
    html = markdown_to_html("Phase 1 read the config\nPhase 2 moved the port\nPhase 3 tested it")
    assert html == ("<p>Phase 1 read the config<br>\nPhase 2 moved the port<br>\n"
                    "Phase 3 tested it</p>")


def test_a_fenced_code_block_keeps_its_newlines_without_breaks() -> None:
    html = markdown_to_html("Before\n\n```python\nx = 1\ny = 2\n```\n\nAfter")
    code = re.search(r"<pre>(.*?)</pre>", html, re.S)
    assert code is not None
    assert "<br" not in code.group(1)
    assert code.group(1).count("\n") == 2
    assert html.startswith("<p>Before</p>") and html.endswith("<p>After</p>")


def test_a_list_stays_a_list_and_a_paragraph_after_it_keeps_its_lines() -> None:
    html = markdown_to_html("Done:\n- read config.py\n- changed PORT\n\nNext\nrun the tests")
    assert re.findall(r"<li>(.*?)</li>", html) == ["read config.py", "changed PORT"]
    assert html.count("<ul>") == 1 and "<br>\n- " not in html
    assert "<p>Next<br>\nrun the tests</p>" in html


def test_raw_html_in_model_markdown_stays_text() -> None:
    html = markdown_to_html("ok\n<script>alert(1)</script>\n<img src=x onerror=alert(1)>")
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html


def render(event: dict) -> dict:
    return asyncio.run(page_message(event))


def test_judge_lines_and_think_get_their_markdown_html() -> None:
    judged = render({"kind": "judged", "user_summary": "Read it\nChanged it",
                     "verdicts": [{"task_id": 1, "comment": "**broken**\nsee log"},
                                  {"task_id": 2, "comment": ""}, "not a dict"]})
    assert judged["user_summary_html"] == "<p>Read it<br>\nChanged it</p>"
    assert judged["verdicts"][0]["comment_html"] == "<p><strong>broken</strong><br>\nsee log</p>"
    assert "comment_html" not in judged["verdicts"][1] and judged["verdicts"][2] == "not a dict"
    thought = render({"kind": "thought", "next_round_strategy": "1. retry\n2. check",
                      "user_summary": ""})
    assert re.findall(r"<li>(.*?)</li>", thought["next_round_strategy_html"]) == ["retry", "check"]
    assert "user_summary_html" not in thought
    summary = render({"kind": "summary", "final_summary": "a\nb"})
    assert summary["final_summary_html"] == "<p>a<br>\nb</p>"
    assert render({"kind": "notice", "message": "a\nb"}) == {"kind": "notice", "message": "a\nb"}


def test_each_version_a_write_weighed_gets_its_diff_as_safe_html() -> None:
    diff = ("--- before\n+++ candidate 1\n@@ -1 +1 @@\n-x = 1\n"
            "+x = '<img src=x onerror=alert(1)>'\n")
    finished = render({"kind": "task_finished", "candidates": [
        {"source": "draft", "path": "calc.py", "diff": diff},
        {"source": "candidate 1", "path": "calc.py", "diff": ""}, "not a dict"]})
    draft, empty, other = finished["candidates"]
    assert "<img" not in draft["diff_html"] and "&lt;img" in draft["diff_html"]
    assert draft["diff_html"].count('class="diff-line diff-add"') == 1
    assert '<span class="s1">' in draft["diff_html"]  # coloured as Python, from the path
    assert "diff_html" not in empty and other == "not a dict"
