"""The workspace tools as plans and the classic loop see them, with authored writes.

With ``author_files`` on (the default), ``write_file`` is offered with a path and an
instruction, ``edit_file`` not at all, and an authored write goes through ``Author`` and
then the real ``write_file``; a write with content and ``edit_file`` are still accepted (a
model or a script may give them). Off, the tools are offered as they are (content in the
call, exact-text edits): the form the evaluation compares against.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from core.engine.authoring import EDIT, INSTRUCTION_PARAMETERS, WRITE, WRITE_DESCRIPTION, \
    Author, is_authoring
from core.engine.requested_changes import refusal
from core.tools.base import ToolContext, ToolManager, ToolResult, WrappedTools
from core.tools.current_text import current_text


class AuthoringTools(WrappedTools):
    """The tools as offered (``ToolManager``); see the module's docstring."""

    def __init__(self, inner: ToolManager, author: Author | None = None,
                 authored: bool = True) -> None:
        super().__init__(inner)
        self.author = author
        self.authored = authored

    def names(self) -> list[str]:
        """Every tool a plan may name (``edit_file`` included, though never offered)."""
        return self.inner.names()

    def offered_names(self) -> list[str]:
        return [name for name in self.inner.names() if name != EDIT or not self.authored]

    def schemas(self) -> list[dict[str, Any]]:
        """The offered tools: what the system prompt lists and the classic loop is given."""
        if not self.authored:
            return self.inner.schemas()
        offered = []
        for entry in self.inner.schemas():
            name = entry["function"]["name"]
            if name == EDIT:
                continue
            if name == WRITE:
                entry = {"type": "function", "function": {
                    "name": WRITE, "description": WRITE_DESCRIPTION,
                    "parameters": INSTRUCTION_PARAMETERS}}
            offered.append(entry)
        return offered

    def offered_parameters(self) -> dict[str, dict[str, Any]]:
        """Each offered tool's parameters, for the plan schemas and a grammar."""
        return {entry["function"]["name"]: entry["function"]["parameters"]
                for entry in self.schemas()}

    def parameters(self, name: str) -> dict[str, Any]:
        """What a call of ``name`` is checked against: an authored write, or the tool's own
        parameters (a write with content, an edit)."""
        if name != WRITE or not self.authored:
            return self.inner.parameters(name)
        own = self.inner.parameters(WRITE)
        either = dict(own, required=["path"])
        either["properties"] = {**own["properties"],
                                "instruction": INSTRUCTION_PARAMETERS["properties"]["instruction"]}
        return either

    async def execute(self, name: str, arguments: dict[str, Any], ctx: ToolContext) -> ToolResult:
        forbidden = ctx.run.changes_forbidden
        if forbidden and self.written_paths(name, arguments):
            return ToolResult(False, error=refusal(forbidden))
        if not is_authoring(name, arguments):
            if name == WRITE and "content" not in arguments:
                return ToolResult(False, error="write_file needs an instruction: say what the "
                                               "file must contain or what must change")
            return await self.inner.execute(name, arguments, ctx)
        if self.author is None:
            return ToolResult(False, error="authored writes are not available here")
        path = str(arguments.get("path", ""))
        authored = await self.author.content(path, str(arguments["instruction"]), ctx)
        if authored.content is None:
            return ToolResult(False, error=f"{path} was not written: {authored.problem}")
        if authored.kept:
            result = ToolResult(True, output=f"kept {path} as it was: no new try did better "
                                             "against the request's examples")
        else:
            result = await self.inner.execute(WRITE, {"path": path, "content": authored.content,
                                                      "overwrite": True}, ctx)
        if result.ok and authored.program:
            result = replace(result, output=f"{result.output}\n{program_note(authored.program)}")
        if result.ok and authored.amended:
            result = replace(result, output=f"{result.output}\n{authored.amended}")
        if result.ok and authored.checks:
            result = replace(result, output=f"{result.output}\nChecks: {authored.checks}")
        rel = current_text(self.author.workspace, path).rel
        self.author.remember(rel, result.ok, result.output if result.ok else result.error)
        return result


PROGRAM_SHOWN = 1_200  # characters of a computing program kept in the write's result


def program_note(program: str) -> str:
    """What a computed write's result says of where its content came from: the program
    (bounded), for the judge and the person."""
    shown = program if len(program) <= PROGRAM_SHOWN else \
        program[:PROGRAM_SHOWN] + f"\n# … {len(program) - PROGRAM_SHOWN} more characters"
    return ("Computed: the content is what this program gave, run in a sandboxed copy of "
            f"the workspace:\n```python\n{shown.rstrip()}\n```")
