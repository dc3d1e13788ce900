"""Real MCP servers for tests (started as subprocesses) and checks that they are gone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from core.events import Event
from core.shapes.mcp_server import McpServer

PY = sys.executable
ROOT = Path(__file__).resolve().parents[2]


def time_server(name: str = "time", approval: str = "auto") -> McpServer:
    return McpServer(name, PY, ("-m", "mcp_server_time", "--local-timezone", "UTC"),
                     approval=approval)


def git_server(repository: Path, name: str = "git") -> McpServer:
    return McpServer(name, PY, ("-m", "mcp_server_git", "--repository", str(repository)),
                     approval="auto")


def faulty_server(mode: str, name: str = "faulty") -> McpServer:
    """``tests/support/mcp_faulty_server.py`` in ``mode`` (exit, hang, tools)."""
    return McpServer(name, PY, (str(ROOT / "tests" / "support" / "mcp_faulty_server.py"), mode),
                     approval="auto")


def git_repository(folder: Path, messages: list[str]) -> Path:
    """A real repository with one commit per message."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org",
           "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@example.org"}
    subprocess.run(["git", "init", "-q", "-b", "main", str(folder)], check=True, env=env)
    for number, message in enumerate(messages, start=1):
        (folder / f"file{number}.txt").write_text(f"change {number}\n")
        subprocess.run(["git", "-C", str(folder), "add", "-A"], check=True, env=env)
        subprocess.run(["git", "-C", str(folder), "commit", "-q", "-m", message], check=True,
                       env=env)
    return folder


def live_processes(pgid: int) -> list[int]:
    """Pids of the live (not zombie) processes of process group ``pgid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] not in ("Z", "X")


def wait_until_gone(pids: list[int], patience_s: float = 30.0) -> list[int]:
    """Wait (bounded, for the kernel to deliver signals) until none of ``pids`` nor their
    process groups live; returns whatever still lives then."""
    deadline = time.monotonic() + patience_s
    while True:
        left = [p for p in pids if alive(p) or live_processes(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def server_pids(events: list[Event]) -> dict[str, int]:
    """Name → pid of every MCP server a run started."""
    return {e.name: e.pid for e in events if e.kind == "mcp_server" and e.pid}  # type: ignore[attr-defined]


def statuses(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.name, e.status) for e in events if e.kind == "mcp_server"]  # type: ignore[attr-defined]


def of_kind(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]


def guards_of(parent: int) -> list[int]:
    """Live MCP server process groups (their guard shells) that ``parent`` started."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if (b"phasedesk-mcp-guard" in cmdline and int(fields[1]) == parent
                and fields[0] not in ("Z", "X")):
            found.append(int(entry.name))
    return found
