"""``scripts/run-app.sh`` on a machine without a screen: one line says so and the next is the
command that runs a request in the terminal; the window still opens inside Xvfb (for smoke
checks); a terminal mode, ``--help`` and ``--version`` start no Xvfb at all.

The script runs as it is, in a copy of the repository's layout whose ``setup.sh``, Python
and ``xvfb-run`` are stand-ins that only record how they were called (the real ones install
packages and start the window, which the other tests cover)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORDER = '#!/usr/bin/env bash\necho "{name} $*" >> "{log}"\n'


@pytest.fixture
def app(tmp_path: Path) -> Path:
    """A checkout holding the real run-app.sh, a recording setup.sh, .venv/bin/python and
    an xvfb-run on PATH that runs what it is given."""
    repo, log = tmp_path / "repo", tmp_path / "calls.log"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "run-app.sh", repo / "scripts" / "run-app.sh")
    stand_ins = {repo / "scripts" / "setup.sh": RECORDER.format(name="setup", log=log),
                 repo / ".venv" / "bin" / "python": RECORDER.format(name="python", log=log),
                 tmp_path / "bin" / "xvfb-run":
                     f'#!/usr/bin/env bash\necho "xvfb-run $*" >> "{log}"\n'
                     'while [[ "$1" == -* ]]; do [[ "$1" == -s ]] && shift; shift; done\n'
                     'exec "$@"\n'}
    for path, text in stand_ins.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        path.chmod(0o755)
    return repo


def run_app(repo: Path, *args: str, screen: bool = False) -> tuple[str, list[str]]:
    env = {**os.environ, "PATH": f"{repo.parent / 'bin'}:{os.environ['PATH']}"}
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    if screen:
        env["DISPLAY"] = ":0"
    done = subprocess.run(["bash", str(repo / "scripts" / "run-app.sh"), *args], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout, (repo.parent / "calls.log").read_text(encoding="utf-8").splitlines()


def test_without_a_screen_it_says_so_and_how_to_run_headless(app: Path) -> None:
    out, calls = run_app(app, "--verbose")
    said, command = out.splitlines()
    assert said.startswith("==> No screen here") and "Xvfb, where nobody sees it" in said
    assert shlex.split(command) == [str(app / ".venv" / "bin" / "python"),
                                    str(app / "main_qt.py"), "--headless", "--workspace",
                                    "/path/to/folder", "your request"]
    assert calls[0] == "setup --model qwen2.5-coder-1.5b"
    assert calls[1].startswith("xvfb-run -a -s -screen 0 ")
    assert calls[2:] == ["python main_qt.py --verbose"]


@pytest.mark.parametrize("args", [["--headless", "--workspace", ".", "hi"], ["--version"],
                                  ["--help"], ["--export=fca1e85b"]])
def test_a_terminal_mode_starts_no_xvfb(app: Path, args: list[str]) -> None:
    out, calls = run_app(app, *args)
    assert out == "" and calls[1:] == [f"python main_qt.py {' '.join(args)}"]


def test_with_a_screen_the_window_opens_on_it(app: Path) -> None:
    out, calls = run_app(app, screen=True)
    assert out == "" and calls[1:] == ["python main_qt.py"]
