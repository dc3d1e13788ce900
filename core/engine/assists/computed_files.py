"""A data file computed by a program (the ``computed_files`` assist).

Asked for a file whose content must be worked out from the workspace (a count, a sum, a
sorted or filtered list), a small model writes the numbers itself and gets them wrong, while
the program that works them out is code it writes well. For a data or text file the run
creates (``.txt``, ``.csv``, ``.json``, ``.md``, … never code) the authoring call may instead
reply with a Python program that prints the file's content (or writes the file); the program
runs in a sandboxed copy of the workspace (``core.tools.computed``) and what it gives is
written, with the program in the write's result. An existing data file is edited as text
(a rename in config.json worked out by a program came out wrong where the one-shot draft was
right). Without a working sandbox no program is offered.
"""

from __future__ import annotations

from pathlib import Path

from core.engine.authoring.blocks import code_blocks
from core.engine.authoring.replies import Authored, pick_block
from core.tools.computed import compute, computable, is_program
from core.tools.scratch import unavailable

PYTHON_TAGS = frozenset({"python", "py", "python3"})
PROGRAM_SHOWN = 1_200  # characters of a computing program kept in the write's result


def offers_program(rel: str, sandbox_mode: str) -> bool:
    return computable(rel) and not unavailable(sandbox_mode)


def program_offer(path: str) -> str:
    """The authoring call's other form for a data file: a program that prints it."""
    return (f"If the content of {path} must be worked out from the workspace's files "
            "(counted, summed, sorted, filtered, the largest or smallest found), do not work "
            f"it out yourself: reply with a Python program in one ```python block that reads "
            f"the files and prints the complete content of {path}. It runs in the workspace "
            "folder, and what it prints is written to the file.")


def program_in(reply: str, path: str) -> str | None:
    """The program a reply gives instead of a data file's content: the block it would be
    written from is a complete ```python block that prints or writes the file."""
    blocks = code_blocks(reply)
    if not blocks:
        return None
    block = pick_block(blocks, path)
    if block is None or not block.closed or block.language not in PYTHON_TAGS or \
            not is_program(block.body, path):
        return None
    return block.body


async def computed(reply: str, rel: str, workspace: Path, sandbox_mode: str
                   ) -> Authored | None:
    """The content the reply's program gives ``rel``; None when the reply holds no program."""
    program = program_in(reply, rel)
    if program is None:
        return None
    result = await compute(workspace, program, rel, sandbox_mode)
    if result.content is None:
        return Authored(None, f"{result.problem} (the reply gave a program that prints "
                              "the file)", program=program)
    return Authored(result.content, program=program)


def program_note(program: str) -> str:
    """What a computed write's result says of where its content came from: the program
    (bounded), for the judge and the person."""
    shown = program if len(program) <= PROGRAM_SHOWN else \
        program[:PROGRAM_SHOWN] + f"\n# … {len(program) - PROGRAM_SHOWN} more characters"
    return ("Computed: the content is what this program gave, run in a sandboxed copy of "
            f"the workspace:\n```python\n{shown.rstrip()}\n```")
