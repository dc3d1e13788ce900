"""Real-model runs replayed through the headless app end as they ended when recorded.

Each folder under tests/support/transcripts with an ``ended.json`` is one evaluation run of the
embedded Qwen2.5-Coder-1.5B at the engine it replays on (made by
``bench/evals/record_fixture.py``): the request, the workspace it started from, every reply
the model gave, the run's end (outcome, verdict line, LLM calls) and its files at the end.
The replay feeds those replies back one per call: a run whose decisions changed asks for
replies in another order and ends elsewhere, and this test says where it parted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = ROOT / "tests" / "support" / "transcripts"
RECORDED = sorted(p.parent.name for p in TRANSCRIPTS.glob("*/ended.json"))
SKIPPED = ("__pycache__", ".pytest_cache")


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not any(part in SKIPPED for part in p.parts)}


def replay(name: str, tmp_path: Path) -> tuple[list[dict[str, Any]], Path, str]:
    """The replay's events, its workspace and what ``--list-runs`` prints after it."""
    fixture = TRANSCRIPTS / name
    workspace = tmp_path / "workspace"
    shutil.copytree(fixture / "workspace", workspace)
    request = (fixture / "request.txt").read_text(encoding="utf-8").strip()
    env = {**os.environ, "PHASEDESK_HOME": str(tmp_path / "home")}
    for variable in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "PHASEDESK_GGUF"):
        env.pop(variable, None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "main_qt.py"), "--headless", "--jsonl", "--yes",
         "--workspace", str(workspace), "--model-script", str(fixture / "replies.json"),
         request], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    plain = subprocess.run(
        [sys.executable, str(ROOT / "main_qt.py"), "--list-runs"], capture_output=True,
        text=True, env=env, timeout=120).stdout
    return events, workspace, plain


@pytest.mark.parametrize("name", RECORDED)
def test_a_recorded_run_replays_to_the_same_end(name: str, tmp_path: Path) -> None:
    fixture = TRANSCRIPTS / name
    expected = json.loads((fixture / "ended.json").read_text(encoding="utf-8"))
    export = json.loads((fixture / "replies.json").read_text(encoding="utf-8"))
    events, workspace, listed = replay(name, tmp_path)
    recorded = [e["stage"] for e in export["events"] if e["kind"] == "llm_call"]
    asked = [e["stage"] for e in events if e["kind"] == "llm_call"]
    parted = next((i for i, pair in enumerate(zip(asked, recorded)) if pair[0] != pair[1]),
                  None)
    assert parted is None, f"call {parted + 1} went to {asked[parted]}; the recorded run " \
                           f"asked {recorded[parted]} there"
    assert asked == recorded  # every recorded reply was used, at the same stage, none more
    finished = events[-1]
    assert finished["kind"] == "run_finished"
    assert {k: finished.get(k) for k in expected if k != "recorded_from"} == \
        {k: v for k, v in expected.items() if k != "recorded_from"}
    assert files(workspace) == files(fixture / "end")
    assert expected["outcome"] in listed  # the history keeps the same outcome word


def test_every_recording_is_a_whole_run() -> None:
    assert RECORDED, "no recorded run under tests/support/transcripts"
    for name in RECORDED:
        fixture = TRANSCRIPTS / name
        assert (fixture / "workspace").is_dir() and (fixture / "end").is_dir(), name
        assert json.loads((fixture / "replies.json").read_text())["replies"], name
