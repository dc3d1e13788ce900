"""``main_qt.py --headless --mcp NAME=COMMAND`` as a person runs it, and killed mid-run."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.mcp_servers import ROOT, alive, faulty_server, wait_until_gone

TIME_SCRIPT = {"replies": [
    {"tool": "request_analyser", "arguments": {
        "core_goal": "Tell the current time in UTC", "requirements": ["say the UTC time"],
        "complexity": "simple", "estimated_phases": 1, "kind": "question",
        "tools": [{"name": "time__get_current_time", "quote": "What time is it?"}]}},
    {"tool": "plan_tool_call", "arguments": {"tasks": [
        {"tool": "time__get_current_time", "arguments": {"timezone": "UTC"}}]}},
    {"tool": "judge_tasks", "arguments": {
        "next_action": "end_phase", "user_summary": "The time server said the UTC time.",
        "phase_completed": True}},
    {"tool": "summarizer", "arguments": {
        "final_summary": "Read the UTC time from the time server.", "phases_completed": 1,
        "total_tasks_executed": 1, "total_rounds": 1, "highlights": [],
        "quality_assessment": "good", "requirements": [
            {"requirement": "say the UTC time", "status": "done", "evidence": "task 1"}]}},
]}


def headless_command(home: Path, workspace: Path, script: dict[str, Any], *flags: str
                     ) -> tuple[list[str], dict[str, str]]:
    script_file = workspace.parent / "script.json"
    script_file.write_text(json.dumps(script))
    env = {**os.environ, "PHASEDESK_HOME": str(home)}
    return ([sys.executable, str(ROOT / "main_qt.py"), "--headless", "--jsonl", "--workspace",
             str(workspace), "--model-script", str(script_file), *flags, "What time is it?"],
            env)


def test_headless_mcp_flag_offers_runs_and_judges_the_time_tool(tmp_path: Path,
                                                                 isolated_home: Path) -> None:
    """The reading names the time tool, so round 1 is planned with it (no draft). The answer
    rests on the tool's result, not on a line of a file, so nothing checks it: the run ends
    'unverified', exit code 3."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    requests = tmp_path / "requests"
    command, env = headless_command(isolated_home, workspace, TIME_SCRIPT, "--mcp",
                                    f"time={shlex.quote(sys.executable)} -m mcp_server_time",
                                    "--yes", "--dump-context", str(requests))
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)

    assert done.returncode == 3, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    servers = [e for e in events if e["kind"] == "mcp_server"]
    assert [(e["name"], e["status"]) for e in servers] == [("time", "started"), ("time", "stopped")]
    assert "time__get_current_time" in servers[0]["tools"]
    sent = {path.stem.split("-", 1)[1]: json.loads(path.read_text())
            for path in sorted(requests.iterdir())}
    assert "- time__get_current_time(timezone: string) — [MCP server time]" in \
        sent["plan"]["messages"][0]["content"]
    assert "time__get_current_time" in json.dumps(sent["plan"]["tools"])
    finished = [e for e in events if e["kind"] == "task_finished"]
    assert [(e["tool"], e["status"]) for e in finished] == [("time__get_current_time", "done")]
    said = json.loads(finished[0]["result"])["datetime"]
    assert said in [m["content"] for m in sent["judge"]["messages"] if m["role"] == "tool"][-1]
    assert events[-1]["kind"] == "run_finished" and events[-1]["outcome"] == "unverified"
    assert wait_until_gone([servers[0]["pid"]]) == []


def test_killing_the_app_leaves_no_server_or_server_child_behind(tmp_path: Path,
                                                                 isolated_home: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    server = faulty_server("tools")
    script = {"replies": [
        {"tool": "request_analyser", "arguments": {
            "core_goal": "Spawn", "requirements": [], "complexity": "simple",
            "estimated_phases": 1, "kind": "question",
            "tools": [{"name": "faulty__spawn_child", "quote": ""}]}},
        {"tool": "plan_tool_call", "arguments": {"tasks": [
            {"tool": "faulty__spawn_child", "arguments": {}}]}},
        {"tool": "judge_tasks", "delay_s": 600, "arguments": {
            "next_action": "end_phase", "user_summary": "never reached in this test",
            "phase_completed": True}},
    ]}
    command, env = headless_command(isolated_home, workspace, script, "--mcp",
                                    f"faulty={shlex.join([server.command, *server.args])}",
                                    "--yes")
    app = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
    server_pid = child_pid = 0
    try:
        assert app.stdout is not None
        for line in app.stdout:
            event = json.loads(line)
            if event["kind"] == "mcp_server" and event["status"] == "started":
                server_pid = event["pid"]
            if event["kind"] == "task_finished":
                child_pid = int(event["result"].split()[0])
                break
        assert server_pid and child_pid and alive(server_pid) and alive(child_pid)
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait()
    assert wait_until_gone([server_pid, child_pid]) == []
