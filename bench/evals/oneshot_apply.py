"""The one-shot baseline's reply applied to the workspace copy: each fenced block is a whole file.

A block's file is the path the reply names for it (``core.engine.code_blocks``): first it must
stay inside the workspace (``core.tools.paths.resolve``: no ``..`` out, no absolute path
elsewhere, no symlink out) and outside the folders the tools skip; then it is the file shown
in the prompt with that path, or the one shown file it stands for (``same_path``: ``x.py``
for ``src/x.py``), or a new file. A block without a name goes to the only file shown when
the workspace shows one; otherwise it is reported, not guessed. A block the reply ends
inside (cut off) is never written. When a file is given in several blocks, one that names it
beats one that does not; of those, the last that defines (``def``/``class`` at the top) a name
the file defines now is written (the implementation, not a usage example after it), else the
last. Blocks that pass are written whole; the others are reported, each with its reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from core.engine.code_blocks import CodeBlock, code_blocks, same_path
from core.tools.base import ToolError
from core.tools.paths import IGNORED_DIRS, resolve


class Refused(Exception):
    """A block that is not written; the message says why."""


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


def apply_reply(reply: str, workspace: Path, shown: list[str]) -> Applied:
    """Write the whole files of ``reply`` into ``workspace``; ``shown`` are the paths of the
    files the prompt showed."""
    applied = Applied()
    blocks = code_blocks(reply)
    if not blocks:
        applied.refused.append("the reply holds no fenced code block; nothing written")
        return applied
    targets: dict[str, list[tuple[int, CodeBlock]]] = {}
    for number, block in enumerate(blocks, 1):
        try:
            targets.setdefault(target(block, workspace, shown), []).append((number, block))
        except Refused as refused:
            applied.refused.append(f"block {number}: {refused}")
    for rel, given in targets.items():
        number, block = _pick(given, workspace / rel)
        if len(given) > 1:
            applied.refused.append(f"{rel} was given in blocks {_numbers(given)}; block "
                                   f"{number} is written")
        _write(workspace, rel, block.body, applied)
    return applied


def _defined(text: str) -> set[str]:
    return set(re.findall(r"^(?:async\s+def|def|class)\s+(\w+)", text, re.MULTILINE))


def _pick(given: list[tuple[int, CodeBlock]], path: Path) -> tuple[int, CodeBlock]:
    """The block to write of several for one file (see the module's docstring)."""
    named = [(n, b) for n, b in given if b.path] or given
    current = _defined(path.read_text(encoding="utf-8", errors="replace")) \
        if path.is_file() else set()
    defining = [(n, b) for n, b in named if current & _defined(b.body)]
    return (defining or named)[-1]


def _numbers(given: list[tuple[int, CodeBlock]]) -> str:
    return ", ".join(str(number) for number, _ in given)


def target(block: CodeBlock, workspace: Path, shown: list[str]) -> str:
    """The workspace-relative file ``block`` is for, or ``Refused`` saying why none is."""
    where = f" for {block.path}" if block.path else ""
    if not block.closed:
        raise Refused(f"the reply was cut off inside the block{where}; not written")
    if block.path is None:
        if len(shown) == 1:
            return shown[0]
        raise Refused(f"no file name before the block, and the workspace has {len(shown)} "
                      f"files; which one it is for is not guessed")
    try:
        resolved = resolve(workspace, block.path)
    except ToolError as error:
        raise Refused(f"{error}; not written") from None
    if resolved.is_dir:
        raise Refused(f"{block.path} is a folder; not written")
    if IGNORED_DIRS & set(resolved.rel.split("/")):
        raise Refused(f"{block.path} is inside a folder the tools skip; not written")
    if resolved.rel in shown:
        return resolved.rel
    matches = [path for path in shown if same_path(block.path, path)]
    if len(matches) > 1:
        raise Refused(f"{block.path} could be any of {', '.join(matches)}; not written")
    return matches[0] if matches else resolved.rel


def _write(workspace: Path, rel: str, body: str, applied: Applied) -> None:
    path = workspace / rel
    if path.is_file():
        before = path.read_text(encoding="utf-8", errors="replace")
        if before == body or before.rstrip("\n") == body.rstrip("\n"):
            applied.unchanged.append(rel)
            return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8", newline="") as handle:
            handle.write(body)
    except OSError as error:
        applied.refused.append(f"{rel}: cannot write it ({error.strerror}); not written")
        return
    applied.written.append(rel)
