"""``main_qt.py --headless --gguf FILE``: the flag derived from the ``gguf`` setting picks the
offline model; a file that is not there ends the run with a summary that says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_gguf_file_ends_the_run_with_the_reason(tmp_path: Path,
                                                          isolated_home: Path) -> None:
    missing = tmp_path / "models" / "absent.gguf"
    env = {**os.environ, "PHASEDESK_HOME": str(isolated_home)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "main_qt.py"), "--headless", "--jsonl", "--yes",
         "--workspace", str(tmp_path), "--provider", "embedded", "--gguf", str(missing),
         "List the files."], env=env, capture_output=True, text=True, timeout=120,
        stdin=subprocess.DEVNULL)
    assert done.returncode == 1, done.stderr[-2000:]  # the run failed
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[-1]["outcome"] == "failed"
    assert [e["kind"] for e in events][-2:] == ["summary", "run_finished"]
    assert events[0]["provider"] == "embedded" and events[0]["model"] == \
        "embedded model (offline)"
    failed = [e for e in events if e["kind"] == "llm_call" and not e["ok"]]
    assert failed and f"the model file '{missing}' does not exist" in failed[0]["error"]
    assert not (isolated_home / "config" / "settings.json").exists()  # a flag is not saved


def test_the_gguf_flag_is_documented_by_help() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "main_qt.py"), "--headless", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert "--gguf GGUF" in done.stdout and "installed with" in " ".join(done.stdout.split())
