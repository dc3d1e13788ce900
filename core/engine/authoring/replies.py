"""The file an authoring reply holds: the whole new file in one fenced block, or
search/replace blocks applied to the current file.

Small models wrap the block in text, name the file before the fence or not, give several
blocks, and get cut off; they copy search text nearly but not exactly. A reply without a
usable block, a block the reply ended inside, or a search text not found is a failure with
the reason, and nothing is written half.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.engine.authoring.blocks import CodeBlock, code_blocks, same_path

EDIT_BLOCK = re.compile(r"^<{5,9} ?SEARCH[^\n]*\n(?P<search>.*?)^={5,9}[ \t]*\n"
                        r"(?P<replace>.*?)^>{5,9} ?REPLACE[^\n]*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Authored:
    """The new content a reply gives, or ``problem`` saying why there is none; ``program``:
    the program that printed the content (a computed data file)."""

    content: str | None
    problem: str = ""
    program: str = ""


def whole_file(reply: str, path: str) -> Authored:
    """The file's complete new content from a reply holding it in a fenced block."""
    blocks = code_blocks(reply)
    if not blocks:
        return Authored(None, "the reply has no fenced code block (```) holding the file")
    block = pick_block(blocks, path)
    if block is None:
        named = ", ".join(sorted({b.path for b in blocks if b.path}))
        return Authored(None, f"the reply's code blocks are for {named}, not {path}")
    if not block.closed:
        return Authored(None, "the reply ended inside the code block (it was cut off); "
                              "nothing was written")
    if not block.body.strip():
        return Authored(None, "the code block is empty")
    return Authored(block.body)


def pick_block(blocks: list[CodeBlock], path: str) -> CodeBlock | None:
    """The block named for ``path``; else, of the blocks named for no file, the only one or
    the longest complete one (a usage example beside the file is shorter than the file);
    None when every block is named for another file."""
    named = [b for b in blocks if same_path(b.path, path)]
    if named:
        return named[-1]
    nameless = [b for b in blocks if not b.path]
    if len(nameless) <= 1:
        return nameless[0] if nameless else None
    closed = [b for b in nameless if b.closed] or nameless
    return max(closed, key=lambda b: len(b.body))


def search_replace(reply: str, current: str) -> Authored:
    """``current`` with every search/replace block of the reply applied in order."""
    edits = [(m.group("search"), m.group("replace")) for m in EDIT_BLOCK.finditer(reply)]
    if not edits:
        return Authored(None, "the reply has no search/replace block (<<<<<<< SEARCH, "
                              "=======, >>>>>>> REPLACE)")
    text = current
    for number, (search, replace) in enumerate(edits, start=1):
        if not search.strip():
            return Authored(None, f"search/replace block {number} has an empty SEARCH part")
        applied = _apply(text, search, replace)
        if applied is None:
            first = next(line for line in search.splitlines() if line.strip())
            return Authored(None, f"the SEARCH text of block {number} is not in the file "
                                  f"(it begins {first.strip()[:80]!r}); copy it exactly")
        text = applied
    if text == current:
        return Authored(None, "the search/replace blocks change nothing")
    return Authored(text)


def _apply(text: str, search: str, replace: str) -> str | None:
    """``text`` with the first match of ``search`` replaced: exactly, else line by line
    ignoring trailing whitespace, else ignoring a common shift of indentation."""
    if search in text:
        return text.replace(search, replace, 1)
    lines = text.splitlines(keepends=True)
    wanted = [line.rstrip() for line in search.splitlines()]
    for start in range(len(lines) - len(wanted) + 1):
        window = [line.rstrip() for line in lines[start:start + len(wanted)]]
        if window == wanted:
            return "".join(lines[:start]) + replace + "".join(lines[start + len(wanted):])
        shift = _shift(window, wanted)
        if shift is not None:
            moved = "".join(_indent(line, shift) for line in replace.splitlines(keepends=True))
            return "".join(lines[:start]) + moved + "".join(lines[start + len(wanted):])
    return None


def _shift(window: list[str], wanted: list[str]) -> str | None:
    """The indentation the file has more than ``wanted`` on every line, if it is the same."""
    shifts = set()
    for have, want in zip(window, wanted):
        if not want.strip() and not have.strip():
            continue
        if not have.endswith(want.lstrip()) or not have.strip() == want.strip():
            return None
        extra = len(have) - len(have.lstrip()) - (len(want) - len(want.lstrip()))
        if extra <= 0:
            return None
        shifts.add(have[:extra])
    return shifts.pop() if len(shifts) == 1 else None


def _indent(line: str, prefix: str) -> str:
    return prefix + line if line.strip() else line


TOKENS_PER_CHAR = 1 / 3.2
MAX_AUTHOR_TOKENS = 6_000
MIN_AUTHOR_TOKENS = 1_600


def author_tokens(old: str | None, edits: bool) -> int:
    """A reply limit that fits the file: the whole file again with room to grow, or a few
    search/replace blocks."""
    if edits:
        return 1_500
    size = len(old or "")
    return min(MAX_AUTHOR_TOKENS, max(MIN_AUTHOR_TOKENS, int(size * TOKENS_PER_CHAR * 2) + 800))
