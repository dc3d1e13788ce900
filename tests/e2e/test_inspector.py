"""The context inspector in the real page, and the classic engine run from the window."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core import config
from core.store.history import Store
from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import click, count, js, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory, two_phase_replies

pytestmark = pytest.mark.gui
FINISHED = "document.querySelector('.run-footer') !== null"
HOSTILE = "<img src=x onerror=\"window.__pwned = 'inspector'\"> move the port"


def test_llm_calls_list_is_lazy_and_opens_to_the_messages_as_text(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(two_phase_replies())
    window = make_window(factory)
    submit(qtbot, window, HOSTILE)
    wait_js(qtbot, window, FINISHED)
    calls = factory.last.of("llm_call")
    assert len(calls) == 10  # the draft's among them; phase 2's clean write round: no judge

    assert count(qtbot, window, ".calls") == 1
    assert js(qtbot, window, "document.querySelector('.calls-list').hidden") is True
    assert count(qtbot, window, ".call") == 0  # nothing built until the list is opened
    head = js(qtbot, window, "document.querySelector('.calls-count').textContent")
    assert head == f"10 calls · {sum(c.prompt_tokens for c in calls):,} prompt tokens"
    order = js(qtbot, window, "Array.from(document.querySelector('.run').children)"
                              ".map(e => e.className)")
    assert order[order.index("run-body"):] == ["run-body", "files changes", "calls", "run-footer"]

    click(qtbot, window, ".calls-toggle")
    assert count(qtbot, window, ".call") == 10
    assert texts(qtbot, window, ".call-stage") == [c.stage.replace("_", " ") for c in calls]
    assert texts(qtbot, window, ".call-head .badge") == [
        "in budget" if c.counted_in_budget else "outside budget" for c in calls]
    assert texts(qtbot, window, ".call-context") == [f"{c.context_tokens:,} in context"
                                                     for c in calls]
    first = texts(qtbot, window, ".call-tokens")[0]
    assert first.startswith(f"{calls[0].prompt_tokens:,} → {calls[0].completion_tokens:,} tok")
    assert count(qtbot, window, ".msg") == 0

    click(qtbot, window, ".call-head", 0)
    digest = calls[0].context
    assert texts(qtbot, window, ".call.open .msg-role") == [m["role"] for m in digest]
    assert texts(qtbot, window, ".call.open .msg-size") == [f"{m['chars']:,} chars" for m in digest]
    assert texts(qtbot, window, ".call.open .msg-tokens") == [f"~{m['tokens']:,} tokens"
                                                              for m in digest]
    previews = texts(qtbot, window, ".call.open .msg-preview")
    assert previews == [m["preview"] or "(empty)" for m in digest]
    assert any(HOSTILE in p for p in previews)
    assert count(qtbot, window, ".calls img") == 0
    assert js(qtbot, window, "window.__pwned === undefined") is True

    click(qtbot, window, ".call-head", 3)
    assert count(qtbot, window, ".call.open") == 2
    click(qtbot, window, ".call-head", 0)
    assert count(qtbot, window, ".call.open") == 1
    click(qtbot, window, ".calls-toggle")
    assert js(qtbot, window, "document.querySelector('.calls-list').hidden") is True


def test_two_thousand_calls_stay_lazy_until_opened(qtbot: QtBot,
                                                   make_window: WindowMaker) -> None:
    window = make_window()
    window.bridge.send({"kind": "run_started", "run_id": "r", "engine": "phase", "request": "big",
                        "provider": "openai", "model": "m", "workspace": "/w", "budget": 2000})
    context = [{"role": "user", "chars": 900, "tokens": 230, "preview": "x" * 240 + "…"}] * 12
    started = time.perf_counter()
    for n in range(2000):
        window.bridge.send({"kind": "llm_call", "stage": "plan", "prompt_tokens": 1000,
                            "completion_tokens": 50, "counted_in_budget": True,
                            "calls_used": n + 1, "budget": 2000, "context_tokens": 3000,
                            "ok": True, "context": context})
    wait_js(qtbot, window, "(document.querySelector('.calls-count') || {}).textContent"
                           " === '2000 calls · 2,000,000 prompt tokens'", timeout=20000)
    assert time.perf_counter() - started < 15
    assert count(qtbot, window, ".call") == 0
    click(qtbot, window, ".calls-toggle")
    assert count(qtbot, window, ".call") == 2000
    assert count(qtbot, window, ".msg") == 0


def test_classic_engine_runs_from_the_window_without_special_cases(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    config.save(config.from_mapping({"use_phase_task": False}))
    from tests.support.script import analysis, reading
    replies = [
        analysis("Say which port the server uses", **reading(
            "question", read=("config.py",),
            quotes={"config.py": "Which port does the server use?"})),
        {"tool_calls": [{"tool": "read_file", "arguments": {"path": "config.py"}},
                        {"tool": "list_files", "arguments": {}}]},
        {"text": "## The port\n\n- `config.py` sets `PORT = 8000`\n- one file in the folder"},
    ]
    factory = ScriptedFactory(replies)
    window = make_window(factory)
    wait_js(qtbot, window, "document.getElementById('ctx-engine').textContent === 'Classic loop'")
    submit(qtbot, window, "Which port does the server use?")
    wait_js(qtbot, window, FINISHED)

    assert factory.last.engine.engine_name == "classic"
    assert "Classic loop" in texts(qtbot, window, ".run-meta .chip-value")
    assert js(qtbot, window, "Array.from(document.querySelectorAll('.task'))"
                             ".map(t => t.dataset.status)") == ["done", "done"]
    assert texts(qtbot, window, ".task .meta.tool") == ["🔧 read_file", "🔧 list_files"]
    assert count(qtbot, window, ".message-summarizer") == 1
    assert texts(qtbot, window, ".summarizer-content h2") == ["The port"]
    assert count(qtbot, window, ".summarizer-content li") == 2
    assert js(qtbot, window, "document.querySelector('.run').dataset.status") == "completed"
    assert texts(qtbot, window, ".run-footer .badge") == [
        "✅ Succeeded · the answer cites config.py, line 1"]
    click(qtbot, window, ".calls-toggle")
    assert texts(qtbot, window, ".call-stage") == [c.stage.replace("_", " ")
                                                   for c in factory.last.of("llm_call")]
    with Store() as store:
        [conversation] = store.list_conversations()
        [run] = store.runs(conversation["id"])
        assert run["engine"] == "classic" and run["status"] == "completed"


def test_cached_prompt_tokens_show_as_uncached_in_the_meter_and_per_call(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    from tests.support.script import analysis, judge, plan, summary, task

    def usage(reply: dict, prompt: int, completion: int, cached: int) -> dict:
        return {**reply, "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                                   "cached_tokens": cached}}

    factory = ScriptedFactory([usage(analysis("Look"), 300, 30, 0),
                               usage({"text": "The folder holds config.py."}, 800, 12, 0),
                               usage(plan(task(1, "list_files")), 1500, 20, 0),
                               usage(judge([1]), 1700, 20, 1408),
                               {**usage(summary(), 1600, 50, 1024), "delay_s": 1.5}])
    window = make_window(factory)
    submit(qtbot, window, "look around")
    wait_js(qtbot, window, "(document.querySelector('.run-live')?.textContent || '')"
                           ".includes('uncached')")
    live = js(qtbot, window, "document.querySelector('.run-live').textContent")
    so_far = 300 + 30 + 800 + 12 + 1500 + 20 + 1700 + 20
    assert live == f"🧠 4/30 LLM calls · {so_far:,} tokens · {so_far - 1408:,} uncached"
    wait_js(qtbot, window, FINISHED)
    chips = dict(js(qtbot, window, "Array.from(document.querySelectorAll('.run-footer .chip'))"
                                   ".filter(c => c.querySelector('.chip-label'))"
                                   ".map(c => [c.querySelector('.chip-label').textContent,"
                                   " c.querySelector('.chip-value').textContent])"))
    assert chips["Prompt tokens"] == "5,900"
    assert chips["Uncached prompt tokens"] == f"{5900 - 1408 - 1024:,}"
    click(qtbot, window, ".calls-toggle")
    assert texts(qtbot, window, ".call-tokens") == [
        "300 → 30 tok", "800 → 12 tok", "1,500 → 20 tok", "1,700 → 20 tok (1,408 cached)",
        "1,600 → 50 tok (1,024 cached)"]
