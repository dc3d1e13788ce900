"""run_command with real subprocesses: exit codes, caps, timeouts and cancellation."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tool_harness import Harness

from core.tools import shell

TREE = ("sh -c 'sleep 300 & echo $! > grandchild.pid; wait' & echo $! > child.pid; "
        "echo $$ > shell.pid; wait")
STUBBORN = ("sh -c \"trap '' TERM; sleep 300 & echo \\$! > grandchild.pid; wait\" & "
            "echo $! > child.pid; echo $$ > shell.pid; wait")


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _pids(ws: Path) -> list[int]:
    return [int((ws / f"{name}.pid").read_text()) for name in ("shell", "child", "grandchild")]


async def _wait_for_pids(ws: Path) -> list[int]:
    for _ in range(500):
        if all((ws / f"{n}.pid").exists() and (ws / f"{n}.pid").read_text().strip()
               for n in ("shell", "child", "grandchild")):
            return _pids(ws)
        await asyncio.sleep(0.01)
    raise AssertionError("the command never started its children")


def _wait_dead(pids: list[int], limit_s: float) -> float:
    started = time.monotonic()
    while any(_alive(pid) for pid in pids):
        if time.monotonic() - started > limit_s:
            raise AssertionError(f"still alive after {limit_s} s: "
                                 f"{[pid for pid in pids if _alive(pid)]}")
        time.sleep(0.01)
    return time.monotonic() - started


def test_success_merges_stderr_and_runs_in_the_workspace(harness: Harness) -> None:
    result = harness.call("run_command", command="pwd; echo out; echo err >&2")
    assert result.ok, result.error
    lines = result.output.splitlines()
    assert lines[0] == "$ pwd; echo out; echo err >&2"
    assert lines[1:4] == [str(harness.workspace.resolve()), "out", "err"]
    assert lines[4].startswith("[exit code 0, ")
    assert harness.approvals == [("command", "pwd; echo out; echo err >&2")]


def test_non_zero_exit_fails_with_output_and_code(harness: Harness) -> None:
    result = harness.call("run_command", command="echo broken; exit 3")
    assert not result.ok
    assert result.error == "command failed (exit code 3); last output:\nbroken"
    assert "broken\n[exit code 3," in result.output


def test_denied_command_does_not_run(harness: Harness) -> None:
    harness.answer = False
    result = harness.call("run_command", command="touch ran.txt")
    assert not result.ok and result.error == "denied by user"
    assert not (harness.workspace / "ran.txt").exists()


@pytest.mark.parametrize("command", [TREE, STUBBORN], ids=["tree", "ignores-sigterm"])
def test_cancel_kills_the_whole_tree_within_2_s(harness: Harness, command: str) -> None:
    """Repeated, because a cancel can also land while asyncio is still starting the shell."""

    async def scenario() -> tuple[float, list[int]]:
        for name in ("shell", "child", "grandchild"):
            (harness.workspace / f"{name}.pid").unlink(missing_ok=True)
        task = asyncio.create_task(harness.registry.execute(
            "run_command", {"command": command}, harness.ctx()))
        pids = await _wait_for_pids(harness.workspace)
        assert all(_alive(pid) for pid in pids)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - started, pids

    for _ in range(4):
        returned_after, pids = asyncio.run(scenario())
        assert returned_after < 2.0
        assert not any(_alive(pid) for pid in pids), "cancel returned before the tree died"


@pytest.mark.parametrize("command", [TREE, STUBBORN], ids=["tree", "ignores-sigterm"])
def test_timeout_kills_the_whole_tree(harness: Harness, command: str) -> None:
    started = time.monotonic()
    result = harness.call("run_command", command=command, timeout_s=1)
    elapsed = time.monotonic() - started
    assert not result.ok
    assert result.error == ("timed out after 1 s; the command and its child processes were "
                            "stopped")
    assert "[timed out," in result.output
    assert elapsed < 1 + 2.0
    assert not any(_alive(pid) for pid in _pids(harness.workspace))


def test_background_children_do_not_outlive_the_command(harness: Harness) -> None:
    started = time.monotonic()
    result = harness.call("run_command",
                          command="sleep 300 & echo $! > child.pid; echo started")
    assert result.ok and "started" in result.output
    assert time.monotonic() - started < 2.0
    pid = int((harness.workspace / "child.pid").read_text())
    _wait_dead([pid], 0.5)


def test_ten_megabytes_of_output_are_capped(harness: Harness) -> None:
    result = harness.call("run_command",
                          command="echo FIRST; yes 0123456789abcdef | head -c 10000000; "
                                  "echo; echo LAST")
    assert result.ok
    assert len(result.output) < 2 * shell.KEEP + 500
    assert result.output.splitlines()[1] == "FIRST"
    assert "LAST\n[exit code 0," in result.output
    dropped = 10_000_000 + len("FIRST\n\nLAST\n") - 2 * shell.KEEP
    assert f"… [{dropped:,} bytes of output dropped; showing the first and last 48 KiB] …" \
        in result.output


@given(st.binary(max_size=3000), st.lists(st.integers(1, 700), min_size=1, max_size=20),
       st.integers(1, 600))
def test_capture_keeps_head_and_tail_in_bounded_memory(data: bytes, sizes: list[int],
                                                       keep: int) -> None:
    capture = shell.Capture(keep=keep)
    start = 0
    while start < len(data):
        size = sizes[start % len(sizes)]
        capture.add(data[start:start + size])
        start += size
        assert len(capture.head) <= keep and capture.tail_size <= keep
    tail = b"".join(capture.tail)
    assert bytes(capture.head) == data[:keep]
    assert tail == data[keep:][-keep:]
    assert capture.dropped == max(len(data) - 2 * keep, 0)
