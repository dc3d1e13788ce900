"""Whether the classic loop's text reply answers the request.

A small model sometimes ends the loop by repeating the last tool message, chat-template
markup and all (``<tool_response>\\nwrote events.py …\\n</tool_response>``, seen from Qwen
1.5B on llama-server). That text says nothing the run's events do not, and shown as the
summary it reads as a malfunction; it is no answer, so the summary is written from the run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.llm.base import Message

MARKUP = re.compile(r"<\|[\w.-]{1,40}\|>|</?(?:tool_call|tool_response|tool_result|"
                    r"function_call|function_response)>", re.IGNORECASE)


def echoed(text: str, messages: list[Message]) -> bool:
    """Whether ``text`` is nothing but chat-template markup, or markup around a tool
    message's content, or a tool message's content alone."""
    if not MARKUP.search(text) and not text.strip():
        return False
    bare = " ".join(MARKUP.sub(" ", text).split())
    if not bare:
        return True
    return any(bare == " ".join(str(message.get("content") or "").split())
               for message in messages if message.get("role") == "tool")


def named_tool(text: str, names: Iterable[str]) -> str:
    """The offered tool ``text`` only names ("search_code", "`read_file`", "list_files()");
    "" when it says anything else."""
    bare = text.strip().strip("`'\".:!").strip()
    bare = bare.removesuffix("()").strip()
    return bare if bare and bare in set(names) else ""
