"""Model text as a person is shown it: without the engine's own identifiers, and task titles
as words.

A model that echoes its instructions writes stage and tool identifiers into what it returns
("… and call request_analyser to analyse the request"); a clause that names one is the
engine's wording, not the person's goal, and is left out. A task title that is only a tool
call ("search_code def multiply\\(a, b\\):") is shown as what it does, with its argument as
code (a search's pattern unescaped).
"""

from __future__ import annotations

import re
from typing import Any

# The identifiers of the model stages (``core.engine.stages.schemas``) and of the workspace
# tools (``core.tools.default_registry``).
STAGE_IDENTIFIERS = ("request_analyser", "phase_planner", "plan_tool_call", "judge_tasks",
                     "summarizer")
TOOL_IDENTIFIERS = ("list_files", "read_file", "search_code", "write_file", "edit_file",
                    "run_command")
_INTERNAL = re.compile(r"(?<![\w.])(?:%s)(?![\w])" % "|".join(
    STAGE_IDENTIFIERS + TOOL_IDENTIFIERS))
# A clause ends at sentence or clause punctuation followed by a space or the end (so "leap.py"
# stays whole), in Latin and CJK punctuation.
_CLAUSE = re.compile(r"(?:[^.;:!?,。；：！？，、]|[.;:!?,](?!\s|$))+"
                     r"(?:[.;:!?,](?=\s|$)|[。；：！？，、]|$)\s*|[^\w\s]+\s*")

# What a task of each workspace tool does, and which argument it does it to.
TOOL_ACTIONS: dict[str, tuple[str, str]] = {
    "search_code": ("Search the code for", "pattern"),
    "read_file": ("Read", "path"),
    "write_file": ("Write", "path"),
    "edit_file": ("Edit", "path"),
    "list_files": ("List the files in", "path"),
    "run_command": ("Run", "command"),
}
_ESCAPED = re.compile(r"\\([^\w\s])")


def names_internal(text: str) -> bool:
    """Whether ``text`` names a stage or a tool of the engine."""
    return bool(_INTERNAL.search(text))


def without_internal_names(text: str) -> str:
    """``text`` without the clauses that name a stage or tool identifier; "" when every
    clause does. A cut that leaves a clause's comma at the end ends with a full stop."""
    if not names_internal(text):
        return text.strip()
    kept = [clause for clause in _CLAUSE.findall(text.strip()) if not names_internal(clause)]
    shown = "".join(kept).strip()
    if shown.endswith((",", ";", ":")):
        shown = shown[:-1].rstrip() + "."
    elif shown.endswith(("，", "；", "：", "、")):
        shown = shown[:-1] + "。"
    return shown


def shown_items(items: list[Any]) -> list[str]:
    """The items (assumptions, constraints) that name no stage or tool identifier."""
    return [str(item) for item in items if isinstance(item, str) and not names_internal(item)]


def unescaped_pattern(pattern: str) -> str:
    """A regular expression's literal text as a person reads it: ``multiply\\(a, b\\)`` is
    ``multiply(a, b)``."""
    return _ESCAPED.sub(r"\1", pattern)


def task_title(title: str, tool: str, arguments: Any) -> tuple[str, str]:
    """(words, code): how a task's title is shown. A title that starts with its tool's
    identifier (or an empty one, when the task has the tool's argument) reads as what the
    task does ("Search the code for", the pattern as code); any other title is the model's
    own words, with no code part."""
    title = " ".join(str(title or "").split())
    action = TOOL_ACTIONS.get(tool)
    if action is None or (title and not title.startswith(tool)):
        return title, ""
    words, name = action
    value = arguments.get(name) if isinstance(arguments, dict) else None
    if tool == "list_files" and value in (None, "", ".", "./"):
        return "List the workspace's files", ""
    if not isinstance(value, str) or not value:
        return title and words, ""
    if tool == "search_code":
        value = unescaped_pattern(value)
    return words, " ".join(value.split())[:200]
