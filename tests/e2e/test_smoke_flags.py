"""The real app in its own process, offscreen: the smoke flags, and a kill in the middle of a run."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from core.store.history import Store
from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import count, js, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.e2e.windowtools import open_conversation

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "three-phase-demo.json"


def launch(args: list[str], home: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PHASEDESK_HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
           "QTWEBENGINE_DISABLE_SANDBOX": "1"}
    env.pop("DISPLAY", None)
    return subprocess.run([sys.executable, str(ROOT / "main_qt.py"), *args], cwd=ROOT, env=env,
                          check=False, capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def demo_workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "demo-workspace"
    shutil.copytree(ROOT / "examples" / "demo-workspace", folder)
    return folder


def test_scripted_run_shows_the_summary_saves_a_screenshot_and_exits_0(
        tmp_path: Path, demo_workspace: Path) -> None:
    home, shot = tmp_path / "home", tmp_path / "shots" / "smoke.png"
    before = (demo_workspace / "config.py").read_text(encoding="utf-8")
    result = launch(["--model-script", str(DEMO), "--run", "Switch the demo to port 8080",
                     "--workspace", str(demo_workspace), "--exit-after-run",
                     "--screenshot", str(shot)], home)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "summary shown, run completed" in result.stdout
    image = QImage(str(shot))
    assert not image.isNull() and image.width() >= 800 and image.height() >= 600
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 40)
               for y in range(0, image.height(), 40)}
    assert len(colours) > 10  # the page was painted, not a blank frame
    after = (demo_workspace / "config.py").read_text(encoding="utf-8")
    assert after != before and "8080" in after
    with sqlite3.connect(home / "data" / "history.sqlite3") as db:
        rows = db.execute("SELECT status, provider, model FROM runs").fetchall()
    assert rows == [("completed", "scripted", DEMO.name)]
    assert not (home / "config" / "settings.json").exists()  # --workspace is not saved


def test_no_summary_within_the_timeout_exits_1_with_a_reason(tmp_path: Path,
                                                             demo_workspace: Path) -> None:
    script = json.loads(DEMO.read_text(encoding="utf-8"))
    script["replies"][0]["delay_s"] = 60
    slow = tmp_path / "slow.json"
    slow.write_text(json.dumps(script), encoding="utf-8")
    result = launch(["--model-script", str(slow), "--run", "go", "--workspace",
                     str(demo_workspace), "--exit-after-run", "--timeout", "3"], tmp_path / "h")
    assert result.returncode == 1
    assert "no summary appeared within 3 s" in result.stderr


@pytest.mark.parametrize("args, message", [
    (["--exit-after-run"], "need --run"),
    (["--run", "go", "--workspace", "/nonexistent/folder"], "not a folder"),
    (["--run", "go", "--model-script", "/nonexistent/script.json"], "cannot read the script"),
])
def test_bad_smoke_flags_are_refused_before_the_window_opens(
        tmp_path: Path, args: list[str], message: str) -> None:
    result = launch(args, tmp_path / "home", timeout=60)
    assert result.returncode == 2
    assert message in result.stderr


def test_a_killed_app_leaves_a_run_that_replays_as_interrupted(
        qtbot: QtBot, make_window: WindowMaker, isolated_home: Path, demo_workspace: Path,
        tmp_path: Path) -> None:
    script = json.loads(DEMO.read_text(encoding="utf-8"))
    script["replies"][6]["delay_s"] = 120  # the second judge never answers in time
    slow = tmp_path / "slow.json"
    slow.write_text(json.dumps(script), encoding="utf-8")
    env = {**os.environ, "PHASEDESK_HOME": str(isolated_home), "QT_QPA_PLATFORM": "offscreen",
           "QTWEBENGINE_DISABLE_SANDBOX": "1"}
    app = subprocess.Popen([sys.executable, str(ROOT / "main_qt.py"), "--model-script",
                            str(slow), "--run", "Switch the demo to port 8080", "--workspace",
                            str(demo_workspace)], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    database = isolated_home / "data" / "history.sqlite3"

    def finished_tasks() -> int:
        if not database.exists():
            return 0
        with contextlib.closing(sqlite3.connect(database, timeout=5)) as db:
            try:
                return int(db.execute("SELECT COUNT(*) FROM events WHERE kind = 'task_finished'")
                           .fetchone()[0])
            except sqlite3.OperationalError:
                return 0

    try:
        qtbot.waitUntil(lambda: finished_tasks() >= 5, timeout=90000)
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=30)

    window = make_window(ScriptedFactory())
    assert window.sidebar.conversations.count() == 1
    open_conversation(qtbot, window, 0)
    wait_js(qtbot, window, "document.querySelector('.run-footer') !== null")
    assert texts(qtbot, window, ".run-footer .run-ending") == ["interrupted"]
    assert "running" not in texts(qtbot, window, ".phase-title .badge")
    assert count(qtbot, window, ".interrupted-note") == 1
    statuses = js(qtbot, window, "Array.from(document.querySelectorAll('.task'))"
                                 ".map(t => t.dataset.status)")
    assert statuses.count("done") >= 4 and count(qtbot, window, ".judge") == 1
    assert count(qtbot, window, ".message-summarizer") == 0
    with Store() as store:
        [run] = store.runs(window.sidebar.conversations.conversation_ids()[0])
        assert run["status"] == "interrupted"


NOISE = ("vulkan", "Vulkan", "dbus", "bus.cc", "Sandboxing", "QRhi", "GBM", "propagateSizeHints")


def test_the_window_starts_quietly_unless_verbose(tmp_path: Path) -> None:
    """Qt's and Chromium's diagnostic lines stay out of the terminal; --verbose lets them
    (and the app's own log) through."""
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "examples" / "demo-workspace", ws)
    args = ["--workspace", str(ws), "--model-script", str(DEMO), "--run",
            "Switch the demo to port 8080", "--exit-after-run"]
    quiet = launch(args, tmp_path / "quiet")
    assert quiet.returncode == 0, quiet.stderr
    assert not [line for line in quiet.stderr.splitlines() if any(n in line for n in NOISE)], \
        quiet.stderr
    shutil.rmtree(ws)
    shutil.copytree(ROOT / "examples" / "demo-workspace", ws)
    verbose = launch([*args, "--verbose"], tmp_path / "verbose")
    assert verbose.returncode == 0, verbose.stderr
    assert " INFO qt: " in verbose.stderr and " INFO " in verbose.stderr
