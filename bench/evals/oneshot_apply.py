"""The one-shot baseline's reply applied to the workspace copy: each file the reply gives
(``core.engine.authoring.draft_reply``, as the engine reads its draft) is written whole."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from core.engine.authoring.draft import draft_targets
from core.engine.authoring.draft_reply import drafted_files
from core.tools.text_files import Listing


@dataclass
class Applied:
    """What a reply did to the workspace."""

    written: list[str] = field(default_factory=list)  # created or changed, relative paths
    unchanged: list[str] = field(default_factory=list)  # given with the content they had
    refused: list[str] = field(default_factory=list)  # one line per block not written

    @property
    def note(self) -> str:
        """Why blocks were not written (empty when every block was)."""
        return "; ".join(self.refused)


def apply_reply(reply: str, workspace: Path, listing: Listing, request: str = "") -> Applied:
    """Write the whole files of ``reply`` into ``workspace``; ``listing``: the files the
    prompt showed; ``request``: its words (the files it targets, as the prompt's format
    example named them)."""
    drafted = drafted_files(reply, workspace, listing, targets=draft_targets(request, listing))
    applied = Applied(unchanged=list(drafted.unchanged),
                      refused=[*drafted.notes, *drafted.refused])
    for rel, body in drafted.files.items():
        path = workspace / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8", newline="") as handle:
                handle.write(body)
        except OSError as error:
            applied.refused.append(f"{rel}: cannot write it ({error.strerror}); not written")
            continue
        applied.written.append(rel)
    return applied
