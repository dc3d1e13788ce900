"""run_command with real subprocesses: exit codes, caps, timeouts and cancellation."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tool_harness import Harness

from core.events import FileChanged
from core.tools import shell
from core.tools.base import ToolResult
from tests.support.proc_tree import (alive, holding, require_sandbox, token, wait_dead,
                                     wait_for_sleepers)

MODES = ["auto", "off"]


def tree(mark: str) -> str:
    """A shell whose child shell runs ``sleep MARK`` in the background and waits for it."""
    return f"sh -c 'sleep {mark} & wait' & wait"


def stubborn(mark: str) -> str:
    """The same tree, with the child shell and its sleep ignoring SIGTERM."""
    return f"sh -c \"trap '' TERM; sleep {mark} & wait\" & wait"


def sandbox_mode(harness: Harness, mode: str) -> None:
    """Run the harness's commands sandboxed ("auto", failing where it cannot) or not."""
    if mode == "auto":
        require_sandbox()
    harness.run.command_sandbox = mode


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


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [tree, stubborn], ids=["tree", "ignores-sigterm"])
def test_cancel_kills_the_whole_tree_within_2_s(harness: Harness, shape: Callable[[str], str],
                                                mode: str) -> None:
    """Repeated, because a cancel can also land while asyncio is still starting the shell."""
    sandbox_mode(harness, mode)

    async def scenario() -> tuple[float, list[int], str]:
        mark = token()
        task = asyncio.create_task(harness.registry.execute(
            "run_command", {"command": shape(mark)}, harness.ctx()))
        pids = await asyncio.to_thread(wait_for_sleepers, mark, 1)
        assert len(pids) >= 3 and all(alive(pid) for pid in pids)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - started, pids, mark

    for _ in range(4):
        returned_after, pids, mark = asyncio.run(scenario())
        assert returned_after < 2.0
        assert not any(alive(pid) for pid in pids), "cancel returned before the tree died"
        assert holding(mark) == []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [tree, stubborn], ids=["tree", "ignores-sigterm"])
def test_timeout_kills_the_whole_tree(harness: Harness, shape: Callable[[str], str],
                                      mode: str) -> None:
    sandbox_mode(harness, mode)
    mark = token()

    async def scenario() -> tuple[ToolResult, list[int]]:
        task = asyncio.create_task(harness.registry.execute(
            "run_command", {"command": shape(mark), "timeout_s": 1}, harness.ctx()))
        pids = await asyncio.to_thread(wait_for_sleepers, mark, 1)
        return await task, pids

    started = time.monotonic()
    result, pids = asyncio.run(scenario())
    elapsed = time.monotonic() - started
    assert not result.ok
    assert result.error == ("timed out after 1 s; the command and its child processes were "
                            "stopped")
    assert "[timed out," in result.output
    assert elapsed < 1 + 2.0
    assert not any(alive(pid) for pid in pids) and holding(mark) == []


@pytest.mark.parametrize("mode", MODES)
def test_background_children_do_not_outlive_the_command(harness: Harness, mode: str) -> None:
    sandbox_mode(harness, mode)
    mark = token()

    async def scenario() -> tuple[ToolResult, list[int]]:
        task = asyncio.create_task(harness.registry.execute(
            "run_command", {"command": f"sleep {mark} & sleep 1; echo started"},
            harness.ctx()))
        pids = await asyncio.to_thread(wait_for_sleepers, mark, 1)
        return await task, pids

    started = time.monotonic()
    result, pids = asyncio.run(scenario())
    assert result.ok and "started" in result.output
    assert time.monotonic() - started < 1 + 2.0
    wait_dead(pids, 0.5)
    assert holding(mark) == []


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


def test_files_a_command_changes_are_reported_like_writes(harness: Harness) -> None:
    from core.tools.watched import WatchedTools

    (harness.workspace / "keep.txt").write_text("same")
    (harness.workspace / "old.txt").write_text("old")
    watched = WatchedTools(harness.registry)
    result = asyncio.run(watched.execute(
        "run_command", {"command": "echo token > token.txt; echo x >> keep.txt; rm old.txt"},
        harness.ctx()))
    assert result.ok
    changes = [(e.path, e.change, e.source) for e in harness.events
               if isinstance(e, FileChanged)]
    assert changes == [("keep.txt", "modified", "command"), ("token.txt", "created", "command"),
                       ("old.txt", "deleted", "command")]
    harness.events.clear()
    asyncio.run(watched.execute("run_command", {"command": "cat keep.txt"}, harness.ctx()))
    assert not any(isinstance(e, FileChanged) for e in harness.events)


def test_caches_a_test_command_leaves_are_not_changes(harness: Harness) -> None:
    from core.tools.watched import WatchedTools

    watched = WatchedTools(harness.registry)
    result = asyncio.run(watched.execute("run_command", {"command": (
        "mkdir -p .pytest_cache/v __pycache__ .mypy_cache && echo 1 > .pytest_cache/v/ids && "
        "echo 2 > __pycache__/m.pyc && echo 3 > .mypy_cache/x && echo 4 > made.txt")},
        harness.ctx()))
    assert result.ok and (harness.workspace / ".pytest_cache" / "v" / "ids").exists()
    assert [e.path for e in harness.events if isinstance(e, FileChanged)] == ["made.txt"]
