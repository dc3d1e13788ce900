"""``main_qt.py``'s command line as a person meets it: a real process each time.

``--version`` and ``--help`` without a display, unknown flags refused in every mode, the
exit codes a run ends with (0 succeeded, 1 failed, 2 usage, 130 stopped), and run ids
given by any unique start of them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from core.cli.exit_codes import run_exit_code
from core.shapes.wording import outcome_chip
from core.store.history import Store
from tests.faults.headless_proc import Headless, command_script
from tests.support.fake_openai import refused_url

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "three-phase-demo.json"
REQUEST = "Please switch the demo to port 8080, turn debug off and note it in the README"
MODES = ("--headless", "--list-runs", "--export", "--undo", "--probe", "--version")


def main_qt(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``main_qt.py ARGS`` with no screen at all: no DISPLAY, no Wayland, no Qt platform."""
    env = {**os.environ, "PHASEDESK_HOME": str(home)}
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "OPENAI_BASE_URL"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-X", "importtime", str(ROOT / "main_qt.py"), *args],
                          env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def errors(done: subprocess.CompletedProcess[str]) -> str:
    """stderr without ``-X importtime``'s lines (which say what the process imported)."""
    return "\n".join(line for line in done.stderr.splitlines()
                     if not line.startswith("import time:"))


def imported_qt(done: subprocess.CompletedProcess[str]) -> bool:
    return re.search(r"^import time:.*\| +PySide6", done.stderr, re.M) is not None


def demo_workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    shutil.copytree(ROOT / "examples" / "demo-workspace", folder)
    return folder


def test_version_prints_without_a_display_or_qt(isolated_home: Path) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    for args in (["--version"], ["--headless", "--version"]):
        done = main_qt(isolated_home, *args)
        assert (done.returncode, done.stdout) == (0, f"PhaseDesk {version}\n"), errors(done)
        assert not imported_qt(done) and errors(done) == ""


def test_help_lists_every_mode_and_the_exit_codes(isolated_home: Path) -> None:
    window, terminal = main_qt(isolated_home, "--help"), main_qt(isolated_home, "--headless",
                                                                 "--help")
    for done in (window, terminal):
        assert done.returncode == 0 and not imported_qt(done)
        modes = done.stdout.split("\nmodes:\n")[1].split("\n\n")[0].splitlines()
        assert len(modes) == 7 and modes[0].split()[1:] == ["[window", "options]", "open",
                                                            "the", "window", "(the", "default)"]
        assert [line.split()[1] for line in modes[1:]] == list(MODES)
        codes = done.stdout.split("\nexit codes:\n")[1]
        assert [line.split()[0] for line in codes.splitlines() if line[2].isdigit()] == [
            "0", "1", "2", "3", "130"]
        assert "accepts 0 and 3" in " ".join(codes.split())
    assert "--run REQUEST" in window.stdout and "--screenshot PNG" in window.stdout
    flat = " ".join(terminal.stdout.split())
    assert "--headless needs" not in flat and "Required for a --headless run" in flat
    assert "--format {json,md} what --export prints" in flat


def test_an_unknown_flag_exits_2_naming_it_in_every_mode(tmp_path: Path,
                                                         isolated_home: Path) -> None:
    for args in (["--bogus"], ["--run", "hi", "--bogus"],
                 ["--headless", "--workspace", str(tmp_path), "--bogus", "hi"],
                 ["--list-runs", "--bogus"], ["--export", "abc", "--bogus"]):
        done = main_qt(isolated_home, *args)
        assert done.returncode == 2, (args, errors(done))
        assert "--bogus" in errors(done) and "Traceback" not in done.stderr
        assert not imported_qt(done), args  # refused before Qt, never handed to it
    window = main_qt(isolated_home, "--jsonl")
    assert window.returncode == 2 and "--jsonl is a terminal mode's flag" in errors(window)
    assert not (isolated_home / "data" / "history.sqlite3").exists()


def test_headless_without_workspace_exits_2_and_runs_nothing(tmp_path: Path,
                                                             isolated_home: Path) -> None:
    done = main_qt(isolated_home, "--headless", "--model-script", str(DEMO), "hi")
    assert done.returncode == 2
    assert "--headless needs --workspace DIR" in errors(done)
    assert not (isolated_home / "data" / "history.sqlite3").exists()
    export = main_qt(isolated_home, "--headless", "--list-runs", "hi")
    assert export.returncode == 2 and "--list-runs takes no request" in errors(export)


def test_a_run_whose_endpoint_is_down_exits_1(tmp_path: Path, isolated_home: Path) -> None:
    done = main_qt(isolated_home, "--headless", "--jsonl", "--workspace", str(tmp_path),
                   "--base-url", refused_url(), "--model", "m", "--max-retries", "0",
                   "List the files.")
    assert done.returncode == 1, errors(done)
    last = json.loads(done.stdout.splitlines()[-1])
    assert last["kind"] == "run_finished" and last["outcome"] == "failed"


def test_a_finished_run_exits_by_its_outcome_and_its_short_id_exports_it(
        tmp_path: Path, isolated_home: Path) -> None:
    done = main_qt(isolated_home, "--headless", "--workspace", str(demo_workspace(tmp_path)),
                   "--model-script", str(DEMO), REQUEST)
    short = re.search(r"^▶ run ([0-9a-f]{8}) ", done.stdout, re.M)
    assert short is not None and "\n📝 Summary (by the model) · " in done.stdout
    exported = main_qt(isolated_home, "--export", short[1], "--format", "json")
    assert exported.returncode == 0, errors(exported)
    run = json.loads(exported.stdout)["run"]
    assert run["id"].startswith(short[1])
    assert done.returncode == run_exit_code(run["status"], run["outcome"]), errors(done)
    chip = outcome_chip(run["outcome"], run["verification"], run["verification_line"])
    assert done.stdout.splitlines()[-1].startswith(f"■ {chip} · 10 LLM calls · ")
    markdown = main_qt(isolated_home, f"--export={short[1].upper()}", "--format", "md")
    emoji = outcome_chip(run["outcome"], run["verification"], run["verification_line"],
                         emoji=True)
    assert markdown.returncode == 0 and f"- **Outcome:** {emoji}\n" in markdown.stdout
    unknown = main_qt(isolated_home, "--export", "ffffffff0")
    assert unknown.returncode == 2
    assert "no recorded run has an id starting with 'ffffffff0'" in errors(unknown)


def test_an_ambiguous_run_id_lists_the_runs_it_matches(isolated_home: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from core.store import history

    ids = iter(["fca1e85b-1111-4000-8000-000000000001", "fca1e85b-2222-4000-8000-000000000002"])
    monkeypatch.setattr(history, "uuid", type("ids", (), {"uuid4": staticmethod(lambda: next(ids))}))
    with Store(isolated_home / "data" / "history.sqlite3") as store:
        conversation = store.create_conversation("two runs")
        for request in ("add a test", "fix the   typo\nin the README"):
            store.start_run(conversation, request, "phase", "scripted", "script", {})
    for args in (["--export", "fca1e85b"], ["--undo", "FCA1"]):
        done = main_qt(isolated_home, *args)
        assert done.returncode == 2, errors(done)
        lines = errors(done).splitlines()
        assert lines[0].startswith(f"error: the run id '{args[1].lower()}' is ambiguous: 2 runs")
        assert re.fullmatch(r"  fca1e85b-2222-\S+  \d{4}-\d\d-\d\d \d\d:\d\d  fix the typo in "
                            r"the README", lines[1])
        assert re.fullmatch(r"  fca1e85b-1111-\S+  .*  add a test", lines[2])
        assert lines[3] == "give more of the id (see --list-runs)" and done.stdout == ""


def test_yes_never_says_an_approval_is_needed(tmp_path: Path, isolated_home: Path) -> None:
    """The command's file is checked by nothing: the run ends 'unverified' (exit code 3)."""
    script = tmp_path / "cmd.json"
    script.write_text(json.dumps(command_script("touch made.txt")), encoding="utf-8")
    ws = tmp_path / "ws"
    ws.mkdir()
    done = main_qt(isolated_home, "--headless", "--yes", "--workspace", str(ws),
                   "--model-script", str(script), "make a file")
    assert done.returncode == 3, errors(done)
    assert "needed" not in done.stdout + errors(done)
    assert "  ✓ command approved by --yes: touch made.txt" in done.stdout.splitlines()
    assert (ws / "made.txt").exists()


def test_a_stopped_run_exits_130(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    # a request that asks no change: round 1 is the planned command, not the one-shot draft
    run = Headless(tmp_path / "home", ws, command_script("sleep 30"),
                   request="wait for the command")
    run.wait_for(kind="task_started")
    run.stop()  # SIGINT, as Ctrl+C sends
    assert run.finish() == 130, run.stderr()
    assert run.events()[-1]["status"] == "cancelled"


def test_every_flag_says_what_it_does_and_gguf_names_the_real_default() -> None:
    from core.cli.flags import build_parser
    from core.llm.embedded_load import DEFAULT_OFFLINE_MODEL, GGUF_NAME
    from ui.app import build_parser as window_parser

    for parser in (build_parser(), window_parser()):
        for action in parser._actions:
            assert action.help and len(action.help) > 10, action.option_strings or action.dest
    [gguf] = [a.help for a in build_parser()._actions if "--gguf" in a.option_strings]
    assert DEFAULT_OFFLINE_MODEL == "qwen2.5-coder-1.5b" and GGUF_NAME.startswith("SmolLM2-135M")
    assert ("Empty: the file $PHASEDESK_GGUF names, else Qwen2.5-Coder-1.5B when it is "
            "installed") in gguf and "else the small SmolLM2-135M demo model" in gguf
