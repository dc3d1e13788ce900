"""The (workspace, endpoint) pairs the person allowed files to be sent to, kept in the data
folder (``sent_to.json``) so the question is asked once per pair."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from core.appdirs import data_dir

log = logging.getLogger(__name__)
FILE_NAME = "sent_to.json"


def _store() -> Path:
    return data_dir() / FILE_NAME


def _pairs() -> list[list[str]]:
    """The pairs on file; none when the file is missing or damaged."""
    try:
        data = json.loads(_store().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    pairs = data.get("confirmed") if isinstance(data, dict) else None
    if not isinstance(pairs, list):
        return []
    return [p for p in pairs if isinstance(p, list) and len(p) == 2
            and all(isinstance(part, str) for part in p)]


def confirmed(workspace: Path, endpoint: str) -> bool:
    """Whether the person allowed ``workspace``'s files to be sent to ``endpoint``."""
    return [str(workspace), endpoint] in _pairs()


def remember(workspace: Path, endpoint: str) -> None:
    """Keep that the person allowed it (a failure to write is logged, not raised)."""
    pairs = _pairs()
    if [str(workspace), endpoint] in pairs:
        return
    pairs.append([str(workspace), endpoint])
    path = _store()
    try:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"confirmed": pairs}, indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("could not keep that %s may be sent to %s: %s", workspace, endpoint, exc)
