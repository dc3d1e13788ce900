"""Running a model-written Python program off the workspace: in a bounded temporary copy of
it, inside the command sandbox (read-only machine, no network), with a time limit and a cap
on what it may print. Computed files (``computed``) run their programs here and the workspace's
tests (``test_runs``) run here; neither needs approval, since nothing they do can reach the
workspace or the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from core.tools import paths, sandbox

COPY_LIMIT = 20 * 1024 * 1024  # bytes of workspace copied for a program
OUTPUT_CAP = 1024 * 1024  # bytes of output kept; a program that prints more is stopped


@dataclass(frozen=True)
class Ran:
    """What a program printed (stdout, and stderr apart or merged into it), its exit code,
    and why it did not finish: ``timed_out``, or ``overflowed`` (it printed more than the
    cap)."""

    output: str
    errors: str
    code: int | None
    timed_out: bool = False
    overflowed: bool = False


def unavailable(mode: str) -> str:
    """Why no program can run under the sandbox setting ``mode`` (auto | off), or ""."""
    found = sandbox.availability()
    if mode != "off" and not found.active:
        return f"no command sandbox on this machine ({found.reason})" if found.reason \
            else "no command sandbox on this machine"
    return ""


def copy_workspace(workspace: Path, root: Path, files: dict[str, str]) -> str:
    """Copy the workspace to ``root`` (its tools' ignored folders left out) with ``files``
    (relative path → text) written over it; "" or why not (too large)."""
    source = paths.workspace_root(workspace)
    size = sum(f.stat().st_size for f in source.rglob("*") if f.is_file()
               and not (set(f.relative_to(source).parts) & paths.IGNORED_DIRS))
    if size > COPY_LIMIT:
        return f"the workspace is larger than {COPY_LIMIT // 1024 // 1024} MiB"
    shutil.copytree(source, root, symlinks=True,
                    ignore=shutil.ignore_patterns(*paths.IGNORED_DIRS))
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return ""


def python() -> str:
    return "python3" if getattr(sys, "frozen", False) else sys.executable


async def run_python(root: Path, mode: str, timeout_s: float, *, script: str = "",
                     stdin: str = "", merge: bool = True, cap: int = OUTPUT_CAP) -> Ran:
    """Run ``script`` (a file in ``root``), or the program given on ``stdin`` when there is
    none, in ``root`` under the sandbox setting ``mode``. ``merge``: stderr goes into the
    output; else it is kept apart."""
    command = f"{shlex.quote(python())} {shlex.quote(script) if script else '-'}"
    return await run_in(root, command, mode, timeout_s, stdin=stdin, merge=merge, cap=cap)


async def run_in(root: Path, command: str, mode: str, timeout_s: float, *, stdin: str = "",
                 merge: bool = True, cap: int = OUTPUT_CAP,
                 read_only: tuple[Path, ...] = ()) -> Ran:
    """Run the shell ``command`` in ``root`` under the sandbox setting ``mode``, without the
    network, within ``timeout_s`` seconds and ``cap`` bytes of output; ``read_only``: folders
    it may read that the sandbox would hide."""
    start = sandbox.launch(command, root, mode, network=False, read_only=read_only)
    proc = await asyncio.create_subprocess_exec(
        *start.argv, cwd=root, env=start.env, start_new_session=True,
        stdin=asyncio.subprocess.PIPE if stdin else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT if merge else asyncio.subprocess.PIPE)
    try:
        return await asyncio.wait_for(_collect(proc, stdin, cap), timeout_s)
    except TimeoutError:
        _kill(proc.pid)
        await proc.wait()
        return Ran("", "", None, timed_out=True)
    except asyncio.CancelledError:
        _kill(proc.pid)
        raise


async def _collect(proc: asyncio.subprocess.Process, stdin: str, cap: int) -> Ran:
    async def feed() -> None:
        if proc.stdin is None:
            return
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            proc.stdin.write(stdin.encode("utf-8"))
            await proc.stdin.drain()
        proc.stdin.close()

    async def read(stream: asyncio.StreamReader | None) -> tuple[bytes, bool]:
        if stream is None:
            return b"", False
        data = bytearray()
        while chunk := await stream.read(65536):
            data += chunk
            if len(data) > cap:
                _kill(proc.pid)
                return bytes(data[:cap]), True
        return bytes(data), False

    _, (out, over), (err, over_err) = await asyncio.gather(feed(), read(proc.stdout),
                                                          read(proc.stderr))
    code = await proc.wait()
    return Ran(out.decode("utf-8", errors="replace"), err.decode("utf-8", errors="replace"),
               code, overflowed=over or over_err)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
