"""Commands planned by a (scripted) model run sandboxed: through both engines, through Stop,
and through ``main_qt.py --headless --yes`` as a person runs it."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.engine.build import create_engine
from core.events import Event, Notice, TaskFinished
from core.llm.scripted import ScriptedModel
from tests.support.proc_tree import (alive, holding, require_sandbox, token, wait_dead,
                                     wait_for_sleepers)
from tests.support.script import analysis, of, phases, plan, settings, summary, task

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def escape() -> Iterator[Path]:
    """A file in the real /tmp that a command tries to create (removed afterwards)."""
    path = Path("/tmp") / f"phasedesk-escape-{uuid.uuid4().hex}.txt"
    yield path
    path.unlink(missing_ok=True)


@pytest.fixture(params=["under-tmp", "outside-tmp"])
def workspace(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path]:
    """A workspace under /tmp (where ``../`` is the sandbox's private /tmp) or outside it
    (where ``../`` is read-only)."""
    base = tmp_path if request.param == "under-tmp" else \
        Path("/var/tmp") / f"phasedesk-sandbox-{uuid.uuid4().hex}"
    base.mkdir(exist_ok=True)
    (base / "ws").mkdir()
    yield base / "ws"
    if base != tmp_path:
        shutil.rmtree(base, ignore_errors=True)


def commands(escape: Path) -> list[str]:
    return [f"echo escaped > ../x.txt; echo escaped > {escape}", "echo inside > inside.txt"]


def phase_script(escape: Path) -> list[dict[str, Any]]:
    outside, inside = commands(escape)
    return [analysis("Write two files", complexity="complex"), phases((1, "Write", [])),
            # the one-shot draft, asked first in a request to change files, gives no file:
            # round 1 is planned, and the plan runs the commands
            {"text": "The files are written by running commands."},
            plan(task(1, "run_command", command=outside), task(2, "run_command", command=inside)),
            # both commands succeed and inside.txt changed: the engine decides the round
            summary("## Written\n\nThe files were written.")]


def classic_script(escape: Path) -> list[dict[str, Any]]:
    outside, inside = commands(escape)
    return [analysis("Write two files"),  # the classic loop reads the request first
            {"tool_calls": [{"tool": "run_command", "arguments": {"command": outside}},
                            {"tool": "run_command", "arguments": {"command": inside}}]},
            {"text": "Both commands ran."}, summary("## Ran\n\nBoth commands ran.")]


async def run_engine(script: Any, workspace: Path, **values: Any) -> list[Event]:
    engine = create_engine(settings(**values), workspace, model=ScriptedModel(script))
    return [event async for event in engine.run("write the files")]


def assert_confined(workspace: Path, escape: Path) -> None:
    assert not (workspace.parent / "x.txt").exists()
    assert not escape.exists()
    assert (workspace / "inside.txt").read_text(encoding="utf-8") == "inside\n"


@pytest.mark.parametrize("engine", ["phase", "classic"])
def test_a_planned_command_cannot_write_outside_while_one_inside_succeeds(
        engine: str, workspace: Path, escape: Path) -> None:
    require_sandbox()
    script = phase_script(escape) if engine == "phase" else classic_script(escape)
    events = asyncio.run(run_engine(script, workspace, use_phase_task=engine == "phase"))
    finished = of(events, "task_finished")
    assert [(e.tool, e.sandbox) for e in finished] == [("run_command", "sandboxed")] * 2
    assert finished[1].status == "done"
    assert_confined(workspace, escape)
    assert not of(events, "notice")
    if engine == "phase":
        assert [j.by_engine for j in of(events, "judged")] == [True]


def test_without_bwrap_a_run_falls_back_with_one_visible_notice(
        tmp_path: Path, escape: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "sh").symlink_to("/bin/sh")
    monkeypatch.setenv("PATH", str(folder))
    workspace = tmp_path / "ws"
    workspace.mkdir()
    events = asyncio.run(run_engine(phase_script(escape), workspace))
    [notice] = of(events, "notice")
    assert isinstance(notice, Notice) and notice.level == "warning"
    assert "Commands run without a sandbox: bwrap was not found" in notice.message
    finished = [e for e in events if isinstance(e, TaskFinished)]
    assert events.index(notice) < events.index(finished[0])
    assert [e.sandbox for e in finished] == ["unsandboxed"] * 2
    assert (tmp_path / "x.txt").read_text(encoding="utf-8") == "escaped\n"  # it really was not
    assert escape.read_text(encoding="utf-8") == "escaped\n"


def test_stop_ends_a_sandboxed_command_tree(tmp_path: Path) -> None:
    require_sandbox()
    mark = token()
    script = [analysis("Wait", complexity="complex"), phases((1, "Wait", [])),
              {"text": "The command waits."},  # the one-shot draft answers in words
              plan(task(1, "run_command", command=f"sh -c 'sleep {mark} & wait' & wait",
                        timeout_s=600)),
              summary("## Stopped\n\nThe command was stopped.")]
    workspace = tmp_path / "ws"
    workspace.mkdir()

    async def scenario() -> tuple[list[Event], list[int]]:
        engine = create_engine(settings(), workspace, model=ScriptedModel(script))
        events: list[Event] = []
        pids: list[int] = []
        async for event in engine.run("wait"):
            events.append(event)
            if event.kind == "task_started":
                pids = await asyncio.to_thread(wait_for_sleepers, mark, 1)
                engine.cancel()
        return events, pids

    events, pids = asyncio.run(scenario())
    assert len(pids) >= 4  # bwrap, its pid 1, the shells and the sleep
    wait_dead(pids, 2.0)
    assert holding(mark) == [] and not any(alive(pid) for pid in pids)
    [finished] = of(events, "task_finished")
    assert finished.status == "failed" and finished.error == "cancelled: the run was stopped"
    assert events[-1].status == "cancelled"


def headless(home: Path, workspace: Path, script: Path, *flags: str
             ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PHASEDESK_HOME": str(home)}
    return subprocess.run([sys.executable, str(ROOT / "main_qt.py"), "--headless", "--yes",
                           "--workspace", str(workspace), "--model-script", str(script),
                           *flags, "write the files"],
                          env=env, capture_output=True, text=True, timeout=120)


def test_headless_yes_leaves_the_parent_and_tmp_untouched(workspace: Path, escape: Path,
                                                          isolated_home: Path) -> None:
    """Done when: a plan whose command writes to ../ and /tmp leaves both untouched while
    the same run's command writing inside the workspace succeeds. With the sandbox off the
    same run does write both, so this test can tell the difference. Nothing checks
    inside.txt, so each run ends 'unverified' (exit code 3)."""
    require_sandbox()
    script = workspace.parent / "script.json"
    script.write_text(json.dumps({"replies": phase_script(escape)}),
                      encoding="utf-8")
    done = headless(isolated_home, workspace, script)
    assert done.returncode == 3, done.stderr
    assert_confined(workspace, escape)
    assert done.stdout.count("· sandboxed") == 2, done.stdout
    (workspace / "inside.txt").unlink()
    off = headless(isolated_home, workspace, script, "--command-sandbox", "off")
    assert off.returncode == 3, off.stderr
    assert off.stdout.count("· not sandboxed") == 2, off.stdout
    assert (workspace.parent / "x.txt").read_text(encoding="utf-8") == "escaped\n"
    assert escape.read_text(encoding="utf-8") == "escaped\n"
