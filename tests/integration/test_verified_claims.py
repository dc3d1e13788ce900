"""A run says only what it verified (issue 36), with the scripted model: a command run before the
write (in a round 1 that is planned because the draft gave no file) is no evidence for it; a
summary's claim of tests that did not run stays the model's words, and the engine's facts
beside it and the outcome say that nothing checked the final files (no sentence is
rewritten); the classic loop is held to the same rules; the headless last line, its exit code
and the exports say whether the final files were checked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.script import analysis, authored, files_workspace, of, plan, reading, run, \
    summary, task

ROOT = Path(__file__).resolve().parents[2]
STUB = "def add(a, b):\n    raise NotImplementedError\n"
DONE = "def add(a, b):\n    return a + b\n"
ASK = "Implement add in calc.py so it returns the sum"
CLAIM = "Implemented add. The function was tested with various inputs and passed all tests."
CHANGE = reading("change", change=("calc.py",))  # the model's reading of ASK
# A draft cut off inside its block: no file is taken from it, and it is no answer in words,
# so the reading stays a change and round 1 is planned.
CUT_OFF = {"text": "calc.py\n```python\ndef add(a, b):"}
UNCHECKED = "Nothing checked calc.py as it is now."


def test_a_command_before_the_write_is_no_evidence_and_the_claim_of_tests_is_not_taken(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, _ = run([
        analysis("Implement add", requirements=[
            {"requirement": "add returns the sum", "quote": "so it returns the sum"},
            {"requirement": "handle both integer and floating-point inputs", "quote": ""}],
            **CHANGE),
        CUT_OFF,  # the draft gives no file: round 1 is planned
        plan(task(1, "run_command", command="python calc.py"),
             task(2, "write_file", [1], path="calc.py", instruction="implement add")),
        authored(DONE, "calc.py"),  # the write's own authoring call: the draft gave none
        summary(CLAIM),
    ], ws, request=ASK)
    final = of(events, "summary")[0]
    assert final.final_summary == CLAIM  # the model's words, shown under the engine's facts
    assert (final.verification, final.verification_sentences) == ("unverified", [UNCHECKED])
    [requirement] = final.requirements
    assert requirement["requirement"] == "add returns the sum"
    assert "python calc.py" not in requirement["evidence"]
    assert requirement["evidence"] == ("calc.py written by task 2 in round 1 (write_file "
                                       "calc.py). Nothing checked the final files, so the change "
                                       "is not verified.")
    assert final.assumptions == ["handle both integer and floating-point inputs"]
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("unverified", "unverified")


def test_the_classic_loop_is_held_to_the_same_rules(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    answer = "Done: add returns the sum, and all tests pass."
    events, _ = run([
        analysis("Implement add", **CHANGE),
        {"tool_calls": [{"tool": "write_file",
                         "arguments": {"path": "calc.py", "instruction": "implement add"}}]},
        authored(DONE, "calc.py"),
        {"text": answer},
    ], ws, request=ASK, use_phase_task=False)
    final = of(events, "summary")[0]
    assert final.final_summary == answer  # the claim stands as the model's words ...
    assert final.verification_sentences == [UNCHECKED]  # ... beside the engine's facts
    [requirement] = final.requirements
    assert requirement["requirement"] == ASK and requirement["status"] == "done"
    assert requirement["evidence"].startswith("calc.py written by task 1 in round 1")
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("unverified", "unverified")


def test_a_classic_answer_without_the_change_it_was_asked_for_fails(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    events, _ = run([
        analysis("Implement add", **CHANGE),
        {"text": "The add function should return a + b; the tests pass."},
        {"text": "I cannot write files."},
    ], ws, request=ASK, use_phase_task=False, assists_off="write_reminder")
    [requirement] = of(events, "summary")[0].requirements
    assert requirement["status"] == "not_attempted"
    assert requirement["evidence"] == "No file was changed."
    assert of(events, "run_finished")[0].outcome == "failed"


def script_file(tmp_path: Path, replies: list[dict]) -> Path:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"replies": replies}), encoding="utf-8")
    return path


def headless(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PHASEDESK_HOME": str(home)}
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.run([sys.executable, str(ROOT / "main_qt.py"), *args], env=env,
                          capture_output=True, text=True, timeout=180)


def replies(content: str) -> list[dict]:
    return [analysis("Implement add", requirements=[
        {"requirement": "add returns the sum", "quote": "so it returns the sum"}], **CHANGE),
        authored(content, "calc.py"),  # the draft: round 1 writes it, no Plan call
        summary(CLAIM)]


def test_headless_says_not_verified_and_the_exports_record_it(tmp_path: Path) -> None:
    """Finished work that nothing checked: exit code 3, 'Done · not verified'."""
    ws = files_workspace(tmp_path, {"calc.py": STUB})
    home = tmp_path / "home"
    done = headless(home, "--headless", "--workspace", str(ws), "--model-script",
                    str(script_file(tmp_path, replies(DONE))), ASK)
    assert done.returncode == 3, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("■ ○ Done · not verified · 3 LLM calls")
    run_id = next(line for line in done.stdout.splitlines() if line.startswith("▶ run ")).split()[2]
    markdown = headless(home, "--export", run_id, "--format", "md").stdout
    assert "- **Outcome:** ⚪ Done · not verified" in markdown
    exported = json.loads(headless(home, "--export", run_id, "--format", "json").stdout)
    assert exported["run"]["verification"] == "unverified"
    summary_event = next(e for e in exported["events"] if e["kind"] == "summary")
    assert (summary_event["outcome"], summary_event["verification_sentences"]) == (
        "unverified", [UNCHECKED])


def test_headless_runs_the_workspaces_tests_and_exits_by_what_they_say(tmp_path: Path) -> None:
    tests = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    passing = files_workspace(tmp_path / "a", {"calc.py": STUB, "test_calc.py": tests})
    done = headless(tmp_path / "home", "--headless", "--workspace", str(passing),
                    "--model-script", str(script_file(tmp_path / "a", replies(DONE))), ASK)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1].startswith("■ ✓ Succeeded · 1 test passes · ")
    wrong = "def add(a, b):\n    return a * b\n"
    failing = files_workspace(tmp_path / "b", {"calc.py": STUB, "test_calc.py": tests})
    script = replies(wrong)
    script[2:2] = [authored(wrong, "calc.py")]  # the one candidate does no better
    done = headless(tmp_path / "home", "--headless", "--workspace", str(failing),
                    "--model-script", str(script_file(tmp_path / "b", script)),
                    "--candidates", "1", ASK)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1].startswith("■ ◐ Partly done · 1 of 1 test fails · ")
