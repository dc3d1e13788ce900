"""run_command: a shell command in the workspace, in its own process group.

Where the setting allows and the machine can, the command runs in a bubblewrap sandbox
(``sandbox``): only the workspace and a private /tmp are writable, no network unless allowed,
no API keys in the environment; the result says how it ran (``ToolResult.sandbox``).

Output (stdout and stderr merged) is kept as a head and a tail of ``KEEP`` bytes each, so a
command printing gigabytes costs a fixed amount of memory. When the command finishes,
times out or its task is cancelled, the whole process group is stopped: SIGTERM, then
SIGKILL after ``GRACE_S`` — background children included, so nothing outlives its task.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections import deque
from collections.abc import Coroutine
from typing import Annotated, Any

from core.events import SandboxMark
from core.tools import paths, sandbox
from core.tools.base import DENIED, ToolContext, ToolError, ToolResult
from core.tools.registry import Limit, tool

KEEP = 48 * 1024
CHUNK = 64 * 1024
GRACE_S = 0.5
DRAIN_S = 0.5
_cleanups: set[asyncio.Task[None]] = set()


class Capture:
    """The first and last ``keep`` bytes of a stream, and how much was dropped between."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.head = bytearray()
        self.tail: deque[bytes] = deque()
        self.tail_size = 0
        self.dropped = 0

    def add(self, data: bytes) -> None:
        room = self.keep - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if not data:
            return
        self.tail.append(data)
        self.tail_size += len(data)
        while self.tail_size - len(self.tail[0]) >= self.keep:
            self.tail_size -= len(self.tail[0])
            self.dropped += len(self.tail.popleft())
        excess = self.tail_size - self.keep
        if excess > 0:
            self.tail[0] = self.tail[0][excess:]
            self.tail_size -= excess
            self.dropped += excess

    def text(self) -> str:
        head = self.head.decode("utf-8", errors="replace")
        tail = b"".join(self.tail).decode("utf-8", errors="replace")
        if self.dropped:
            note = (f"\n… [{self.dropped:,} bytes of output dropped; showing the first and "
                    f"last {self.keep // 1024} KiB] …\n")
            return head + note + tail
        return head + tail


@tool
async def run_command(ctx: ToolContext,
                      command: Annotated[str, Limit(min_length=1, max_length=10_000)],
                      timeout_s: Annotated[int, Limit(minimum=1, maximum=3600)] = 60
                      ) -> ToolResult:
    """Run a shell command in the workspace folder (sh -c; stdout and stderr together).

    A non-zero exit code fails the task; on timeout the command and its children are
    stopped.

    Args:
        command: The shell command line to run.
        timeout_s: Seconds before the command and all its child processes are stopped.
    """
    root = paths.workspace_root(ctx.run.workspace)
    start = await asyncio.to_thread(sandbox.launch, command, root, ctx.run.command_sandbox,
                                    ctx.run.command_network)
    sandbox.announce(ctx, start)
    if not await ctx.approve("command", command):
        raise ToolError(DENIED)
    started = time.monotonic()
    spawn = asyncio.ensure_future(asyncio.create_subprocess_exec(
        *start.argv, cwd=root, env=start.env, start_new_session=True,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT))
    capture = Capture(KEEP)
    try:
        proc = await asyncio.shield(spawn)
    except asyncio.CancelledError:
        await _finally_stop(_stop_spawned(spawn, capture))
        raise
    reader = _start_reader(proc, capture)
    try:
        await asyncio.wait_for(_finish(proc, reader), timeout_s)
    except TimeoutError:
        await _stop(proc, reader)
        return ToolResult(ok=False, output=_render(command, capture, None, started),
                          error=f"timed out after {timeout_s} s; the command and its child "
                                "processes were stopped", sandbox=start.mark)
    except asyncio.CancelledError:
        _signal_group(proc.pid, signal.SIGTERM)
        await _finally_stop(_stop(proc, reader))
        raise
    await _stop(proc, reader)
    assert proc.returncode is not None
    return _outcome(command, capture, proc.returncode, started, start.mark)


def _outcome(command: str, capture: Capture, code: int, started: float,
             mark: SandboxMark) -> ToolResult:
    output = _render(command, capture, code, started)
    if code != 0:
        last = "\n".join(capture.text().rstrip().splitlines()[-20:])[-2000:]
        reason = f"exit code {code}" if code >= 0 else f"killed by signal {-code}"
        return ToolResult(ok=False, output=output, sandbox=mark,
                          error=f"command failed ({reason})" + (f"; last output:\n{last}"
                                                               if last else ""))
    return ToolResult(ok=True, output=output, sandbox=mark)


async def _finally_stop(stopping: Coroutine[Any, Any, None]) -> None:
    """Run a clean-up to its end even if the task awaiting it is cancelled again."""
    cleanup = asyncio.ensure_future(stopping)
    _cleanups.add(cleanup)
    cleanup.add_done_callback(_cleanups.discard)
    await asyncio.shield(cleanup)


async def _stop_spawned(spawn: asyncio.Future[asyncio.subprocess.Process], capture: Capture
                        ) -> None:
    """Stop a command whose task was cancelled while it was being started.

    The process may already be running (and forking) before ``create_subprocess_exec``
    returns; asyncio would then kill only the shell, so its children would live on.
    """
    try:
        proc = await spawn
    except OSError:
        return
    _signal_group(proc.pid, signal.SIGTERM)
    await _stop(proc, _start_reader(proc, capture))


def _start_reader(proc: asyncio.subprocess.Process, capture: Capture) -> asyncio.Future[None]:
    assert proc.stdout is not None
    return asyncio.ensure_future(_pump(proc.stdout, capture))


async def _pump(stream: asyncio.StreamReader, capture: Capture) -> None:
    while data := await stream.read(CHUNK):
        capture.add(data)


async def _finish(proc: asyncio.subprocess.Process, reader: asyncio.Future[None]) -> None:
    """Wait for the command to exit, then briefly for output its background children write.

    ``Process.wait()`` is avoided: before Python 3.12 it also waits for every process that
    inherited the output pipe, which is exactly what a timeout must not wait for.
    """
    await _exited(proc)
    await asyncio.wait({reader}, timeout=DRAIN_S)


async def _exited(proc: asyncio.subprocess.Process) -> None:
    while proc.returncode is None:
        await asyncio.sleep(0.01)


async def _stop(proc: asyncio.subprocess.Process, reader: asyncio.Future[None]) -> None:
    """Stop every process of the group (SIGTERM, then SIGKILL after the grace period)."""
    if _group_alive(proc.pid):
        _signal_group(proc.pid, signal.SIGTERM)
        if not await _group_gone(proc.pid, GRACE_S):
            _signal_group(proc.pid, signal.SIGKILL)
            await _group_gone(proc.pid, GRACE_S)
    await _exited(proc)
    await asyncio.wait({reader}, timeout=GRACE_S)
    if reader.done():
        await proc.wait()
    else:
        reader.cancel()


async def _group_gone(pgid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while _group_alive(pgid):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def _group_alive(pgid: int) -> bool:
    """Whether a live (not zombie) process is in the group; zombies need no more signals."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    if not os.path.isdir("/proc/self"):
        return True
    with os.scandir("/proc") as entries:
        for entry in entries:
            if entry.name.isdigit() and _live_member(entry.name, pgid):
                return True
    return False


def _live_member(pid: str, pgid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return False
    fields = stat[stat.rfind(b")") + 2:].split()
    return len(fields) > 2 and fields[2] == str(pgid).encode() and fields[0] not in (b"Z", b"X")


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _render(command: str, capture: Capture, code: int | None, started: float) -> str:
    text = capture.text().rstrip("\n") or "(no output)"
    elapsed = time.monotonic() - started
    status = "timed out" if code is None else f"exit code {code}"
    return f"$ {command}\n{text}\n[{status}, {elapsed:.2f} s]"
