"""Exports: JSON that is a model script and rebuilds the run, Markdown to read, and no keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core import secrets
from core.events import (Event, FileChanged, Judged, LlmCall, Notice, PhaseFinished, PhasesPlanned,
                         PhaseStarted, Summary, TaskFinished, from_dict)
from core.store.export import FORMAT, export_json, export_markdown, export_text
from core.store.history import Recorder, Store

REPLY_KEYS = ({"tool", "arguments"}, {"tool", "raw_arguments"}, {"tool_calls"}, {"text"},
              {"error"})


def _record(store: Store, events: list[Event], settings: dict[str, Any],
            request: str = "Summarise my notes into report.md",
            title: str = "Notes | report") -> str:
    run_id = store.start_run(store.create_conversation(title), request, "phase",
                             "openai", "test-model", settings)
    recorder = Recorder(store, run_id)
    for event in events:
        recorder(event)
    return run_id


def test_json_export_is_a_model_script_and_rebuilds_the_run(
        store: Store, run_events: list[Event], settings: dict[str, Any], tmp_path: Path) -> None:
    run_id = _record(store, run_events, settings)
    path = tmp_path / "run.json"
    path.write_text(export_text(store, run_id, "json"), encoding="utf-8")

    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT and data == export_json(store, run_id)
    assert [from_dict(event) for event in data["events"]] == run_events
    calls = [e for e in run_events if isinstance(e, LlmCall)]
    assert [{k: v for k, v in r.items() if k != "usage"} for r in data["replies"]] == [
        e.reply for e in calls]
    assert [r.get("usage") for r in data["replies"]] == [
        None if e.usage_estimated or not e.ok else
        {"prompt_tokens": e.prompt_tokens, "completion_tokens": e.completion_tokens}
        for e in calls]
    assert all(set(reply) - {"usage"} in REPLY_KEYS for reply in data["replies"])
    run = data["run"]
    assert run["id"] == run_id and run["status"] == "completed"
    assert run["conversation_title"] == "Notes | report" and run["llm_calls"] == 6
    assert run["settings_snapshot"]["model"] == "test-model"


def test_a_call_recorded_without_a_reply_still_gets_a_script_entry(store: Store) -> None:
    events: list[Event] = [LlmCall("judge_tasks", 1, 1, True, 1, 30, 2, False, "timed out"),
                           LlmCall("think", 1, 1, True, 2, 30, 2, True, usage_estimated=True)]
    run_id = _record(store, events, {})
    assert export_json(store, run_id)["replies"] == [
        {"error": {"status": 0, "message": "timed out"}}, {"text": ""}]


def test_markdown_shows_request_phases_tasks_verdicts_and_summary(
        store: Store, run_events: list[Event], settings: dict[str, Any]) -> None:
    text = export_markdown(store, _record(store, run_events, settings))

    assert text.startswith("# Notes | report\n")
    for expected in (
        "- **Outcome:** not recorded (run status: completed)",
        "> Summarise my notes into report.md",
        "**Goal:** Summarise the notes",
        "1. Which notes?",
        "1. **Explore** — Find the notes",
        "### Explore (1/2)",
        "#### Round 1 (plan)",
        "| 1. List files | `list_files` | done |  |",
        "| 2. Read \\| notes | `read_file` | failed | permission denied: notes.txt |",
        "**Judge:** completion 50%, success 50%, quality 6.0/10 → `retry_failed` "
        "(problem: execution)",
        "> Listed the files; reading the notes failed.",
        "- Task 2: failed, quality 0 — file not readable",
        "**Think:** continue the phase — retry with sudo-free path",
        "**Phase result:** completed · 2/2 tasks · 2 rounds — Found and read the notes",
        "#### Round 1 (replan)",
        "**Phase result:** completed · 1/1 tasks · 1 round — report.md written",
        "| 3. Write the report | `write_file` | done |  |",
        "- `report.md` created (12 bytes)",
        "- `old.md` deleted (0 bytes)",
        "- warning (judge_tasks): The judge failed; retrying once",
        "## Summary\n\nYour notes are summarised in **report.md**.",
        "- report.md created",
        "*2 phases done · 3 tasks · 3 rounds · written by the model*",
    ):
        assert expected in text, expected
    assert text.index("### Explore") < text.index("### Write") < text.index("## Summary")


def test_markdown_of_an_interrupted_classic_run(store: Store) -> None:
    events: list[Event] = [TaskFinished(0, 1, "run_command", "failed", "exit 2\nstderr")]
    run_id = _record(store, events, {})
    store.mark_interrupted()
    text = export_markdown(store, run_id)
    assert "### Steps" in text and "| 1.  | `run_command` | failed | exit 2 stderr |" in text
    assert "*No summary was recorded (run status: interrupted).*" in text


def test_markdown_says_how_each_command_ran(store: Store) -> None:
    events: list[Event] = [
        TaskFinished(0, 1, "run_command", "done", sandbox="sandboxed"),
        TaskFinished(0, 2, "run_command", "done", sandbox="sandboxed_network"),
        TaskFinished(0, 3, "run_command", "failed", "exit 1", sandbox="unsandboxed"),
        TaskFinished(0, 4, "read_file", "done")]
    text = export_markdown(store, _record(store, events, {}))
    assert "| 1.  | `run_command` (sandboxed) | done |  |" in text
    assert "| 2.  | `run_command` (sandboxed, network on) | done |  |" in text
    assert "| 3.  | `run_command` (not sandboxed) | failed | exit 1 |" in text
    assert "| 4.  | `read_file` | done |  |" in text


def test_markdown_names_a_blocked_phase_from_the_phase_plan(store: Store) -> None:
    events: list[Event] = [
        PhasesPlanned([{"id": 1, "name": "Build", "goal": "Build it"},
                       {"id": 2, "name": "Document", "goal": "Document it"}], "sequential"),
        PhaseStarted(1, "Build", "Build it", 1, 2, 3),
        PhaseFinished(1, "failed", 2, 0, 0, ""),
        PhaseFinished(2, "blocked", 0, 0, 0, "Not run: it depends on phase 1 (Build), which "
                                             "failed.")]
    text = export_markdown(store, _record(store, events, {}))
    assert "### Document\n\n*Goal:* Document it\n" in text
    assert ("**Phase result:** blocked · 0/0 tasks · 0 rounds — Not run: it depends on phase 1 "
            "(Build), which failed.") in text


def test_unknown_run_cannot_be_exported(store: Store) -> None:
    with pytest.raises(KeyError):
        export_json(store, "no-such-run")
    with pytest.raises(KeyError):
        export_markdown(store, "no-such-run")


def test_api_keys_never_reach_the_db_or_an_export(
        store: Store, run_events: list[Event], settings: dict[str, Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "_known_keys", set())
    key = "pd-fake-4242-0123456789-key"
    shaped = "sk-proj-ABCDEFGHIJKLMNOPQRSTUV0123"
    leaky: list[Event] = [
        *run_events[:-1],
        Notice("error", f"401 from server: invalid key {key}"),
        TaskFinished(1, 9, "run_command", "done", result=f"OPENAI_API_KEY={shaped}"),
        run_events[-1],
    ]
    secret_settings = {**settings, "api_key": key, "proxy_password": "hunter2-hunter2"}
    run_id = _record(store, leaky, secret_settings, request=f"use key {key} please",
                     title=f"Keys: {shaped}")
    store.close()

    stored = b"".join(p.read_bytes() for p in store.path.parent.glob("history.sqlite3*"))
    assert key.encode() not in stored
    with Store(store.path) as reopened:
        exports = [export_text(reopened, run_id, "json"), export_text(reopened, run_id, "md")]
        snapshot = reopened.run(run_id)["settings_snapshot"]  # type: ignore[index]
    for text in exports:
        assert key not in text and shaped not in text and "hunter2" not in text
        assert "[redacted]" in text
    assert "api_key" not in snapshot and "proxy_password" not in snapshot
    assert "use key [redacted] please" in exports[1]


def test_markdown_and_json_exports_carry_diffs_and_scored_quality(store: Store) -> None:
    diff = "--- a/config.py\n+++ b/config.py\n@@ -1 +1 @@\n-PORT = 8000\n+PORT = 8080"
    second = "--- a/config.py\n+++ b/config.py\n@@ -1 +1 @@\n-PORT = 8080\n+PORT = 9090"
    whole = "--- a/config.py\n+++ b/config.py\n@@ -1 +1 @@\n-PORT = 8000\n+PORT = 9090"
    fenced = "--- /dev/null\n+++ b/doc.md\n@@ -0,0 +1,3 @@\n+```\n+code\n+```"
    events: list[Event] = [
        FileChanged("config.py", "modified", 12, 1, 1, 1, 1, diff),
        FileChanged("doc.md", "created", 13, 2, 1, 3, 0, fenced),
        FileChanged("config.py", "modified", 12, 3, 1, 1, 1, second, 1, 1, whole),
        Judged(1, 1, True, "end_phase", 1.0, 1.0, 7.5,
               [{"task_id": 1, "status": "done", "quality": 8, "comment": ""},
                {"task_id": 2, "status": "done", "quality": 7, "comment": ""},
                {"task_id": 3, "status": "done", "quality": None, "comment": ""}],
               "All three done.", tasks_scored=2, tasks_total=3),
        Summary("Done.", 1, 3, 1, [], "", "model", quality_average=7.5, tasks_scored=2),
    ]
    run_id = _record(store, events, {})
    text = export_markdown(store, run_id)
    assert "- `config.py` modified (+1 −1)\n- `doc.md` created (+3 −0)" in text
    assert f"### `config.py`\n\n```diff\n{whole}\n```" in text
    assert f"### `doc.md`\n\n````diff\n{fenced}\n````" in text
    assert "quality 7.5 avg · 2 of 3 scored → `end_phase`" in text
    assert "- Task 3: done, not scored" in text
    assert "**Average quality:** 7.5 avg · 2 scored" in text
    exported = export_json(store, run_id)["events"]
    assert [e["diff"] for e in exported if e["kind"] == "file_changed"] == [diff, fenced, second]
    assert exported[2]["run_diff"] == whole


def test_the_versions_a_write_weighed_are_kept_and_listed_under_its_round(store: Store) -> None:
    diff = "--- before\n+++ candidate 1\n@@ -1 +1 @@\n-x = 0\n+x = 1\n"
    candidates = [
        {"source": "draft", "path": "x.py", "line": "draft: passes 1 of 2 checks", "passed": 1,
         "total": 2, "kept": False, "diff": diff.replace("candidate 1", "draft")},
        {"source": "candidate 1", "path": "x.py", "line": "candidate 1: passes 2 of 2 checks "
         "(kept)", "passed": 2, "total": 2, "kept": True, "diff": diff}]
    events: list[Event] = [PhaseStarted(1, "Write", "Write x.py", 1, 1, 3),
                           TaskFinished(1, 1, "write_file", "done", round=1,
                                        candidates=candidates),
                           TaskFinished(1, 2, "read_file", "done", round=1)]
    run_id = _record(store, events, {})
    text = export_markdown(store, run_id)
    assert ("*Task 1 tried 1 candidate after its draft:*\n\n"
            "- draft: passes 1 of 2 checks\n"
            "- candidate 1: passes 2 of 2 checks (kept)\n") in text
    assert "Task 2 tried" not in text
    [finished, _] = [e for e in export_json(store, run_id)["events"]
                     if e["kind"] == "task_finished"]
    assert finished["candidates"] == candidates
