"""Context management: sizes, the digest the inspector shows, and round-based compaction.

Compaction cuts only at round boundaries (a round starts with a message that is not a
tool message and ends before the next round starts), so every assistant ``tool_calls``
message keeps its tool messages: protocol pairs are never split.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from core.llm.base import Message, estimate_tokens

PREVIEW_CHARS = 240


def message_tokens(messages: list[Message]) -> int:
    return estimate_tokens(messages)


def digest(messages: list[Message]) -> list[dict[str, object]]:
    """What the context inspector shows of each message: role, size, tokens, a preview."""
    rows: list[dict[str, object]] = []
    for message in messages:
        content = message.get("content") or ""
        if message.get("tool_calls"):
            content = (content + " " if content else "") + " ".join(
                f"{c['function']['name']}({c['function']['arguments']})"
                for c in message["tool_calls"])
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        rows.append({"role": message.get("role", "?"), "chars": len(text),
                     "tokens": estimate_tokens(message),
                     "preview": text[:PREVIEW_CHARS] + ("…" if len(text) > PREVIEW_CHARS else "")})
    return rows


@dataclass(frozen=True)
class Compaction:
    messages: list[Message]
    before: int
    after: int


def compact(messages: list[Message], head: int, round_starts: list[int], keep_rounds: int,
            summarise: Callable[[int, list[Message]], str], limit: int) -> Compaction | None:
    """Replace all rounds but the last ``keep_rounds`` by one summary message.

    ``head`` messages (system prompt, structured request, phase goal) stay verbatim;
    ``round_starts`` are the indexes where rounds begin. Returns ``None`` when the
    messages fit within ``limit`` tokens or there is nothing old enough to compact.
    """
    before = message_tokens(messages)
    if before <= limit or len(round_starts) <= keep_rounds:
        return None
    cut = round_starts[-keep_rounds] if keep_rounds else len(messages)
    first = round_starts[0]
    if cut <= first or first < head:
        return None
    old = messages[first:cut]
    if any(m.get("role") == "tool" for m in messages[cut:cut + 1]):
        return None  # a cut there would orphan a tool message
    summary = {"role": "user", "content": summarise(len(round_starts) - keep_rounds, old)}
    kept = messages[:first] + [summary] + messages[cut:]
    return Compaction(kept, before, message_tokens(kept))


def rounds_digest(count: int, old: list[Message], per_message: int = 200) -> str:
    """A compact account of compacted rounds: judge summaries and task outcomes, cut short."""
    lines = [f"[Compacted: the {count} earliest round(s) of this phase, summarised]"]
    for message in old:
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            for call in message["tool_calls"]:
                name = call["function"]["name"]
                if name in ("judge_tasks", "think", "plan_tool_call"):
                    try:
                        args = json.loads(call["function"]["arguments"])
                    except ValueError:
                        continue
                    if name == "judge_tasks":
                        lines.append(f"- judge: {args.get('user_summary', '')[:per_message]}")
                    elif name == "plan_tool_call":
                        titles = ", ".join(str(t.get("title", "")) for t in args.get("tasks", []))
                        lines.append(f"- planned: {titles[:per_message]}")
                else:
                    lines.append(f"- called {name}({call['function']['arguments'][:80]})")
        elif role == "user" and str(message.get("content", "")).startswith("[Compacted"):
            lines.append(str(message["content"])[:2000])
        elif role == "tool":
            text = " ".join(str(message.get("content", "")).split())
            if text not in ("Recorded.", "Verdict recorded.", "Noted."):
                lines.append(f"  → {text[:per_message]}")
    return "\n".join(lines)
