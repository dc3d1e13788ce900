"""While the model works: the active stage and its timer on the current card, the meter per
finished call, and a streamed summary written into the page piece by piece."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from core import config
from core.config import Settings
from core.llm.openai_client import OpenAIModel
from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import count, js, submit, texts, wait_js
from tests.e2e.scripted_runs import SUMMARY_MD, ScriptedFactory, port_move_replies
from tests.support.fake_openai import FakeOpenAI

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
LIVE = ".stage-live"
JUDGE_WAITING = ("document.querySelector('.phase[data-phase-id=\"1\"] .stage-live[data-stage=\"judge\"]')"
                 " !== null")


def seconds(text: str) -> int:
    assert text.endswith(" s"), text
    return int(text.split()[0])


def test_the_waiting_stage_and_its_timer_show_before_the_reply_arrives(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    replies = [{**reply, "delay_s": 0.2} for reply in port_move_replies()]
    replies[4]["delay_s"] = 3.5  # the first judge thinks for a while
    factory = ScriptedFactory(replies)
    window = make_window(factory)
    submit(qtbot, window, "Move the server to port 8080")

    wait_js(qtbot, window, JUDGE_WAITING)
    assert texts(qtbot, window, f"{LIVE} .stage-label") == ["Judge · round 1"]
    first = seconds(texts(qtbot, window, f"{LIVE} .stage-time")[0])
    finished_calls = len(factory.last.of("llm_call"))
    assert finished_calls == 4  # analyser, phase planner, draft, plan: the judge is still out
    meter = texts(qtbot, window, ".run-live")[0]
    assert meter.startswith(f"🧠 {finished_calls}/")
    wait_js(qtbot, window, f"(() => {{ const t = document.querySelector('{LIVE} .stage-time');"
                           f" return t && parseInt(t.textContent) >= {first + 2}; }})()")
    assert count(qtbot, window, ".judge") == 0  # the timer ticks while the reply is awaited
    line = texts(qtbot, window, f"{LIVE} .stage-head")[0]
    assert line.startswith("Judge · round 1 · ") and line.endswith(" s")

    wait_js(qtbot, window, "document.querySelector('.judge') !== null")
    assert not js(qtbot, window, JUDGE_WAITING)  # the reply replaced it
    wait_js(qtbot, window, FINISHED)
    assert count(qtbot, window, LIVE) == 0


class StreamingFactory(ScriptedFactory):
    """Runs on the real OpenAI client against the local fake server."""

    def __init__(self, server: FakeOpenAI) -> None:
        super().__init__([])
        self.server = server

    def make_model(self, settings: Settings) -> Any:  # type: ignore[override]
        return OpenAIModel(self.server.base_url, "fake-model", "sk-e2e", timeout_s=10,
                           max_retries=0)


def test_a_streamed_summary_is_written_into_the_page_in_pieces(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    config.save(config.from_mapping({"provider": "openai", "model": "fake-model",
                                     "base_url": "http://127.0.0.1:9/v1"}))
    replies = port_move_replies()
    replies[-1] = {**replies[-1], "stream": {"piece": 12, "delay_s": 0.12}}
    with FakeOpenAI(replies) as server:
        window = make_window(StreamingFactory(server))
        submit(qtbot, window, "Move the server to port 8080")
        stream = f"{LIVE}[data-stage=\"summarizer\"] .stage-text"
        seen: list[str] = []

        def watch() -> bool:
            value = js(qtbot, window, f"(() => {{ const t = document.querySelector('{stream}');"
                                      " return t ? t.textContent : null; })()")
            if value and (not seen or value != seen[-1]):
                seen.append(value)
            return bool(js(qtbot, window, FINISHED))

        qtbot.waitUntil(watch, timeout=30000)
    assert len(seen) >= 4, seen
    assert all(b.startswith(a) and len(b) > len(a) for a, b in zip(seen, seen[1:])), seen
    assert all(SUMMARY_MD.startswith(text) for text in seen)
    assert count(qtbot, window, LIVE) == 0  # replaced by the validated summary
    panel = ".message-summarizer .summarizer-content"
    assert texts(qtbot, window, f"{panel} h1") == ["Port moved to 8080"]
    assert server.requests[-1]["body"]["stream"] is True
    assert server.requests[-1]["sent"] == server.requests[-1]["chunks"]


def test_stop_during_a_streamed_summary_cuts_the_stream_and_ends_the_run(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    config.save(config.from_mapping({"provider": "openai", "model": "fake-model",
                                     "base_url": "http://127.0.0.1:9/v1"}))
    replies = port_move_replies()
    replies[-1] = {**replies[-1], "stream": {"piece": 4, "delay_s": 0.15}}
    with FakeOpenAI(replies) as server:
        window = make_window(StreamingFactory(server))
        submit(qtbot, window, "Move the server to port 8080")
        stream = f"{LIVE}[data-stage=\"summarizer\"] .stage-text"
        wait_js(qtbot, window, f"(() => {{ const t = document.querySelector('{stream}');"
                               " return t !== null && t.textContent.length > 8; })()", timeout=30000)
        js(qtbot, window, "(() => { document.getElementById('stop').click(); return 1; })()")
        wait_js(qtbot, window, FINISHED)
        record = server.requests[-1]
        qtbot.waitUntil(lambda: record.get("ended", False), timeout=5000)
    assert record["sent"] < record["chunks"] / 2  # the stream was closed, not read to its end
    assert count(qtbot, window, LIVE) == 0
    assert "Stop was pressed while it was being written" in texts(
        qtbot, window, ".message-summarizer .summarizer-content")[0]
