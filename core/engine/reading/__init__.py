"""The reading of a request: the model's reading checked by the engine (``check``), with what
the engine finds in the text by itself (``core.tools.code_in_text``), built once per run."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from core.engine.reading.check import check_reading, example_code
from core.shapes.reading import Reading
from core.tools.code_in_text import code_examples, file_names
from core.tools.reading_facts import WorkspaceFacts, named_texts, workspace_facts

__all__ = ["Reading", "named_texts", "read_request", "reading_of", "workspace_facts"]


def read_request(raw: Mapping[str, Any], words: str, workspace: WorkspaceFacts,
                 requirements: list[tuple[str, str]]) -> Reading:
    """The reading of ``words``: the model's (``raw``, the analysis's fields; {} when there is
    none) checked, with the examples written as code in the request and in the files it
    names."""
    found = code_examples(words)
    for rel, text in workspace.texts.items():
        if rel.endswith(".py"):
            found += code_examples(text)
    return check_reading(raw, words, workspace, requirements, found)


def listed_paths(raw: Mapping[str, Any]) -> list[str]:
    """The paths the model's reading gives, as written."""
    items = raw.get("files") or []
    return [str(item.get("path", "")).strip().strip("`\"'").removeprefix("./")
            for item in items if isinstance(item, Mapping)] + file_names(
        " ".join(example_code(item) for item in raw.get("examples") or []
                 if isinstance(item, Mapping)))


async def reading_of(root: Path, words: str, raw: Mapping[str, Any],
                     requirements: list[tuple[str, str]], offered: frozenset[str]) -> Reading:
    """The checked reading of ``words`` from the model's ``raw`` reading ({}: none) and its
    (requirement, quote) pairs, against the workspace ``root`` as it is now."""
    facts = await asyncio.to_thread(workspace_facts, root, words, listed_paths(raw), offered)
    return await asyncio.to_thread(read_request, raw, words, facts, requirements)
