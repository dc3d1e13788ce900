"""What a run may claim: `succeeded` only with a check the engine ran, the workspace's tests run
with the runner they are written for, evidence per requirement, and the model's summary kept
as its own words in any language (scripted model, real subprocesses)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

import core.tools.workspace_tests as workspace_tests
from tests.support.script import analysis, authored, files_workspace, of, reading, run, summary

STUB = "def add(a, b):\n    raise NotImplementedError\n"
DONE = "def add(a, b):\n    return a + b\n"
PYTEST_STYLE = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
ASK = "Implement add(a, b) in calc.py."


def implement(ws: Path, **settings: object) -> list:  # type: ignore[type-arg]
    events, _ = run([analysis("Implement add", **reading("change", change=("calc.py",))),
                     authored(DONE, "calc.py"), summary("add is implemented.")], ws,
                    request=ASK, **settings)
    return events


def no_pytest_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's own environment without pytest, as a frozen or slim install may be."""
    real = workspace_tests.importlib.util.find_spec
    monkeypatch.setattr(workspace_tests.importlib.util, "find_spec",
                        lambda name, *a: None if name == "pytest" else real(name, *a))


def test_a_change_nothing_checks_is_done_but_not_verified(tmp_path: Path) -> None:
    events = implement(files_workspace(tmp_path, {"calc.py": STUB}))
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("unverified", "unverified")


def test_pytest_style_tests_verify_the_change(tmp_path: Path) -> None:
    events = implement(files_workspace(tmp_path, {"calc.py": STUB,
                                                  "test_calc.py": PYTEST_STYLE}))
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification_line) == ("succeeded", "1 test passes")


def test_the_workspaces_own_virtualenv_runs_its_tests_when_the_app_has_no_pytest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB, "test_calc.py": PYTEST_STYLE})
    bin_dir = ws / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (ws / ".venv" / "lib" / "python3.11" / "site-packages" / "pytest").mkdir(parents=True)
    python = bin_dir / "python"  # stands for the workspace's interpreter, which has pytest
    python.write_text(f"#!/bin/sh\nexec {sys.executable} \"$@\"\n")
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    no_pytest_here(monkeypatch)
    finished = of(implement(ws), "run_finished")[0]
    assert (finished.outcome, finished.verification_line) == ("succeeded", "1 test passes")


def test_without_any_pytest_a_line_says_why_the_tests_did_not_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    no_pytest_here(monkeypatch)
    events = implement(files_workspace(tmp_path, {"calc.py": STUB,
                                                  "test_calc.py": PYTEST_STYLE}))
    said = " ".join(n.message for n in of(events, "notice"))
    assert "tests are written for pytest, and pytest is installed neither here" in said
    assert "0 tests pass" not in said and "0 tests" not in said
    assert of(events, "run_finished")[0].outcome == "unverified"


def test_a_unittest_run_that_finds_no_tests_is_not_a_pass(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    no_pytest_here(monkeypatch)
    ws = files_workspace(tmp_path, {"calc.py": STUB, "tests/README.md": "none yet\n"})
    events = implement(ws)
    said = " ".join(n.message for n in of(events, "notice"))
    assert "no tests found by unittest" in said and "0 tests pass" not in said
    assert of(events, "run_finished")[0].outcome == "unverified"


def test_the_test_command_setting_is_what_runs(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    command = f"{sys.executable} -c \"import calc; assert calc.add(2, 3) == 5\""
    finished = of(implement(ws, test_command=command), "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("succeeded", "verified")
    failing = f"{sys.executable} -c \"import calc; assert calc.add(2, 3) == 6\""
    ws2 = files_workspace(tmp_path / "two", {"calc.py": STUB})
    finished = of(implement(ws2, test_command=failing, candidates=0), "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("partial", "failing")


def test_each_requirement_has_the_evidence_that_concerns_it(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"config.py": "PORT = 80\nDEBUG = True\n",
                                    "README.md": "# Demo\n"})
    ask = "In config.py set PORT to 8080, and note the new port in README.md."
    events, _ = run([
        analysis("Port 8080", requirements=[
            {"requirement": "config.py sets PORT = 8080", "quote": "In config.py set PORT to 8080"},
            {"requirement": "README.md notes the port", "quote": "note the new port in README.md"}],
            **reading("change", change=("config.py", "README.md"))),
        {"text": "config.py\n```python\nPORT = 8080\nDEBUG = True\n```\n\nREADME.md\n```markdown\n"
                 "# Demo\n\nListens on port 8080.\n```\n"},
        summary("Done."),
    ], ws, request=ask)
    entries = {r["requirement"]: r["evidence"] for r in of(events, "summary")[0].requirements}
    assert entries["config.py sets PORT = 8080"].startswith("config.py written by task 1")
    assert "README.md" not in entries["config.py sets PORT = 8080"].split(".")[0]
    assert entries["README.md notes the port"].startswith("README.md written by task 2")


@pytest.mark.parametrize("said", [
    "All tests pass and the function works as expected.",
    "Tous les tests passent et la fonction marche comme prévu.",
])
def test_the_summary_is_the_models_words_in_any_language(tmp_path: Path, said: str) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, _ = run([analysis("Implement add", **reading("change", change=("calc.py",))),
                     authored(DONE, "calc.py"), summary(said)], ws, request=ASK)
    shown = of(events, "summary")[0]
    assert shown.final_summary == said  # not rewritten, whatever the language
    assert (shown.outcome, shown.verification_line) == ("unverified", "not verified")


def test_headless_exits_3_for_an_unverified_change(tmp_path: Path) -> None:
    import json
    import subprocess
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"replies": [
        analysis("Implement add", **reading("change", change=("calc.py",))),
        authored(DONE, "calc.py"), summary("add is implemented.")]}))
    main = Path(__file__).resolve().parents[2] / "main_qt.py"
    done = subprocess.run([sys.executable, str(main), "--headless", "--workspace", str(ws),
                           "--model-script", str(script), ASK], capture_output=True, text=True,
                          timeout=240, env={**os.environ, "PHASEDESK_HOME": str(tmp_path / "home")})
    assert done.returncode == 3, done.stdout[-2000:] + done.stderr[-2000:]
    assert "not verified" in done.stdout.strip().splitlines()[-1]


def test_a_requirement_that_states_an_example_is_decided_by_that_example(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"leap.py": "def is_leap(year):\n    raise NotImplementedError\n"})
    ask = "Implement is_leap(year) in leap.py. is_leap(2000) is True, is_leap(1900) is False."
    events, _ = run([
        analysis("Implement is_leap", requirements=[
            {"requirement": "is_leap(2000) is True", "quote": "is_leap(2000) is True"},
            {"requirement": "is_leap(1900) is False", "quote": "is_leap(1900) is False"}],
            **reading("change", change=("leap.py",),
                      examples=("is_leap(2000) == True", "is_leap(1900) == False"))),
        authored("def is_leap(year):\n    return year % 4 == 0\n", "leap.py"),
        summary("is_leap misses the century rule."),
    ], ws, request=ask, candidates=0)
    entries = {r["requirement"]: r for r in of(events, "summary")[0].requirements}
    assert entries["is_leap(2000) is True"]["status"] == "done"
    assert entries["is_leap(2000) is True"]["evidence"].startswith(
        "On the final files the request's example is_leap(2000) passes.")
    assert entries["is_leap(1900) is False"]["status"] == "failed"
    assert "example is_leap(1900) fails" in entries["is_leap(1900) is False"]["evidence"]
    assert of(events, "run_finished")[0].outcome == "partial"
