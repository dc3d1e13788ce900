"""A workspace file's current text, for the engine's authoring step (confined like every tool,
and through the run's gate: an ignored file or one held back as a secret is not shown)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from core.tools import paths
from core.tools.base import ToolError
from core.tools.gate import Gate

TEXT_CAP = 400_000  # characters an authoring prompt may show of a file (it must fit a context)


@dataclass(frozen=True)
class CurrentText:
    """``text`` is None for a file that does not exist yet; ``problem`` says why the file
    cannot be written from a model's reply at all (outside the workspace, binary, too large)."""

    rel: str
    text: str | None
    problem: str = ""


def current_text(workspace: Path, raw: str, gate: Gate | None = None) -> CurrentText:
    gate = gate or Gate(workspace)
    try:
        target = paths.resolve(workspace, raw)
    except ToolError as exc:
        return CurrentText(raw, None, str(exc))
    if target.is_dir:
        return CurrentText(target.rel, None, f"{target.rel} is a folder, not a file")
    if not target.exists:
        return CurrentText(target.rel, None)
    why = gate.ignored(target.rel)
    if why:
        return CurrentText(target.rel, None, f"{target.rel} is {why}: it is not shown to the "
                                             "model, so the model cannot rewrite it")
    try:
        with os.fdopen(paths.open_regular(target), "rb") as handle:
            data = handle.read(TEXT_CAP * 4 + 1)
    except (ToolError, OSError) as exc:
        return CurrentText(target.rel, None, f"{target.rel} cannot be read: {exc}")
    if b"\x00" in data[:8192]:
        return CurrentText(target.rel, None, f"{target.rel} is a binary file")
    text = data.decode("utf-8", errors="replace")
    if len(text) > TEXT_CAP:
        return CurrentText(target.rel, None, f"{target.rel} is too large to be rewritten by "
                                             f"the model (over {TEXT_CAP:,} characters)")
    secret = gate.secret(target.rel, text)
    if secret:
        return CurrentText(target.rel, None, gate.held_entry(target.rel, secret) +
                           ": the model is not shown it, so it cannot rewrite it")
    return CurrentText(target.rel, gate.release(target.rel, text))
