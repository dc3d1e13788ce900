"""MCP tools in the real window: the server's lines, its tools' cards, approval, failure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import js, submit, texts, wait_js
from tests.e2e.scripted_runs import ANSWER_DRAFT, ScriptedFactory
from tests.support.mcp_servers import faulty_server, server_pids, time_server, wait_until_gone
from tests.support.script import analysis, judge, plan, reading, summary, task

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"


def test_an_mcp_call_is_approved_in_the_page_and_shows_its_server_and_result(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    replies = [analysis("Tell the UTC time", **reading(
                   "question", tools=("time__get_current_time",),
                   quotes={"time__get_current_time": "What time is it in UTC?"})),
               plan(task(1, "time__get_current_time", timezone="UTC")),  # the tool first: no draft
               judge([1]), summary("Read the time from the time server.")]
    factory = ScriptedFactory(replies, mcp_servers=(time_server(approval="ask"),))
    window = make_window(factory)
    submit(qtbot, window, "What time is it in UTC?")
    wait_js(qtbot, window, "document.querySelector('.approval button') !== null", timeout=30000)

    assert texts(qtbot, window, ".approval-head") == [
        "🔐 The agent wants to call an MCP server's tool"]
    assert js(qtbot, window, "document.querySelector('.approval-detail').textContent") == \
        'time → get_current_time\n{\n  "timezone": "UTC"\n}'
    js(qtbot, window, "(() => { document.querySelector('.approval [data-decision=\"once\"]')"
                      ".click(); return 1; })()")
    wait_js(qtbot, window, FINISHED, timeout=30000)

    engine = factory.last
    assert texts(qtbot, window, ".mcp-server .notice-text") == [
        "MCP server time started · 2 tools: get_current_time, convert_time",
        "MCP server time stopped"]
    assert texts(qtbot, window, ".task .meta.mcp") == ["🔌 time · get_current_time"]
    assert js(qtbot, window, "document.querySelector('.task .meta.mcp').dataset.server") == "time"
    assert js(qtbot, window, "document.querySelector('.task').dataset.status") == "done"
    shown = texts(qtbot, window, ".task .detail.outcome .detail-text")[0]
    result = engine.of("task_finished")[0].result
    assert shown == result and json.loads(shown)["timezone"] == "UTC"
    judged = [m["content"] for m in factory.models[0].requests[2]["messages"]
              if m["role"] == "tool"]
    assert json.loads(shown)["datetime"] in judged[-1]
    assert texts(qtbot, window, ".approval-answer") == ["Approved once"]
    assert wait_until_gone(list(server_pids(engine.events).values())) == []


def test_a_server_that_fails_shows_its_error_and_stderr_and_the_run_ends(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    replies = [analysis("Look around"), ANSWER_DRAFT, plan(task(1, "list_files")), judge([1]),
               summary()]
    factory = ScriptedFactory(replies, mcp_servers=(faulty_server("exit", "broken"),))
    window = make_window(factory)
    submit(qtbot, window, "look around")
    wait_js(qtbot, window, FINISHED, timeout=30000)

    line = ".mcp-server[data-status='failed']"
    error = texts(qtbot, window, f"{line} .notice-text")
    assert len(error) == 1 and error[0].startswith("MCP server 'broken' stopped: exited with "
                                                   "code 3")
    assert texts(qtbot, window, f"{line} .mcp-stderr pre") == [
        "faulty server: starting in mode exit"]
    assert js(qtbot, window, "document.querySelector('.task').dataset.status") == "done"
    assert len(texts(qtbot, window, ".message-summarizer")) == 1
    assert wait_until_gone(list(server_pids(factory.last.events).values())) == []
