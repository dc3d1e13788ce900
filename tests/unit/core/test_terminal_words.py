"""The terminal's last line and exit code for each of the four outcomes, how a run ended
beside them only when it adds, and Markdown as terminal text."""

from __future__ import annotations

import pytest

from core.cli.exit_codes import run_exit_code
from core.cli.printer import describe
from core.cli.terminal_text import terminal_text
from core.events import RunFinished, TasksPlanned


def finished(outcome: str, state: str, line: str, status: str = "completed",
             calls: int = 3) -> RunFinished:
    return RunFinished(status=status, llm_calls=calls,  # type: ignore[arg-type] (any str)
                       prompt_tokens=10, completion_tokens=2, elapsed_s=1.0,
                       outcome=outcome,  # type: ignore[arg-type] (a literal, given as str)
                       verification=state,  # type: ignore[arg-type] (as above)
                       verification_line=line)


@pytest.mark.parametrize("event, last_line, code", [
    (finished("succeeded", "verified", "12 tests pass"),
     "■ ✓ Succeeded · 12 tests pass · 3 LLM calls", 0),
    (finished("unverified", "unverified", "not verified"),
     "■ ○ Done · not verified · 3 LLM calls", 3),
    (finished("partial", "failing", "2 checks fail", "budget_exhausted"),
     "■ ◐ Partly done · 2 checks fail — budget spent · 3 LLM calls", 1),
    (finished("partial", "unverified", "not verified", "cancelled", calls=1),
     "■ ◐ Partly done · not verified — stopped by you · 1 LLM call ·", 130),
    (finished("failed", "unverified", "not verified", "failed"),
     "■ ✗ Failed · 3 LLM calls", 1),
    (finished("", "", "", "clarification_needed"),
     "■ waiting for your answer · 3 LLM calls", 1),
])
def test_the_last_line_is_the_one_verdict_and_the_exit_code_follows_it(
        event: RunFinished, last_line: str, code: int) -> None:
    assert describe(event).startswith(last_line)
    assert "(completed)" not in describe(event) and "calls 1" not in describe(event)
    assert run_exit_code(event.status, event.outcome) == code


def test_a_plan_reads_with_plurals_priority_levels_and_titles_in_words() -> None:
    planned = TasksPlanned(phase_id=1, round=1, max_rounds=4, reasoning="", tasks=[
        {"id": 1, "title": r"search_code def multiply\(a, b\):", "tool": "search_code",
         "arguments": {"pattern": r"def multiply\(a, b\):"}, "priority": 9,
         "dependencies": []}])
    assert describe(planned).splitlines() == [
        "  Round 1 (at most 4) · plan: 1 task",
        "    [1] Search the code for `def multiply(a, b):` · search_code · P1"]


def test_markdown_reads_as_terminal_text() -> None:
    text = terminal_text("**Run failed** — see `calc.py`.\n\n## Next\n\n1. one\n2. *two*\n\n"
                         "```python\nx = 1\n```\n\n<b>kept as text</b>")
    assert text.splitlines() == ["Run failed — see calc.py.", "Next", "1. one", "2. two",
                                 "    x = 1", "<b>kept as text</b>"]
