"""The terminal's words as a person reads them: plurals, Markdown as terminal text, the
nearest flag for a mistyped one, an empty RUN_ID, and ``--list-runs`` newest first with a
mark on runs whose changes were undone. Real processes, a real history."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "three-phase-demo.json"
REQUEST = "Please switch the demo to port 8080, turn debug off and note it in the README"


def main_qt(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PHASEDESK_HOME": str(home)}
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.run([sys.executable, str(ROOT / "main_qt.py"), *args], env=env,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def demo_run(home: Path, folder: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    shutil.copytree(ROOT / "examples" / "demo-workspace", folder)
    return main_qt(home, "--headless", "--workspace", str(folder), "--model-script", str(DEMO),
                   REQUEST), folder


def test_a_run_prints_plurals_and_its_summary_as_terminal_text(tmp_path: Path,
                                                                isolated_home: Path) -> None:
    done, _ = demo_run(isolated_home, tmp_path / "ws")
    out = done.stdout
    assert "(s)" not in out and "1 LLM calls" not in out
    assert "about 3 phases" in out and re.search(r"· retry: 1 task$", out, re.M), out
    assert re.search(r"^  Round 1 \(at most \d+\) · plan: 3 tasks$", out, re.M), out
    assert "· P3" in out and " p5" not in out  # the page's priority levels
    summary = out[out.index("📝 Summary"):].splitlines()
    # the summary's Markdown as terminal text: no heading marks, asterisks or backticks
    assert summary[1:4] == ["Demo service reconfigured", "- config.py: PORT 8080, DEBUG False",
                            "- README.md documents the port"]
    assert "    PORT = 8080" in summary
    assert not any(mark in line for line in summary for mark in ("**", "##", "```"))


def test_a_mistyped_flag_gets_the_nearest_one(tmp_path: Path, isolated_home: Path) -> None:
    window = main_qt(isolated_home, "--headles", "--workspace", str(tmp_path), "hi")
    assert window.returncode == 2
    assert "unknown flag --headles (did you mean --headless?)" in window.stderr
    terminal = main_qt(isolated_home, "--headless", "--worksapce", str(tmp_path), "hi")
    assert terminal.returncode == 2
    assert "unknown flag --worksapce (did you mean --workspace?)" in terminal.stderr
    far = main_qt(isolated_home, "--headless", "--zzzzzz")
    assert far.returncode == 2 and "unknown flag --zzzzzz (see main_qt.py --help)" in far.stderr
    assert not (isolated_home / "data" / "history.sqlite3").exists()


def test_an_empty_run_id_names_its_flag(isolated_home: Path) -> None:
    for flag in ("--export", "--undo"):
        done = main_qt(isolated_home, flag, "")
        assert done.returncode == 2, done.stderr
        error = done.stderr.splitlines()[-1]
        assert error.startswith(f"main_qt.py: error: {flag} needs a RUN_ID"), done.stderr


def test_list_runs_is_newest_first_and_marks_undone_runs(tmp_path: Path,
                                                         isolated_home: Path) -> None:
    first, first_ws = demo_run(isolated_home, tmp_path / "a")
    second, _ = demo_run(isolated_home, tmp_path / "b")
    first_id = re.search(r"^▶ run ([0-9a-f]{8}) ", first.stdout, re.M)
    second_id = re.search(r"^▶ run ([0-9a-f]{8}) ", second.stdout, re.M)
    assert first_id and second_id, first.stdout + first.stderr
    undone = main_qt(isolated_home, "--undo", first_id[1])
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert (first_ws / "config.py").read_text() == (
        ROOT / "examples" / "demo-workspace" / "config.py").read_text()
    listed = main_qt(isolated_home, "--list-runs").stdout.splitlines()
    assert listed[0].split()[:5] == ["run", "id", "outcome", "changes", "started"]
    rows = [line.split() for line in listed[1:]]
    assert [row[0][:8] for row in rows] == [second_id[1], first_id[1]]  # newest first
    assert rows[1][2] == "undone" and rows[0][2] != "undone"
    assert rows[0][1] == rows[1][1] and rows[0][1] in ("succeeded", "unverified")


def test_each_error_names_the_flag_at_fault(tmp_path: Path, isolated_home: Path) -> None:
    for args, error in (
            (["--max-iterations", "0"], "--max-iterations: must be at least 1"),
            (["--model-script", str(tmp_path / "none.json")], "--model-script: "),
            (["--workspace", str(tmp_path / "gone")], "--workspace: not a folder: ")):
        done = main_qt(isolated_home, "--headless", "--workspace", str(tmp_path), *args, "hi")
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines()[-1].startswith(f"main_qt.py: error: {error}"), done.stderr
