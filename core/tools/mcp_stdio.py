"""The stdio transport of an MCP server process, with the guarantees PhaseDesk needs.

The SDK's own ``stdio_client`` hides the process; this one keeps it so that:

- the server runs in its own session and process group, led by a small guard shell
  that gets ``PR_SET_PDEATHSIG`` on Linux: when PhaseDesk dies (even by SIGKILL) the
  kernel signals the guard, and the guard kills the whole group — the server and any
  process it started;
- the group's pid is known (shown in the run's log and checked by the tests);
- its standard error is read into a bounded tail that goes into the run's log;
- shutdown follows the MCP spec (close stdin, wait, SIGTERM, wait, SIGKILL) and then
  kills whatever is left of its process group, inside a cancellation shield.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import shutil
import signal
import sys
import time
from collections import deque
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import AsyncIterator, Awaitable, Callable

import anyio
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

LINE_LIMIT = 32 * 1024 * 1024
STDERR_KEEP = 16 * 1024
EXIT_GRACE_S = 2.0
TERM_GRACE_S = 2.0
_PR_SET_PDEATHSIG = 1
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None

# The guard: a shell that leads the server's process group and passes it the pipes. When
# it gets SIGTERM — from the kernel when PhaseDesk dies, or from ``stop`` — it SIGKILLs the
# whole group, so children the server started die too. Its exit status is the server's.
GUARD = ('exec 3<&0; trap "kill -KILL 0" TERM; "$@" 0<&3 3<&- & '
         'exec 0</dev/null 3<&- 1>/dev/null; wait $!')

ReadStream = MemoryObjectReceiveStream[SessionMessage | Exception]
WriteStream = MemoryObjectSendStream[SessionMessage]


class StderrTail:
    """The last ``STDERR_KEEP`` bytes a server wrote to its standard error."""

    def __init__(self) -> None:
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self.dropped = 0

    def add(self, chunk: bytes) -> None:
        self._chunks.append(chunk)
        self._size += len(chunk)
        while self._size > STDERR_KEEP and len(self._chunks) > 1:
            old = self._chunks.popleft()
            self._size -= len(old)
            self.dropped += len(old)

    def text(self, limit: int = STDERR_KEEP) -> str:
        data = b"".join(self._chunks)[-limit:]
        return data.decode("utf-8", errors="replace").strip()


def _die_with_parent(parent: int) -> None:
    """Runs in the child between fork and exec: SIGTERM it when the parent dies."""
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


async def spawn(command: str, args: list[str], env: dict[str, str], cwd: Path
                ) -> asyncio.subprocess.Process:
    """Start the server under the guard shell; raises ``OSError`` when it cannot be started.

    A relative command with a slash (``.venv/bin/python``) means the same as it would in
    the shell that started PhaseDesk, although the server runs in ``cwd``."""
    executable = os.path.abspath(command) if os.sep in command else shutil.which(command)
    if executable is None or not os.access(executable, os.X_OK) or os.path.isdir(executable):
        raise FileNotFoundError(f"command not found or not executable: {command}")
    parent = os.getpid()
    return await asyncio.create_subprocess_exec(
        "/bin/sh", "-c", GUARD, "phasedesk-mcp-guard", executable, *args,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=env, cwd=str(cwd), start_new_session=True,
        limit=LINE_LIMIT, preexec_fn=lambda: _die_with_parent(parent))


@asynccontextmanager
async def connected(process: asyncio.subprocess.Process, stderr: StderrTail
                    ) -> AsyncIterator[tuple[ReadStream, WriteStream]]:
    """The session's streams over ``process``' pipes; on exit the process is stopped."""
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)
    assert process.stdin and process.stdout and process.stderr

    async def read_stdout() -> None:
        async with read_send:
            while line := await process.stdout.readline():  # type: ignore[union-attr]
                if line.strip():
                    await read_send.send(_parse(line))

    async def write_stdin() -> None:
        async with write_recv:
            async for message in write_recv:
                data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                process.stdin.write(data.encode() + b"\n")  # type: ignore[union-attr]
                await process.stdin.drain()  # type: ignore[union-attr]

    async def read_stderr() -> None:
        while chunk := await process.stderr.read(4096):  # type: ignore[union-attr]
            stderr.add(chunk)

    async with anyio.create_task_group() as group:
        for job in (read_stdout, write_stdin, read_stderr):
            group.start_soon(_quietly, job)
        try:
            yield read_recv, write_send
        finally:
            with anyio.CancelScope(shield=True):
                await stop(process)
                await asyncio.sleep(0)
            group.cancel_scope.cancel()


async def _quietly(job: Callable[[], Awaitable[None]]) -> None:
    """Run a pipe job; a pipe that breaks because the server died just ends it."""
    with suppress(OSError, ValueError, anyio.ClosedResourceError, anyio.BrokenResourceError,
                  asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        await job()


def _parse(line: bytes) -> SessionMessage | Exception:
    try:
        return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(line,
                                                                            by_name=False))
    except ValueError as exc:
        return exc


async def stop(process: asyncio.subprocess.Process) -> None:
    """Close stdin, give the server time to exit, then SIGTERM and SIGKILL its group."""
    if process.stdin is not None and not process.stdin.is_closing():
        process.stdin.close()
    if not await _exited(process, EXIT_GRACE_S):
        _signal_group(process.pid, signal.SIGTERM)
        if not await _exited(process, TERM_GRACE_S):
            _signal_group(process.pid, signal.SIGKILL)
            await _exited(process, TERM_GRACE_S)
    _signal_group(process.pid, signal.SIGKILL)
    # The pipes' transport would otherwise stay open until garbage collection (and warn
    # then, perhaps after the loop closed); nothing public closes it.
    transport = getattr(process, "_transport", None)
    if transport is not None:
        transport.close()


async def _exited(process: asyncio.subprocess.Process, timeout: float) -> bool:
    """Whether the process exited within ``timeout`` (polled: ``wait()`` also waits for
    pipes a surviving grandchild may hold open)."""
    deadline = time.monotonic() + timeout
    while process.returncode is None:
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def _signal_group(pgid: int, sig: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
