"""The packaged executable: ``build.spec`` builds it (reused while its inputs are unchanged),
and the frozen app runs a scripted request in its window (offscreen) and in the terminal,
shows the summary, changes the workspace as the script says, and loads the bundled model."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.packaging.bundle import EXECUTABLE, bundle_problems, ensure_bundle

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "three-phase-demo.json"
REQUEST = "Switch the demo service to port 8080"


@pytest.fixture(scope="module")
def frozen_app() -> Path:
    return ensure_bundle()


@pytest.fixture
def demo_workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "demo-workspace"
    shutil.copytree(ROOT / "examples" / "demo-workspace", folder)
    return folder


def frozen_env(home: Path) -> dict[str, str]:
    env = {**os.environ, "PHASEDESK_HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
           "QTWEBENGINE_DISABLE_SANDBOX": "1"}
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "PHASEDESK_GGUF", "OPENAI_BASE_URL",
                 "OPENAI_API_KEY"):
        env.pop(name, None)
    return env


def run_frozen(args: list[str], home: Path,
               timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXECUTABLE), *args], cwd=home.parent, env=frozen_env(home),
                          check=False, capture_output=True, text=True, timeout=timeout)


def assert_changed_as_scripted(workspace: Path) -> None:
    config = (workspace / "config.py").read_text(encoding="utf-8")
    assert "PORT = 8080" in config and "DEBUG = False" in config, config
    assert "PORT = 8000" not in config and "DEBUG = True" not in config, config
    readme = (workspace / "README.md").read_text(encoding="utf-8")
    assert "A tiny service (port 8080, debug off)" in readme, readme


def test_the_bundle_holds_what_the_app_loads_and_no_qml(frozen_app: Path) -> None:
    assert bundle_problems(frozen_app.parent) == []


def test_frozen_window_runs_a_scripted_request_and_shows_the_summary(
        frozen_app: Path, demo_workspace: Path, tmp_path: Path) -> None:
    shot = tmp_path / "frozen-smoke.png"
    result = run_frozen(["--model-script", str(DEMO), "--run", REQUEST, "--workspace",
                         str(demo_workspace), "--exit-after-run", "--screenshot", str(shot)],
                        tmp_path / "home")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "summary shown, run completed" in result.stdout, result.stdout[-2000:]
    image = QImage(str(shot))
    assert not image.isNull() and image.width() >= 800 and image.height() >= 600
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 20)
               for y in range(0, image.height(), 20)}
    assert len(colours) > 20, "the screenshot is blank: the page was not painted"
    assert_changed_as_scripted(demo_workspace)


def test_frozen_headless_run_prints_the_summary(frozen_app: Path, demo_workspace: Path,
                                                tmp_path: Path) -> None:
    result = run_frozen(["--headless", "--workspace", str(demo_workspace), "--model-script",
                         str(DEMO), REQUEST], tmp_path / "home")
    assert result.returncode in (0, 3), result.stderr[-3000:]  # succeeded, or not verified
    assert "📝 Summary (by the model) · " in result.stdout, result.stdout[-3000:]
    assert "Demo service reconfigured" in result.stdout
    last = result.stdout.splitlines()[-1]
    assert last.startswith(("■ ✓ Succeeded · not verified · ", "■ ○ Done · not verified · ")), last
    assert_changed_as_scripted(demo_workspace)


@pytest.fixture
def embedded_run(frozen_app: Path, demo_workspace: Path,
                 tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    stderr = tmp_path / "stderr.txt"
    with stderr.open("w", encoding="utf-8") as errors:
        process = subprocess.Popen(
            [str(frozen_app), "--headless", "--jsonl", "--provider", "embedded", "--workspace",
             str(demo_workspace), "List the files in the workspace."],
            cwd=tmp_path, env=frozen_env(tmp_path / "home"), stdout=subprocess.PIPE,
            stderr=errors, text=True)
    yield process, stderr
    if process.poll() is None:
        process.kill()
    process.wait(timeout=30)
    assert process.stdout is not None
    process.stdout.close()


@pytest.mark.timeout(900)
def test_frozen_app_answers_with_the_bundled_model(
        embedded_run: tuple[subprocess.Popen[str], Path]) -> None:
    """The first model call of a real run on the bundled gguf succeeds; the run is then
    stopped (a whole run on the offline model is the embedded integration test's job)."""
    process, stderr = embedded_run
    assert process.stdout is not None
    events = []
    for line in process.stdout:
        events.append(json.loads(line))
        if events[-1]["kind"] in ("llm_call", "run_finished"):
            break
    assert events, f"no events; stderr: {stderr.read_text(encoding='utf-8')[-3000:]}"
    started, call = events[0], events[-1]
    assert started["kind"] == "run_started" and started["provider"] == "embedded"
    assert call["kind"] == "llm_call", events
    assert call["ok"] is True, call["error"]
    assert call["prompt_tokens"] > 0 and call["completion_tokens"] > 0
