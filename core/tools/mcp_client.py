"""One MCP server for one run: start it, list its tools, call them, stop it.

The session lives in a task of its own (``_serve``), so a Stop that cancels the run's
work never interrupts the server's shutdown half-way; ``stop`` waits for that task.
Every failure — the command does not exist, the server exits at once, hangs, dies
mid-run or does not answer in time — is an ``McpFailure`` whose message names the
server and ends with the tail of its standard error.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import mcp_types
from mcp import ClientSession
from mcp.client.stdio import get_default_environment
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED

from core.shapes.mcp_server import McpServer
from core.tools.mcp_stdio import StderrTail, connected, spawn

log = logging.getLogger(__name__)

MAX_PAGES = 20
EXIT_WAIT_S = 5.0
HTTP_TIMEOUT = httpx2.Timeout(30.0, read=300.0)
STDERR_IN_ERRORS = 1500


@dataclass(frozen=True)
class RemoteTool:
    """A tool as the server lists it: its own name, description and argument schema."""

    name: str
    description: str
    parameters: dict[str, Any]


class McpFailure(Exception):
    """The server could not be started, died, or did not answer in time; ``stderr`` is
    the tail of what it wrote to its standard error."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.stderr = stderr

    def __str__(self) -> str:
        if not self.stderr:
            return self.message
        return f"{self.message}\nIts stderr ends with:\n{self.stderr}"


class McpConnection:
    def __init__(self, server: McpServer, workspace: Path,
                 on_death: Callable[["McpConnection"], None] | None = None) -> None:
        self.server = server
        self.workspace = workspace
        self.stderr = StderrTail()
        self.pid = 0
        self.started = False
        self.dead = ""
        self._on_death = on_death
        self._session: ClientSession | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._host: asyncio.Task[None] | None = None
        self._ready: asyncio.Future[list[RemoteTool]] | None = None
        self._stop = asyncio.Event()
        self._stopping = False

    async def start(self, timeout: float) -> list[RemoteTool]:
        """Start the server and list its tools; raises ``McpFailure``."""
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        self._host = loop.create_task(self._serve(), name=f"mcp server {self.server.name}")
        try:
            return await asyncio.wait_for(asyncio.shield(self._ready), timeout)
        except TimeoutError:
            self.dead = f"did not start within {timeout:g} s"
        except McpFailure as exc:
            self.dead = exc.message
        finally:
            if self.dead or not self._ready.done():
                await self.stop()
        raise self.explain(self.dead)

    async def call(self, tool: str, arguments: dict[str, Any], timeout: float
                   ) -> mcp_types.CallToolResult:
        """Call one tool; raises ``McpFailure`` when the server cannot answer."""
        if self.dead:
            raise self.explain(f"is not running: {self.dead}")
        if self._session is None:
            raise self.explain("is not running")
        try:
            return await asyncio.wait_for(self._session.call_tool(tool, arguments), timeout)
        except TimeoutError:
            raise self.explain(f"did not answer {tool} within {timeout:g} s") from None
        except MCPError as exc:
            if exc.code != CONNECTION_CLOSED:
                raise self.explain(f"refused {tool}: {exc.message}") from None
            if self._host is not None:  # the server went away: learn how it ended
                await asyncio.wait({self._host}, timeout=EXIT_WAIT_S)
            reason = self.dead or "closed the connection"
        except Exception as exc:  # noqa: BLE001 (every failure becomes a failed task)
            reason = _describe(exc)
        raise self.explain(f"failed during {tool}: {reason}")

    async def stop(self) -> None:
        """Stop the server (and its process group); waits until it is gone."""
        self._stopping = True
        self._stop.set()
        if self._host is None:
            return
        if self._ready is None or not self._ready.done():
            self._host.cancel()  # still starting: it waits for nothing we could signal
        await asyncio.wait({self._host})

    def explain(self, what: str) -> McpFailure:
        return McpFailure(f"MCP server '{self.server.name}' {what}",
                          self.stderr.text(STDERR_IN_ERRORS))

    async def _serve(self) -> None:
        assert self._ready is not None
        self._process = None
        try:
            async with self._transport() as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    tools = await _list_tools(session)
                    self._session = session
                    self.started = True
                    self._ready.set_result(tools)
                    await _until_stopped_or_exited(self._stop, self._process)
                    code = self._process.returncode if self._process is not None else None
                    if code is not None and not self._stopping:
                        self.dead = f"exited with code {code}"
        except McpFailure as exc:
            self._fail(exc.message)
        except Exception as exc:  # noqa: BLE001 (reported through the connection)
            code = self._process.returncode if self._process is not None else None
            reason = _describe(exc)
            if code is not None:
                reason = f"exited with code {code} ({reason})"
            unreached = self.server.remote and not self.started
            self._fail(f"{'could not be reached' if unreached else 'stopped'}: {reason}")
        finally:
            self._session = None
            if not self._ready.done():
                self._ready.set_exception(McpFailure("was stopped before it started"))
            if self.dead and self._on_death is not None and self._ready.exception() is None:
                self._on_death(self)

    @asynccontextmanager
    async def _transport(self) -> AsyncIterator[tuple[Any, Any]]:
        """The session's streams: streamable HTTP for a URL, else the stdio process."""
        if self.server.remote:
            headers = dict(self.server.env)
            async with httpx2.AsyncClient(headers=headers, timeout=HTTP_TIMEOUT) as http:
                async with streamable_http_client(self.server.command, http_client=http) as ends:
                    yield ends[0], ends[1]
            return
        env = {**get_default_environment(), **dict(self.server.env)}
        try:
            self._process = await spawn(self.server.command, list(self.server.args), env,
                                        self.workspace)
        except (OSError, ValueError) as exc:
            raise McpFailure(f"could not be started: {exc}") from None
        self.pid = self._process.pid
        async with connected(self._process, self.stderr) as ends:
            yield ends

    def _fail(self, reason: str) -> None:
        assert self._ready is not None
        if not self._ready.done():
            self._ready.set_exception(McpFailure(reason))
        elif not self._stopping:
            self.dead = self.dead or reason


async def _until_stopped_or_exited(stop: asyncio.Event,
                                   process: asyncio.subprocess.Process | None) -> None:
    waits = {asyncio.ensure_future(stop.wait())}
    if process is not None:
        waits.add(asyncio.ensure_future(process.wait()))
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiting in waits:
            waiting.cancel()


async def _list_tools(session: ClientSession) -> list[RemoteTool]:
    tools: list[RemoteTool] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        params = mcp_types.PaginatedRequestParams(cursor=cursor) if cursor else None
        listed = await session.list_tools(params=params)
        tools += [RemoteTool(t.name, t.description or "", dict(t.input_schema or {}))
                  for t in listed.tools]
        cursor = listed.next_cursor
        if not cursor:
            break
    return tools


def _describe(exc: BaseException) -> str:
    """The innermost readable reason of ``exc`` (task groups wrap what went wrong)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return str(message)


async def probe(server: McpServer, workspace: Path, timeout: float) -> list[RemoteTool]:
    """Start ``server``, list its tools and stop it (the Settings dialog's Test)."""
    connection = McpConnection(server, workspace)
    try:
        return await connection.start(timeout)
    finally:
        await connection.stop()
