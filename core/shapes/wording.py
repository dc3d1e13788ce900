"""The words a person reads for a run's outcome, how it ended, its verification, a task's
priority and a model stage: one table each, used by the terminal, the window's conversation
list, the exports and (through the copies in ``ui/web/*.js`` that a test keeps equal) the page.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OutcomeWording:
    """How an outcome reads: ``label`` after ``mark`` in plain text (the terminal, the
    conversation list) or after ``emoji`` where emoji show (the page's chip, the Markdown
    export); ``badge`` is the page's colour class."""

    label: str
    mark: str
    emoji: str
    badge: str


# The one outcome table (``ui/web/summary.js`` holds the page's copy; a test keeps them equal).
OUTCOME_WORDING: dict[str, OutcomeWording] = {
    "succeeded": OutcomeWording("Succeeded", "✓", "✅", "badge-success"),
    "unverified": OutcomeWording("Done · not verified", "○", "⚪", "badge-info"),
    "partial": OutcomeWording("Partly done", "◐", "◐", "badge-warning"),
    "failed": OutcomeWording("Failed", "✗", "❌", "badge-error"),
}

# How a run ended, in words beside its outcome, for the endings that add to it (a run that
# completed says nothing more; ``ui/web/summary.js`` holds the page's copy).
ENDING_WORDS: dict[str, str] = {
    "cancelled": "stopped by you",
    "budget_exhausted": "budget spent",
    "failed": "ended by an error",
    "clarification_needed": "waiting for your answer",
    "interrupted": "interrupted",
}


def outcome_text(outcome: str, *, emoji: bool = False) -> str:
    """The outcome as "✓ Succeeded" (or "✅ Succeeded" with ``emoji``); "" for none or an
    unknown one."""
    wording = OUTCOME_WORDING.get(outcome)
    if wording is None:
        return ""
    return f"{wording.emoji if emoji else wording.mark} {wording.label}"


def verification_text(state: str, line: str) -> str:
    """The verification state as a person reads it ("12 tests pass", "not verified"); "" for
    runs recorded before it existed."""
    if not state:
        return ""
    return "not verified" if state == "unverified" else line


def outcome_chip(outcome: str, state: str, line: str, *, emoji: bool = False) -> str:
    """The run's one verdict: its outcome with what checked it ("✓ Succeeded · 12 tests
    pass", "◐ Partly done · 2 checks fail", "○ Done · not verified"); a failed run that
    nothing checked says only that it failed. "" for a run recorded without an outcome."""
    head = outcome_text(outcome, emoji=emoji)
    if not head:
        return ""
    checked = verification_text(state, line)
    if outcome == "unverified" or (outcome == "failed" and state == "unverified"):
        checked = ""
    return f"{head} · {checked}" if checked else head


def ending_words(status: str, outcome: str) -> str:
    """How the run ended, when that adds to its outcome ("stopped by you", "budget spent");
    "" for a completed run and for a run that failed by an error and has failed."""
    if status == "failed" and outcome == "failed":
        return ""
    return ENDING_WORDS.get(status, "")


def ending_line(outcome: str, state: str, line: str, status: str = "completed") -> str:
    """A run's end in one line: its outcome chip, then how it ended when that adds to it
    ("✓ Succeeded · 12 tests pass", "◐ Partly done · not verified — budget spent"); the
    status in words for a run recorded without an outcome."""
    chip = outcome_chip(outcome, state, line)
    how = ending_words(status, outcome)
    if not chip:
        return ENDING_WORDS.get(status) or status.replace("_", " ") or "ended"
    return f"{chip} — {how}" if how else chip


# The plan's priority (1–10, 10 the most important) as four levels, P1 the highest:
# (lowest value of the level, its name, its word). ``ui/web/cards.js`` holds the page's copy.
PRIORITY_LEVELS: tuple[tuple[int, str, str], ...] = (
    (9, "P1", "highest"), (7, "P2", "high"), (4, "P3", "normal"), (1, "P4", "low"))


def priority_level(priority: object) -> tuple[str, str]:
    """("P3", "normal") for a plan's priority value (clamped to 1–10; 5 when unreadable)."""
    try:
        value = max(1, min(10, round(float(priority))))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        value = 5
    return next((name, word) for low, name, word in PRIORITY_LEVELS if value >= low)


def priority_label(priority: object) -> str:
    """"P3 · normal" for a plan's priority value."""
    name, word = priority_level(priority)
    return f"{name} · {word}"


# The model stages as a person reads them (``ui/web/stage.js`` holds the page's copy).
STAGE_LABELS: dict[str, str] = {
    "request_analyser": "Reading the request",
    "phase_planner": "Planning the phases",
    "plan": "Plan",
    "judge": "Judge",
    "think": "Think",
    "summarizer": "Summary",
    "classic": "Model",
    "author": "Writing",
    "checks": "Writing checks for",
}


# How a shell command ran (``TaskFinished.sandbox``) in words, for the headless output and
# exports (the page has its own badges).
SANDBOX_WORDS: dict[str, str] = {"sandboxed": "sandboxed",
                                 "sandboxed_network": "sandboxed, network on",
                                 "unsandboxed": "not sandboxed"}


def count(number: int, noun: str, plural: str = "") -> str:
    """"1 task", "2 tasks", "1 LLM call": a number with its noun, plural when it is not 1."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def stage_label(stage: str) -> str:
    """A stage as a person reads it ("Summary", not "summarizer")."""
    return STAGE_LABELS.get(stage, stage.replace("_", " ").capitalize())
