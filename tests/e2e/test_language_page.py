"""A Chinese request in the real page: the analysis shows its language, every structured model
call is asked in Chinese (the one-shot draft gets the person's own words only) and the summary
comes back in Chinese (the draft's clean write round is settled by the engine, whose Judge card
says so), and the window is captured for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import js, settle, submit, texts, wait_js
from tests.e2e.scripted_runs import Reply, ScriptedFactory
from tests.support.script import analysis, authored, judge, phases, plan, summary, task

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
FINISHED = "document.querySelectorAll('.run-footer').length === {n}"
REQUEST = "把 config.py 里的端口改成 8080"
DECIDED = "Decided from the facts: config.py written; no check ran on it."
SUMMARY = ("## 端口已改为 8080\n\n本次运行完成了请求：\n- 读取了 `config.py`\n"
           "- 把 `PORT` 从 8000 改成了 8080\n\n没有遗留的问题。")


def chinese_run() -> list[Reply]:
    """The model calls the request English; the page must still say Chinese. The request asks
    for a change: the one-shot draft (config.py) is round 1's write, with no Plan call."""
    return [analysis("把服务端口改成 8080", complexity="complex", language="English",
                     requirements=["config.py 里的 PORT 等于 8080"]),
            phases((1, "修改端口", [])),
            authored("PORT = 8080\n", "config.py", before="这是修改后的文件："),
            summary(SUMMARY, highlights=["PORT 现在是 8080", "没有新增依赖"])]


def english_run() -> list[Reply]:
    return [analysis("Look at the config", complexity="complex", language="English"),
            phases((1, "Look", [])), plan(task(1, "read_file", path="config.py")),
            judge([1]), summary()]


def test_a_chinese_request_shows_its_language_and_a_chinese_summary(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    factory = ScriptedFactory(chinese_run(), english_run())
    window = make_window(factory)
    window.resize(1100, 1000)
    submit(qtbot, window, REQUEST)
    wait_js(qtbot, window, FINISHED.format(n=1))

    assert texts(qtbot, window, ".analysis-language") == ["language: Chinese (简体中文)"]
    assert texts(qtbot, window, ".judge-summary") == [DECIDED]
    assert texts(qtbot, window, ".judge .judge-by-engine") == [
        "decided from the facts, no model call"]
    panel = ".message-summarizer .summarizer-content"
    assert texts(qtbot, window, f"{panel} h2") == ["端口已改为 8080"]
    assert texts(qtbot, window, f"{panel} li") == ["读取了 config.py", "把 PORT 从 8000 改成了 8080"]
    assert "PORT 现在是 8080" in js(qtbot, window,
                                  "document.querySelector('.message-summarizer').innerText")
    asked = [r["messages"][-1]["content"] for r in factory.models[0].requests]
    stages = [c.stage for c in factory.engines[0].of("llm_call")]
    assert stages == ["request_analyser", "phase_planner", "author", "summarizer"]
    assert len(asked) == 4 and all("in Chinese (简体中文), the person's language" in text
                                   for stage, text in zip(stages, asked) if stage != "author")
    [draft] = [text for stage, text in zip(stages, asked) if stage == "author"]
    assert draft.startswith(f"Request:\n{REQUEST}\n\n")  # the person's own words only
    assert "the person's language" not in draft

    ARTIFACTS.mkdir(exist_ok=True)
    settle(qtbot, window, ms=400, top=True)
    assert window.grab().save(str(ARTIFACTS / "window-chinese-analysis.png"))
    js(qtbot, window, "(() => { document.querySelector('.judge').scrollIntoView({block: 'start'});"
                      " return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-chinese-summary.png"))

    window.sidebar.new_button.click()
    wait_js(qtbot, window, "document.querySelectorAll('.run').length === 0")
    submit(qtbot, window, "look at the config")
    wait_js(qtbot, window, FINISHED.format(n=1))
    assert texts(qtbot, window, ".analysis-goal") == ["Look at the config"]
    assert texts(qtbot, window, ".analysis-language") == []
