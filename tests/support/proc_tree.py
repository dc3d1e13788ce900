"""A command's processes seen from outside its sandbox, and the sandbox the tests require.

Inside the sandbox a command has a pid namespace of its own, so the pids it could print
(``$$``, ``$!``) mean nothing out here. Each test command carries a token instead, a ``sleep``
duration no other process on the machine uses; the processes whose command line holds the
token are the command's tree (bwrap, the shells, the sleeps), found through this /proc.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from core.tools.sandbox import availability


def token() -> str:
    """A ``sleep`` duration of about 300 s that no other test process is using."""
    return f"300.{random.SystemRandom().randrange(10 ** 6):06d}"


def _argv(pid: str) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return raw.decode("utf-8", errors="replace").split("\0")


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def holding(mark: str) -> list[int]:
    """Live processes with ``mark`` in their command line."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and any(mark in arg for arg in _argv(entry.name)) \
                and alive(int(entry.name)):
            found.append(int(entry.name))
    return sorted(found)


def sleeping(mark: str) -> list[int]:
    """Live ``sleep MARK`` processes."""
    return [pid for pid in holding(mark) if _argv(str(pid))[:2] == ["sleep", mark]]


def wait_for_sleepers(mark: str, count: int, limit_s: float = 10.0) -> list[int]:
    """Wait until ``count`` ``sleep MARK`` processes run; then the whole tree holding ``mark``."""
    deadline = time.monotonic() + limit_s
    while len(sleeping(mark)) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"the command never started its {count} sleep(s) {mark}")
        time.sleep(0.01)
    return holding(mark)


def wait_dead(pids: list[int], limit_s: float) -> float:
    """Seconds until every pid is gone; fails naming the survivors after ``limit_s``."""
    started = time.monotonic()
    while any(alive(pid) for pid in pids):
        if time.monotonic() - started > limit_s:
            raise AssertionError(f"still alive after {limit_s} s: "
                                 f"{[pid for pid in pids if alive(pid)]}")
        time.sleep(0.01)
    return time.monotonic() - started


def require_sandbox() -> None:
    """Fail (never skip) when this machine cannot sandbox commands: CI installs bubblewrap
    through scripts/setup.sh, so a missing one is a broken setup, not a reason to pass."""
    found = availability()
    if not found.active:
        pytest.fail(f"these tests need the command sandbox, and it is not available: "
                    f"{found.reason}. scripts/setup.sh installs bubblewrap "
                    f"(apt-get install bubblewrap).", pytrace=False)
