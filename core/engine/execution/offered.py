"""The workspace tools as plans and the classic loop are offered them.

With ``author_files`` on (the default), ``write_file`` is offered with the registry's ``path``
and an ``instruction`` instead of the content, and ``edit_file`` not at all: the new content
is written by the authoring stage (``core.engine.authoring``), which the task runner asks
before it calls the registry's own ``write_file``. A write with content and ``edit_file`` are
still accepted from a plan (a model or a script may give them). Off, the tools are offered as
the registry declares them: the form the evaluation compares against.
"""

from __future__ import annotations

import copy
from typing import Any

from core.schema import SchemaError
from core.tools.base import ToolManager, WrappedTools

WRITE, EDIT = "write_file", "edit_file"
WRITE_DESCRIPTION = ("Create a file or change an existing one: name the file and say what it "
                     "must contain or what must change. The new content is written in a "
                     "separate step that shows the current file; never put the content here.")
INSTRUCTION = {"type": "string", "minLength": 3, "maxLength": 400,
               "description": "What the file must contain, or what must change in it, in "
                              "words: names, behaviour, edge cases, values."}


def instruction_parameters(registry_write: dict[str, Any]) -> dict[str, Any]:
    """``write_file``'s parameters as offered: the registry's ``path``, and an instruction."""
    path = copy.deepcopy(registry_write.get("properties", {}).get("path", {"type": "string"}))
    return {"type": "object", "properties": {"path": path, "instruction": INSTRUCTION},
            "required": ["path", "instruction"]}


def offered_parameters(parameters: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Tool parameters as plans are offered them: write_file takes an instruction, edit_file
    is left out (for a model whose grammar holds planned arguments to them)."""
    return {name: instruction_parameters(schema) if name == WRITE else schema
            for name, schema in parameters.items() if name != EDIT}


def is_authoring(tool: str, arguments: dict[str, Any]) -> bool:
    return tool == WRITE and "instruction" in arguments and "content" not in arguments


def check_write(tool: str, arguments: dict[str, Any]) -> None:
    """A write must say what to write: an instruction (or, given directly, the content)."""
    if tool == WRITE and "instruction" not in arguments and "content" not in arguments:
        raise SchemaError("write_file: missing required field 'instruction' (say what the "
                          "file must contain or what must change)")


class OfferedTools(WrappedTools):
    """The registry's tools (``ToolManager``) as offered; see the module's docstring. The
    task runner runs the registry's tools itself (``execute`` here is the registry's)."""

    def __init__(self, inner: ToolManager, authored: bool = True) -> None:
        super().__init__(inner)
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
                    "parameters": instruction_parameters(entry["function"]["parameters"])}}
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
        either["properties"] = {**own["properties"], "instruction": INSTRUCTION}
        return either
