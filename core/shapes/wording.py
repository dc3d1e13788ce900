"""How a run's outcome, its verification state and a command's sandbox mark (``core.events``)
read wherever a person sees them: the terminal, the window's conversation list, the exports."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OutcomeWording:
    """How an outcome reads wherever a person sees it: ``words``, after ``mark`` in plain text
    (the terminal, the window's conversation list) or after ``emoji`` where emoji show (the
    page's badge, capitalised, and the Markdown export)."""

    words: str
    mark: str
    emoji: str


# The one wording table (``ui/web/summary.js`` holds the page's copy; a test keeps them equal).
OUTCOME_WORDING: dict[str, OutcomeWording] = {
    "succeeded": OutcomeWording("succeeded", "✓", "✅"),
    "partial": OutcomeWording("partly done", "◐", "◐"),
    "failed": OutcomeWording("failed", "✗", "❌"),
}


def outcome_text(outcome: str, *, emoji: bool = False) -> str:
    """The outcome as "✓ succeeded" (or "✅ succeeded" with ``emoji``); "" for none or an
    unknown one."""
    wording = OUTCOME_WORDING.get(outcome)
    if wording is None:
        return ""
    return f"{wording.emoji if emoji else wording.mark} {wording.words}"


# How a shell command ran (``TaskFinished.sandbox``) in words, for the headless output and
# exports (the page has its own badges).
SANDBOX_WORDS: dict[str, str] = {"sandboxed": "sandboxed",
                                 "sandboxed_network": "sandboxed, network on",
                                 "unsandboxed": "not sandboxed"}


# A run's end in one line: what it achieved, then what checked it ("Done · 12 tests pass",
# "Partial · 2 checks fail", "Done · not verified"); the page's copy is in ``ui/web/summary.js``.
OUTCOME_HEADS: dict[str, str] = {"succeeded": "Done", "partial": "Partial", "failed": "Failed"}


def verification_text(state: str, line: str) -> str:
    """The verification state as a person reads it ("12 tests pass", "not verified"); "" for
    runs recorded before it existed."""
    if not state:
        return ""
    return "not verified" if state == "unverified" else line


def ending_line(outcome: str, state: str, line: str) -> str:
    """"Done · 12 tests pass": the outcome's head word and the verification state."""
    head = OUTCOME_HEADS.get(outcome, outcome.capitalize() or "Ended")
    checked = verification_text(state, line)
    return f"{head} · {checked}" if checked else head
