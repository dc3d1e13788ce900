"""The evaluation's task sets and languages (bench/evals/sets.py, suite.py): a suite task's
request read in the language asked for, a clear error for a language a task lacks, and the
runner giving the one-shot call the translated request."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.evals import suite
from bench.evals.sets import select_tasks

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "bench" / "evals" / "run.py"


def _task(root: Path, name: str, requests: dict[str, str]) -> None:
    (root / name / "workspace").mkdir(parents=True)
    (root / name / "workspace" / "a.py").write_text("x = 1\n", encoding="utf-8")
    (root / name / "check.py").write_text("raise SystemExit(0)\n", encoding="utf-8")
    for file, text in requests.items():
        (root / name / file).write_text(text + "\n", encoding="utf-8")


def test_a_task_reads_its_request_in_the_language_asked_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _task(tmp_path, "both", {"request.txt": "Set x to 2.", "request.de.txt": "Setze x auf 2."})
    _task(tmp_path, "english", {"request.txt": "Set x to 3."})
    monkeypatch.setattr(suite, "TASKS_DIR", tmp_path)
    assert [t.request for t in select_tasks("suite")] == ["Set x to 2.", "Set x to 3."]
    assert [t.request for t in select_tasks("suite", ["both"], "de")] == ["Setze x auf 2."]
    with pytest.raises(ValueError, match=r"^no request\.de\.txt in 1 task\(s\): english$"):
        select_tasks("suite", [], "de")
    with pytest.raises(FileNotFoundError, match=r"english has no request in 'de': .*"
                                                r"request\.de\.txt is missing"):
        _ = suite.Task("english", tmp_path / "english", "de").request
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        select_tasks("suite", [], "xx")
    with pytest.raises(ValueError, match="unknown task set 'nope'"):
        select_tasks("nope")


def test_the_runner_sends_the_translated_request_and_records_the_language(
        tmp_path: Path) -> None:
    (task,) = select_tasks("suite", ["ex-word-wrap"], "zh")
    assert task.request_file.name == "request.zh.txt"
    script = tmp_path / "script" / "oneshot" / "ex-word-wrap" / "replies.json"
    script.parent.mkdir(parents=True)
    script.write_text(json.dumps({"replies": [{"text": "No.", "usage": {
        "prompt_tokens": 10, "completion_tokens": 1}}]}), encoding="utf-8")
    out = tmp_path / "runs"
    done = subprocess.run([sys.executable, str(RUNNER), "--model-script", str(script.parents[2]),
                           "--engine", "oneshot", "--lang", "zh", "--tasks", "ex-word-wrap",
                           "--out", str(out)], capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    prompt = json.loads((out / "oneshot" / "ex-word-wrap" / "prompt.json").read_text())
    assert prompt["messages"][1]["content"].startswith(f"Request:\n{task.request}\n")
    results = json.loads((out / "results.json").read_text())
    assert (results["set"], results["lang"], results["runtime"]) == ("suite", "zh", "scripted")
    assert "set suite · language zh · runtime scripted" in done.stdout
