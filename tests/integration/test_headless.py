"""``main_qt.py --headless`` as a person runs it: a real process, a real history DB."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from core.cli.exit_codes import run_exit_code
from core.shapes.wording import ending_line, outcome_chip
from core.store.history import Store
from tests.support.event_order import canonical

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "three-phase-demo.json"
REQUEST = "Please switch the demo to port 8080, turn debug off and note it in the README"


def headless(home: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PHASEDESK_HOME": str(home)}
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.run([sys.executable, str(ROOT / "main_qt.py"), *args], env=env,
                          capture_output=True, text=True, timeout=120, input=stdin)


def demo_workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    shutil.copytree(ROOT / "examples" / "demo-workspace", folder)
    return folder


def recorded_outcome(home: Path) -> str:
    """The outcome of the only recorded run."""
    with Store(home / "data" / "history.sqlite3") as store:
        [run] = store.all_runs()
        return run["outcome"]


def test_recorded_three_phase_scenario_prints_progress_and_exits_by_its_outcome(
        tmp_path: Path, isolated_home: Path) -> None:
    ws = demo_workspace(tmp_path)
    done = headless(isolated_home, "--headless", "--workspace", str(ws), "--model-script",
                    str(DEMO), REQUEST)
    outcome = recorded_outcome(isolated_home)
    assert outcome in ("succeeded", "unverified")  # nothing checks the demo's files
    assert done.returncode == run_exit_code("completed", outcome), done.stderr
    out = done.stdout
    assert out.count("🎯 Phase") == 3
    assert "✗ task 2 failed" in out and "· retry: 1 task\n" in out
    assert out.count("⚖️  judge") == 4 and "📝 Summary (by the model) · 3 phases done" in out
    # the two clean write rounds are decided by the engine, without a judge call
    assert out.count("     Decided from the facts: ") == 2
    # 10 calls: the one-shot draft asked first gives no file, so round 1 is planned
    assert out.splitlines()[-1].startswith(
        f"■ {ending_line(outcome, 'unverified', 'not verified')} · 10 LLM calls · ")
    lines = out.splitlines()
    start = lines.index("  Requirements:") + 1
    requirements = lines[start:start + 3]
    assert [line.split(" [")[0].strip() for line in requirements] == [
        "✓ The demo service listens on port 8080", "✓ Debug is off",
        "✓ The README notes the new port"]
    assert all("[done] — " in line for line in requirements)
    assert all(line.endswith("Nothing checked the final files, so the change is not verified.")
               for line in requirements)
    assert "  Checked: Nothing checked README.md, config.py as it is now." in out
    assert [line.strip() for line in out.splitlines() if "✎" in line] == [
        "✎ +1 −1 config.py", "✎ +1 −1 config.py", "✎ +1 −1 README.md"]
    assert (ws / "config.py").read_text() == "PORT = 8080\nDEBUG = False\n"
    listed = headless(isolated_home, "--list-runs")
    assert listed.returncode == 0
    row = listed.stdout.splitlines()[1].split()
    assert row[1:2] == [outcome] and "completed" not in row  # one word for the run
    markdown = headless(isolated_home, "--export", row[0], "--format", "md").stdout
    assert markdown.splitlines()[2:4] == [
        f"- **Outcome:** {outcome_chip(outcome, 'unverified', 'not verified', emoji=True)}",
        f"- **Run:** `{row[0]}`"]
    assert "- [x] Debug is off *(done)* — " in markdown


def test_jsonl_export_and_replay_reproduce_the_events(tmp_path: Path, isolated_home: Path) -> None:
    first = headless(isolated_home, "--headless", "--jsonl", "--workspace",
                     str(demo_workspace(tmp_path / "a")), "--model-script", str(DEMO), REQUEST)
    events = [json.loads(line) for line in first.stdout.splitlines()]
    run_id = events[0]["run_id"]
    assert [e["kind"] for e in events][-2:] == ["summary", "run_finished"]
    kinds = [e["kind"] for e in events]
    started = [e for e in events if e["kind"] == "stage_started"]
    assert len(started) == kinds.count("llm_call") > 0  # every call is announced as it begins
    assert all(kinds[i + 1] == "llm_call" for i, k in enumerate(kinds) if k == "stage_started")
    assert [e["stage"] for e in started] == [e["stage"] for e in events if e["kind"] == "llm_call"]
    # nothing checks the demo's files: done, not verified (issue 49's fourth outcome)
    assert events[-1]["outcome"] == events[-2]["outcome"] == "unverified"
    assert [r["status"] for r in events[-2]["requirements"]] == ["done", "done", "done"]
    assert events[-1]["verification"] == events[-2]["verification"] == "unverified"
    exported = headless(isolated_home, "--export", run_id, "--format", "json")
    assert exported.returncode == 0
    export_file = tmp_path / "export.json"
    export_file.write_text(exported.stdout)
    replay = headless(isolated_home, "--headless", "--jsonl", "--workspace",
                      str(demo_workspace(tmp_path / "b")), "--model-script", str(export_file),
                      REQUEST)
    again = [json.loads(line) for line in replay.stdout.splitlines()]

    def shape(stream: list[dict]) -> list[tuple]:
        return canonical(stream, lambda e: (e["kind"], e.get("task_id"), e.get("status"),
                                            e.get("stage"), e.get("next_action")))

    assert shape(again) == shape(events)
    markdown = headless(isolated_home, "--export", run_id, "--format", "md")
    assert "Demo service reconfigured" in markdown.stdout
    assert "Change config" in markdown.stdout and "retry_failed" in markdown.stdout


def test_usage_errors_exit_2(tmp_path: Path, isolated_home: Path) -> None:
    assert headless(isolated_home, "--headless", "--workspace", str(tmp_path), "   ").returncode == 2
    missing = headless(isolated_home, "--headless", "--workspace", str(tmp_path / "nope"), "hi")
    assert missing.returncode == 2 and "not a folder" in missing.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"replies": [{"nonsense": 1}]}')
    script = headless(isolated_home, "--headless", "--workspace", str(tmp_path),
                      "--model-script", str(bad), "hi")
    assert script.returncode == 2 and "replies[0]" in script.stderr
    assert headless(isolated_home, "--headless", "--max-iterations", "0", "hi").returncode == 2
    assert headless(isolated_home, "--export", "no-such-run").returncode == 2


def test_a_follow_up_continues_its_conversation_and_an_unknown_one_is_refused(
        tmp_path: Path, isolated_home: Path) -> None:
    ws = demo_workspace(tmp_path)
    first = headless(isolated_home, "--headless", "--jsonl", "--workspace", str(ws),
                     "--model-script", str(DEMO), REQUEST)
    assert first.returncode == 3, first.stderr  # done, not verified
    unknown = headless(isolated_home, "--headless", "--workspace", str(ws), "--model-script",
                       str(DEMO), "--conversation", "99", "and now the docs")
    assert unknown.returncode == 2 and "no conversation 99 in the history" in unknown.stderr
    dump = tmp_path / "context"
    again = headless(isolated_home, "--headless", "--jsonl", "--workspace", str(ws),
                     "--model-script", str(DEMO), "--conversation", "1",
                     "--dump-context", str(dump), "and now the docs")
    assert again.returncode == 1, again.stderr  # the demo's replies do part of this request
    assert json.loads(again.stdout.splitlines()[-1])["outcome"] == "partial"
    with Store(isolated_home / "data" / "history.sqlite3") as store:
        [conversation] = store.list_conversations()
        assert [r["request"] for r in store.runs(conversation["id"])] == [
            REQUEST, "and now the docs"]
    prompts = " ".join(str(m["content"]) for p in sorted(dump.iterdir())
                       for m in json.loads(p.read_text())["messages"])
    assert ("Earlier run [milestone: changed files]: goal «Switch the demo service to port "
            "8080 with debug off, and document it» ended completed. Summary: ## Demo service "
            "reconfigured") in prompts


def test_exhausted_script_exits_1_with_a_fallback_summary(tmp_path: Path,
                                                          isolated_home: Path) -> None:
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"replies": json.loads(DEMO.read_text())["replies"][:3]}))
    done = headless(isolated_home, "--headless", "--workspace", str(demo_workspace(tmp_path)),
                    "--model-script", str(short), REQUEST)
    assert done.returncode == 1, done.stderr  # the run failed
    assert "📝 Summary (composed without the model)" in done.stdout
    assert "**" not in done.stdout  # the summary's Markdown is terminal text
    assert done.stdout.splitlines()[-1].startswith("■ ✗ Failed · ")


def command_replies(judged: bool) -> str:
    """A run that makes a file with a command; ``judged``: the judge is asked about the round
    (the command failed; a round that ran cleanly and changed a file is the engine's to
    decide). The one-shot draft, asked first, answers in words, so round 1 is planned."""
    judge = {"tool": "judge_tasks", "arguments": {
        "task_evaluation": [], "completed_tasks": [], "failed_tasks": [1],
        "phase_completion_rate": 0, "phase_completed": False,
        "user_summary": "the command was not allowed", "next_action": "end_phase",
        "failed_reason": "denied", "problem_level": "execution"}}
    return json.dumps({"replies": [
        {"tool": "request_analyser", "arguments": {
            "core_goal": "make a file", "requirements": [], "constraints": [],
            "complexity": "simple", "estimated_phases": 1, "clarification_needed": False,
            "clarification_questions": []}},
        {"text": "Running touch made.txt makes the file."},
        {"tool": "plan_tool_call", "arguments": {"reasoning": "r", "tasks": [{
            "id": 1, "title": "touch", "description": "d", "tool": "run_command",
            "arguments": {"command": "touch made.txt"}, "priority": 5, "dependencies": []}]}},
        *([judge] if judged else []),
        {"tool": "summarizer", "arguments": {
            "final_summary": "The command touch made.txt created made.txt.",
            "phases_completed": 1, "total_tasks_executed": 1,
            "total_rounds": 1, "highlights": [], "quality_assessment": "ok"}}]})


def test_non_tty_denies_commands_unless_yes(tmp_path: Path, isolated_home: Path) -> None:
    script = tmp_path / "cmd.json"
    script.write_text(command_replies(judged=True))
    ws = tmp_path / "ws"
    ws.mkdir()
    denied = headless(isolated_home, "--headless", "--workspace", str(ws), "--model-script",
                      str(script), "make a file", stdin="")
    assert denied.returncode == 1 and "denied by user" in denied.stdout  # the run failed
    assert "⚠ approval needed for command: touch made.txt" in denied.stdout
    assert "⚠ plan:" not in denied.stdout  # every reply is the one its call asks for
    assert not (ws / "made.txt").exists()
    script.write_text(command_replies(judged=False))
    allowed = headless(isolated_home, "--headless", "--yes", "--workspace", str(ws),
                       "--model-script", str(script), "make a file", stdin="")
    assert allowed.returncode in (0, 3) and (ws / "made.txt").exists(), allowed.stdout
    assert "approval needed" not in allowed.stdout and "⚠" not in allowed.stdout
    assert "  ✓ command approved by --yes: touch made.txt" in allowed.stdout.splitlines()
    assert "     Decided from the facts: made.txt" in allowed.stdout
    last = allowed.stdout.splitlines()[-1]
    assert last.startswith(("■ ✓ Succeeded · not verified · ", "■ ○ Done · not verified · "))
    assert (last.startswith("■ ○") if allowed.returncode == 3 else last.startswith("■ ✓"))


def test_a_closed_pipe_stops_the_run_quietly(tmp_path: Path, isolated_home: Path) -> None:
    env = {**os.environ, "PHASEDESK_HOME": str(isolated_home)}
    proc = subprocess.Popen([sys.executable, str(ROOT / "main_qt.py"), "--headless", "--jsonl",
                             "--workspace", str(demo_workspace(tmp_path)), "--model-script",
                             str(DEMO), REQUEST], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    code = proc.wait(timeout=60)
    assert "Traceback" not in proc.stderr.read()
    assert json.loads(first)["kind"] == "run_started"
    [run] = headless(isolated_home, "--list-runs").stdout.splitlines()[1:]
    # Stopped when the pipe closed (130), unless the short run had already finished (0, 3).
    assert code in (130, 0, 3), run
    if code != 130:
        assert run.split()[1] == {0: "succeeded", 3: "unverified"}[code], run


def test_dump_context_writes_each_calls_messages(tmp_path: Path, isolated_home: Path) -> None:
    dump = tmp_path / "dump"
    done = headless(isolated_home, "--headless", "--workspace", str(demo_workspace(tmp_path)),
                    "--model-script", str(DEMO), "--dump-context", str(dump), REQUEST)
    assert done.returncode == run_exit_code("completed", recorded_outcome(isolated_home))
    files = sorted(dump.iterdir())
    assert len(files) == 10  # the draft is asked first; the clean write rounds call no judge
    assert files[0].name == "001-request_analyser.json" and files[-1].name.endswith("summarizer.json")
    assert files[2].name == "003-author.json"  # the one-shot draft, before any Plan call
    first = json.loads(files[0].read_text())
    # the person's words first; the analysis also sees the tools a request may need run first
    assert first["messages"][-1]["content"].startswith(f"{REQUEST}\n\n---\n")
    assert [t["function"]["name"] for t in first["tools"]] == ["request_analyser"]
    later = json.loads(files[3].read_text())
    assert REQUEST not in json.dumps(later["messages"])
