"""The matrix's extra cells: hostile plans, odd requests, and a world that changes mid-run.

Each scenario runs one request through the real client against the fake server and
returns the ``CellResult``; ``tests/faults/test_fault_extras.py`` says what must hold.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from tests.faults.cells import (Cell, CellResult, classic_replies, make_workspace, phase_replies,
                                run_scenario)
from tests.support.fake_openai import refused_url
from tests.support.script import judge, phases, plan, task

Scenario = Callable[[Path], CellResult]
BIG_REQUEST = ("Please read the README and report every word of it. " * 2000)[:100_000]
NOTES = "notes written by the agent\n"
EDIT = {"path": "README.md", "old_text": "# hello", "new_text": "# hello, edited"}
QUIET = {"think_stage": "never"}


def _phase(**overrides: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    return {**phase_replies(), **overrides}


def nine_tasks(ws: Path) -> CellResult:
    nine = plan(*[task(i, "list_files") for i in range(1, 10)])
    return run_scenario(Cell("phase", "plan_tool_call", "nine_tasks"),
                        _phase(plan_tool_call=[nine, nine, plan(task(1, "read_file",
                                                                     path="README.md"))]),
                        make_workspace(ws), values=QUIET)


def task_cycle(ws: Path) -> CellResult:
    cyclic = plan(task(1, "list_files", [2], pattern="*.py"),
                  task(2, "list_files", [1], pattern="*.md"),
                  task(3, "read_file", path="README.md"))
    return run_scenario(Cell("phase", "plan_tool_call", "task_cycle"),
                        _phase(plan_tool_call=[cyclic], judge_tasks=[judge([3], [1, 2])]),
                        make_workspace(ws), values=QUIET)


def phase_cycle(ws: Path) -> CellResult:
    return run_scenario(Cell("phase", "phase_planner", "phase_cycle"),
                        _phase(phase_planner=[phases((1, "A", [2]), (2, "B", [1]))]),
                        make_workspace(ws), values=QUIET)


def duplicate_task_ids(ws: Path) -> CellResult:
    dup = plan(task(1, "list_files"), task(1, "read_file", path="README.md"))
    return run_scenario(Cell("phase", "plan_tool_call", "duplicate_task_ids"),
                        _phase(plan_tool_call=[dup, plan(task(1, "read_file",
                                                              path="README.md"))]),
                        make_workspace(ws), values=QUIET)


def huge_rounds(ws: Path) -> CellResult:
    planned = phases((1, "Read", [], 10**15))
    planned["arguments"]["total_estimated_rounds"] = 10**15
    return run_scenario(Cell("phase", "phase_planner", "rounds_1e15"),
                        _phase(phase_planner=[planned]), make_workspace(ws), values=QUIET)


def big_request(engine: str) -> Scenario:
    def scenario(ws: Path) -> CellResult:
        cell = Cell(engine, "request", "request_100kb")
        return run_scenario(cell, _replies(engine), make_workspace(ws), request=BIG_REQUEST,
                            values=_values(engine))
    return scenario


def empty_request(engine: str) -> Scenario:
    def scenario(ws: Path) -> CellResult:
        return run_scenario(Cell(engine, "request", "empty_request"), _replies(engine),
                            make_workspace(ws), request="  \n\t ", values=_values(engine))
    return scenario


def workspace_deleted(engine: str) -> Scenario:
    """The folder disappears while the model thinks about the first round's results."""
    def scenario(ws: Path) -> CellResult:
        make_workspace(ws)

        def delete(stage: str, nth: int) -> None:
            if (stage, nth) in (("judge_tasks", 1), ("auto", 2)):
                shutil.rmtree(ws)

        return run_scenario(Cell(engine, "execute", "workspace_deleted"), _writes(engine),
                            ws, values=_values(engine), on_request=delete)
    return scenario


def disk_full(engine: str) -> Scenario:
    """Every write into the workspace fails as on a full disk."""
    def scenario(ws: Path) -> CellResult:
        make_workspace(ws)
        with no_space_left(ws):
            return run_scenario(Cell(engine, "execute", "disk_full"), _writes(engine), ws,
                                values=_values(engine))
    return scenario


def endpoint_down(engine: str) -> Scenario:
    def scenario(ws: Path) -> CellResult:
        return run_scenario(Cell(engine, "all", "endpoint_down"), _replies(engine),
                            make_workspace(ws), values=_values(engine),
                            base_url=refused_url())
    return scenario


@contextlib.contextmanager
def no_space_left(folder: Path) -> Iterator[None]:
    """``os.fsync`` of any file under ``folder`` fails with ENOSPC, as on a full disk."""
    real = os.fsync
    root = os.path.realpath(folder)

    def fsync(fd: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}").startswith(root + os.sep):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    with mock.patch.object(os, "fsync", fsync):
        yield


def _replies(engine: str) -> dict[str, list[dict[str, Any]]]:
    return phase_replies() if engine == "phase" else classic_replies()


def _values(engine: str) -> dict[str, Any]:
    return dict(QUIET) if engine == "phase" else {"use_phase_task": False}


def _writes(engine: str) -> dict[str, list[dict[str, Any]]]:
    """Read the README, then write NOTES.md and edit the README."""
    write = {"path": "NOTES.md", "content": NOTES}
    if engine == "classic":
        return {**classic_replies(), "auto": [
            {"tool_calls": [{"tool": "read_file", "arguments": {"path": "README.md"}}]},
            {"tool_calls": [{"tool": "write_file", "arguments": write},
                            {"tool": "edit_file", "arguments": EDIT}]},
            {"text": "I could not write the notes."}]}
    return _phase(plan_tool_call=[plan(task(1, "read_file", path="README.md")),
                                  plan(task(1, "write_file", **write),
                                       task(2, "edit_file", **EDIT))],
                  judge_tasks=[judge([1], completed=False, action="continue_phase"),
                               judge([], [1, 2], completed=False, action="end_phase",
                                     reason="the writes failed")])


EXTRAS: dict[str, Scenario] = {
    "phase-nine_tasks": nine_tasks,
    "phase-task_cycle": task_cycle,
    "phase-phase_cycle": phase_cycle,
    "phase-duplicate_task_ids": duplicate_task_ids,
    "phase-rounds_1e15": huge_rounds,
    **{f"{e}-request_100kb": big_request(e) for e in ("phase", "classic")},
    **{f"{e}-empty_request": empty_request(e) for e in ("phase", "classic")},
    **{f"{e}-workspace_deleted": workspace_deleted(e) for e in ("phase", "classic")},
    **{f"{e}-disk_full": disk_full(e) for e in ("phase", "classic")},
    **{f"{e}-endpoint_down": endpoint_down(e) for e in ("phase", "classic")},
}
