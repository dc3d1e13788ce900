"""An MCP server reached over streamable HTTP (a real server process on 127.0.0.1)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.shapes.mcp_server import McpServer
from tests.support.mcp_servers import ROOT, of_kind, statuses
from tests.support.script import analysis, judge, plan, reading, run, summary, task


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def http_server() -> Iterator[str]:
    port = free_port()
    server = subprocess.Popen([sys.executable, str(ROOT / "tests" / "support" /
                                                   "mcp_faulty_server.py"), "tools", str(port)],
                              stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_run_calls_a_tool_of_a_streamable_http_server(tmp_path: Path, http_server: str) -> None:
    remote = McpServer("web", http_server, env=(("X-Client", "phasedesk-test"),), approval="auto")
    replies = [analysis("Echo", **reading("question", tools=("web__echo",))),  # no draft
               plan(task(1, "web__echo", text="over http")), judge([1]),
               summary("Echoed the text over HTTP.")]
    events, model = run(replies, tmp_path, mcp_servers=(remote,))

    assert [(t.tool, t.status, t.result) for t in of_kind(events, "task_finished")] == [
        ("web__echo", "done", "over http")]
    assert "web__crash" in str(model.requests[1]["tools"])
    assert statuses(events) == [("web", "started"), ("web", "stopped")]
    assert of_kind(events, "summary")[0].generated_by == "model"


def test_an_unreachable_url_is_a_clear_failure_and_the_run_goes_on(tmp_path: Path) -> None:
    remote = McpServer("gone", f"http://127.0.0.1:{free_port()}/mcp", approval="auto")
    replies = [analysis("Look"), {"text": "There is nothing to change."},  # the draft, in words
               plan(task(1, "list_files")), judge([1]), summary()]
    events, _ = run(replies, tmp_path, mcp_servers=(remote,), mcp_start_timeout_s=20.0)

    failed = of_kind(events, "mcp_server")
    assert [(e.name, e.status) for e in failed] == [("gone", "failed")]
    assert failed[0].error == ("MCP server 'gone' could not be reached: All connection "
                               "attempts failed")
    assert of_kind(events, "task_finished")[0].status == "done"
    assert [e.kind for e in events][-1] == "run_finished"
