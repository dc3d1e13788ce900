"""Workspace tools: every way the agent reads or changes the person's folder."""

from __future__ import annotations

from core.tools.registry import Tool, ToolRegistry, tool

__all__ = ["Tool", "ToolRegistry", "default_registry", "tool"]


def default_registry() -> ToolRegistry:
    """The six workspace tools, in the order the model is shown them."""
    from core.tools.edits import edit_file, write_file
    from core.tools.files import list_files, read_file
    from core.tools.search import search_code
    from core.tools.shell import run_command

    return ToolRegistry([list_files, read_file, search_code, write_file, edit_file,
                         run_command])
