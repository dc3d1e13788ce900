"""Workspace tools: every way the agent reads or changes the person's folder, and the
tools of the MCP servers the settings name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.config import Settings
from core.tools.base import ToolManager
from core.tools.registry import Tool, ToolRegistry, tool

__all__ = ["Tool", "ToolRegistry", "default_registry", "run_tools", "tool", "tool_parameters"]


def default_registry() -> ToolRegistry:
    """The six workspace tools, in the order the model is shown them."""
    from core.tools.edits import edit_file, write_file
    from core.tools.files import list_files, read_file
    from core.tools.search import search_code
    from core.tools.shell import run_command

    return ToolRegistry([list_files, read_file, search_code, write_file, edit_file,
                         run_command])


def tool_parameters() -> dict[str, dict[str, Any]]:
    """Each workspace tool's parameter schema by name (what the embedded model's grammar
    holds planned task arguments to)."""
    registry = default_registry()
    return {name: registry.parameters(name) for name in registry.names()}


def run_tools(settings: Settings, workspace: Path) -> ToolManager:
    """The tools of one run: the workspace tools, plus the enabled MCP servers' tools
    (started by the run's ``open`` and stopped by its ``close``); the files that commands and
    MCP tools change are reported like writes (``watched``)."""
    from core.tools.watched import WatchedTools

    registry = default_registry()
    if not any(server.enabled for server in settings.mcp_servers):
        return WatchedTools(registry)
    from core.tools.mcp_tools import McpToolbox

    return WatchedTools(McpToolbox(registry, settings.mcp_servers, workspace,
                                   settings.mcp_start_timeout_s, settings.mcp_call_timeout_s))
