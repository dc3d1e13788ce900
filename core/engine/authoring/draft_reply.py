"""The files a draft reply gives: each fenced block is the whole content of one file.

A block's file is the path the reply names for it (``blocks``): it must stay inside the
workspace (``core.tools.paths.resolve``: no ``..`` out, no absolute path elsewhere, no symlink
out) and outside the folders the tools skip; then it is the file shown in the prompt with
that path, or the one shown file it stands for (``same_path``: ``x.py`` for ``src/x.py``), or
a new file (an existing file the prompt did not show whole is not written over). A block without a name goes to the only file shown when the prompt showed one,
or, when it is the reply's only block, to the file the engine asked the draft for
(``writing``); otherwise it is reported, not guessed. The model's path is read as it meant it
when the request targets one file (``targets``): a reply of one block is that file, whatever
path precedes it, and a block whose path is neither a file of the workspace nor asked for is
that file when no other block gives it (a small model copies the format example's path); a
note says so. A block the reply ends inside (cut off) is never
taken. When a file is given in several blocks, one that names it beats one that does not; of
those, the last that defines (``def``/``class`` at the top) a name the file defines now is
taken (the implementation, not a usage example after it), else the last. A block whose
content equals the file's is listed as unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from core.engine.authoring.blocks import CodeBlock, code_blocks, same_path
from core.tools.base import ToolError
from core.tools.paths import IGNORED_DIRS, resolve
from core.tools.text_files import Listing


class Refused(Exception):
    """A block that is not taken; the message says why."""


@dataclass
class Drafted:
    """What a draft reply gives: each file's new content, and why blocks were not taken."""

    files: dict[str, str] = field(default_factory=dict)  # relative path → new content
    unchanged: list[str] = field(default_factory=list)  # given with the content they had
    refused: list[str] = field(default_factory=list)  # one line per block not taken
    answer: str = ""  # the reply, when it holds no code block (an answer in words)
    notes: list[str] = field(default_factory=list)  # a block read as another file than it named

    @property
    def note(self) -> str:
        """Why blocks were not taken (empty when every block was)."""
        return "; ".join(self.refused)


def drafted_files(reply: str, workspace: Path, listing: Listing, writing: str = "",
                  targets: list[str] | tuple[str, ...] = ()) -> Drafted:
    """The whole files of ``reply``, for the workspace whose files ``listing`` showed;
    ``writing``: the file the draft was asked for, if any; ``targets``: the files the
    request asks to change or create."""
    drafted = Drafted()
    blocks = code_blocks(reply)
    if not blocks:
        drafted.refused.append("the reply holds no fenced code block")
        drafted.answer = reply.strip()
        return drafted
    shown = {f.path: f.text for f in listing.files}
    by_file: dict[str, list[tuple[int, CodeBlock]]] = {}
    aimed = list(dict.fromkeys(targets))
    named = {b.path for b in blocks if b.path}
    for number, block in enumerate(blocks, 1):
        try:
            sole = writing if len(blocks) == 1 else ""
            rel = target(block, workspace, list(shown), sole)
            meant = _meant(rel, block, len(blocks), aimed, list(shown), named, workspace)
            if meant != rel:
                drafted.notes.append(f"the reply named {block.path or 'no file'} for block "
                                     f"{number}; it is read as {meant}, the file the request "
                                     "asks for")
            by_file.setdefault(meant, []).append((number, block))
        except Refused as refused:
            drafted.refused.append(f"block {number}: {refused}")
    for rel, given in by_file.items():
        number, block = _pick(given, shown.get(rel, ""))
        if len(given) > 1:
            drafted.refused.append(f"{rel} was given in blocks {_numbers(given)}; block "
                                   f"{number} is taken")
        old = shown.get(rel)
        if old is not None and (old == block.body or old.rstrip("\n") == block.body.rstrip("\n")):
            drafted.unchanged.append(rel)
        else:
            drafted.files[rel] = block.body
    return drafted


def _meant(rel: str, block: CodeBlock, count: int, aimed: list[str], shown: list[str],
           named: set[str | None], workspace: Path) -> str:
    """The file a block is for, as the model meant it (see the module's docstring)."""
    if len(aimed) != 1 or rel == aimed[0]:
        return rel
    target_file = aimed[0]
    if count == 1:
        return target_file
    unasked = rel not in shown and not (workspace / rel).exists()
    return target_file if unasked and target_file not in named else rel


def _defined(text: str) -> set[str]:
    return set(re.findall(r"^(?:async\s+def|def|class)\s+(\w+)", text, re.MULTILINE))


def _pick(given: list[tuple[int, CodeBlock]], current: str) -> tuple[int, CodeBlock]:
    """The block to take of several for one file (see the module's docstring)."""
    named = [(n, b) for n, b in given if b.path] or given
    defined = _defined(current)
    defining = [(n, b) for n, b in named if defined & _defined(b.body)]
    return (defining or named)[-1]


def _numbers(given: list[tuple[int, CodeBlock]]) -> str:
    return ", ".join(str(number) for number, _ in given)


def target(block: CodeBlock, workspace: Path, shown: list[str], sole: str = "") -> str:
    """The workspace-relative file ``block`` is for, or ``Refused`` saying why none is;
    ``sole``: the file a nameless block stands for."""
    where = f" for {block.path}" if block.path else ""
    if not block.closed:
        raise Refused(f"the reply was cut off inside the block{where}; not taken")
    if block.path is None:
        if len(shown) == 1:
            return shown[0]
        if sole:
            return sole
        raise Refused(f"no file name before the block, and the workspace has {len(shown)} "
                      f"files; which one it is for is not guessed")
    try:
        resolved = resolve(workspace, block.path)
    except ToolError as error:
        raise Refused(f"{error}; not taken") from None
    if resolved.is_dir:
        raise Refused(f"{block.path} is a folder; not taken")
    if IGNORED_DIRS & set(resolved.rel.split("/")):
        raise Refused(f"{block.path} is inside a folder the tools skip; not taken")
    if resolved.rel in shown:
        return resolved.rel
    matches = [path for path in shown if same_path(block.path, path)]
    if len(matches) > 1:
        raise Refused(f"{block.path} could be any of {', '.join(matches)}; not taken")
    if not matches and resolved.exists:
        raise Refused(f"{block.path} was not shown whole (too large, held back or ignored); "
                      "not taken")
    return matches[0] if matches else resolved.rel
