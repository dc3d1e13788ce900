"""A run's tools: the built-in workspace tools plus those of the configured MCP servers.

``McpToolbox`` implements ``ToolManager``. ``open`` starts every enabled server at
once, lists its tools and offers each as ``SERVER__TOOL`` (OpenAI function names allow
no dots) with the server's own JSON schema, so the plan, the tool catalogue and the
classic loop's functions all see them like the built-in ones. A server that fails to
start is reported (``McpServerStatus`` failed, with its stderr) and the run goes on
without it; one that dies later fails the tasks that call it. ``close`` stops them all.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mcp_types

from core.events import Event, McpServerStatus, Notice
from core.shapes.mcp_server import SEPARATOR, McpServer
from core.schema import SchemaError, coerce
from core.secrets import remember
from core.tools.base import DENIED, ToolContext, ToolManager, ToolResult
from core.tools.mcp_client import McpConnection, McpFailure, RemoteTool

RESULT_CAP = 64 * 1024
DESCRIPTION_CAP = 1000
NAME_CAP = 64
SECRET_LENGTH = 8  # env values this long are redacted from events and logs like API keys
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class Offered:
    """One MCP tool as the model sees it, and where it comes from."""

    connection: McpConnection
    remote: RemoteTool
    parameters: dict[str, Any]
    description: str


class McpToolbox:
    def __init__(self, builtin: ToolManager, servers: tuple[McpServer, ...], workspace: Path,
                 start_timeout_s: float, call_timeout_s: float) -> None:
        self._builtin = builtin
        self._servers = tuple(s for s in servers if s.enabled)
        for server in self._servers:
            for _, value in server.env:
                if len(value) >= SECRET_LENGTH:
                    remember(value)
        self._workspace = workspace
        self._start_timeout = start_timeout_s
        self._call_timeout = call_timeout_s
        self._offered: dict[str, Offered] = {}
        self._connections: list[McpConnection] = []
        self._emit: Callable[[Event], None] = lambda event: None
        self._closed = False

    async def open(self, emit: Callable[[Event], None]) -> None:
        self._emit = emit
        self._connections = [McpConnection(s, self._workspace, on_death=self._died)
                             for s in self._servers]
        started = await asyncio.gather(*(c.start(self._start_timeout)
                                         for c in self._connections), return_exceptions=True)
        for connection, result in zip(self._connections, started):
            if isinstance(result, McpFailure):
                emit(McpServerStatus(name=connection.server.name, status="failed",
                                     pid=connection.pid, error=result.message,
                                     stderr=result.stderr))
            elif isinstance(result, BaseException):
                raise result
            else:
                names = [self._offer(connection, remote) for remote in result]
                emit(McpServerStatus(name=connection.server.name, status="started",
                                     tools=[n for n in names if n], pid=connection.pid))

    async def close(self) -> None:
        connections, self._connections = self._connections, []
        await asyncio.gather(*(c.stop() for c in connections))
        for connection in connections:
            if connection.started and not connection.dead:
                self._emit(McpServerStatus(name=connection.server.name, status="stopped",
                                           pid=connection.pid,
                                           stderr=connection.stderr.text()))

    def names(self) -> list[str]:
        return self._builtin.names() + list(self._offered)

    def schemas(self) -> list[dict[str, Any]]:
        return self._builtin.schemas() + [
            {"type": "function", "function": {"name": name, "description": item.description,
                                              "parameters": item.parameters}}
            for name, item in self._offered.items()]

    def parameters(self, name: str) -> dict[str, Any]:
        if name in self._offered:
            return self._offered[name].parameters
        return self._builtin.parameters(name)

    def written_paths(self, name: str, arguments: dict[str, Any]) -> set[str]:
        if name in self._offered:
            return set()
        return self._builtin.written_paths(name, arguments)

    async def execute(self, name: str, arguments: dict[str, Any], ctx: ToolContext
                      ) -> ToolResult:
        item = self._offered.get(name)
        if item is None:
            return await self._builtin.execute(name, arguments, ctx)
        try:
            checked = coerce(arguments, item.parameters)
        except SchemaError as exc:
            return ToolResult(ok=False, error=f"invalid arguments for {name}: {exc}")
        server = item.connection.server
        if server.approval == "ask":
            shown = json.dumps(checked, ensure_ascii=False, indent=2)
            detail = f"{server.name} → {item.remote.name}\n{shown[:4000]}"
            if not await ctx.approve("mcp", detail, name):
                return ToolResult(ok=False, error=DENIED)
        try:
            result = await item.connection.call(item.remote.name, checked, self._call_timeout)
        except McpFailure as exc:
            return ToolResult(ok=False, error=str(exc))
        output = cap(render(result))
        if result.is_error:
            return ToolResult(ok=False, output=output,
                              error=f"{server.name} reported an error: {output[:1000]}")
        return ToolResult(ok=True, output=output)

    def _offer(self, connection: McpConnection, remote: RemoteTool) -> str:
        server = connection.server
        name = f"{server.name}{SEPARATOR}{_UNSAFE.sub('_', remote.name)}"[:NAME_CAP]
        if name in self._offered or name in self._builtin.names():
            self._emit(Notice(level="warning", message=(
                f"MCP server '{server.name}': its tool '{remote.name}' is not offered, the "
                f"name {name} is already taken.")))
            return ""
        parameters = dict(remote.parameters)
        parameters.setdefault("type", "object")
        parameters.setdefault("properties", {})
        description = remote.description.strip() or remote.name
        if len(description) > DESCRIPTION_CAP:
            description = description[: DESCRIPTION_CAP - 1] + "…"
        self._offered[name] = Offered(connection, remote, parameters,
                                      f"[MCP server {server.name}] {description}")
        return name

    def _died(self, connection: McpConnection) -> None:
        self._emit(McpServerStatus(name=connection.server.name, status="failed",
                                   pid=connection.pid,
                                   error=f"MCP server '{connection.server.name}' "
                                         f"{connection.dead}",
                                   stderr=connection.stderr.text()))


def render(result: mcp_types.CallToolResult) -> str:
    """A tool result as text: its content blocks, then its structured content unless a
    text block already holds the same JSON."""
    parts = [_block(block) for block in result.content]
    structured = result.structured_content
    if structured is not None and not any(_same_json(part, structured) for part in parts):
        parts.append("Structured content:\n"
                     + json.dumps(structured, ensure_ascii=False, indent=2))
    return "\n\n".join(part for part in parts if part) or "(no output)"


def _block(block: Any) -> str:
    if isinstance(block, mcp_types.TextContent):
        return block.text
    if isinstance(block, (mcp_types.ImageContent, mcp_types.AudioContent)):
        return f"[{block.type}: {block.mime_type}, {len(block.data) * 3 // 4:,} bytes]"
    if isinstance(block, mcp_types.ResourceLink):
        return f"[resource link: {block.uri}" + (f" — {block.name}]" if block.name else "]")
    if isinstance(block, mcp_types.EmbeddedResource):
        resource = block.resource
        if isinstance(resource, mcp_types.TextResourceContents):
            return f"[resource {resource.uri}]\n{resource.text}"
        return f"[resource {resource.uri}: {resource.mime_type or 'binary'} data]"
    return f"[{getattr(block, 'type', 'unknown')} content]"


def _same_json(text: str, value: Any) -> bool:
    """Whether ``text`` already says ``value`` (also when ``value`` is the SDKs' wrapping
    of a plain return value, ``{"result": ...}``)."""
    if isinstance(value, dict) and set(value) == {"result"}:
        if text == value["result"] or _same_json(text, value["result"]):
            return True
    try:
        return bool(json.loads(text) == value)
    except ValueError:
        return False


def cap(text: str, limit: int = RESULT_CAP) -> str:
    """At most ``limit`` characters: the head and the tail, with a note between."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return (f"{text[:half]}\n… [{len(text) - 2 * half:,} characters dropped; showing the "
            f"first and last {half // 1024} KiB] …\n{text[-half:]}")
