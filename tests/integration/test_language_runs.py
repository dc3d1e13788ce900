"""The person's language reaches every stage call of a run (scripted model, real workspace),
an English run carries nothing extra, and the language survives the history."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from core.engine.build import create_engine
from core.events import from_dict
from core.llm.scripted import ScriptedModel
from core.store.export import export_markdown, export_text
from core.store.history import Recorder, Store
from tests.support.script import (analysis, authored, judge, kinds, of, phases, plan, reading,
                                  run, settings, summary, task, think)

ZH = "Chinese (简体中文)"
ASKED = "the person's language"
CHINESE_ASK = f"in {ZH}, {ASKED}; code, paths and tool arguments stay as they are."
ZH_REQUEST = "把 config.py 里的端口改成 8080，并在 NOTES.md 里记下来"
ZH_QUESTION = "config.py 里的端口是多少？"
EN_REQUEST = "Change the port in config.py to 8080 and note it in NOTES.md"


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "config.py").write_text("PORT = 8000\nDEBUG = True\n", encoding="utf-8")
    return folder


def every_stage(model_language: str = "English") -> list[dict[str, Any]]:
    """Analysis, phase planner, the one-shot draft (it gives no file, so the first round is
    planned), a round of Plan/Judge/Think that reads, a round that writes (the file's own plain
    authoring call; the engine decides that clean round, no Judge or Think), the summary; the
    model calls the request ``model_language``."""
    return [analysis("把端口改成 8080", phases=2, language=model_language),
            phases((1, "读取", [], 1), (2, "修改", [1], 1)),
            {"text": "先看看 config.py 再改。"},
            plan(task(1, "read_file", path="config.py")),
            judge([1], summary="读取了 config.py。"), think(True, False),
            plan(task(1, "write_file", path="config.py", instruction="set PORT to 8080")),
            authored("PORT = 8080\nDEBUG = True\n"),
            summary("## 完成\n\n端口已改为 8080。")]


def asked(model: ScriptedModel, events: list) -> list[tuple[str, str]]:
    """(stage, the call's last message) for every model call of the run."""
    stages = [c.stage for c in of(events, "llm_call")]
    assert len(stages) == len(model.requests)
    return [(stage, request["messages"][-1]["content"])
            for stage, request in zip(stages, model.requests)]


def test_a_chinese_request_asks_every_stage_for_chinese(ws: Path) -> None:
    events, model = run(every_stage("English"), ws, ZH_REQUEST, think_stage="always")
    assert of(events, "request_analysed")[0].language == ZH  # the script beat "English"
    calls = asked(model, events)
    assert [stage for stage, _ in calls] == ["request_analyser", "phase_planner", "author",
                                             "plan", "judge", "think", "plan", "author",
                                             "summarizer"]
    fields = {"request_analyser": "clarification_questions", "phase_planner": "phase names",
              "plan": "task titles", "judge": "user_summary", "think": "next_round_strategy",
              "summarizer": "final_summary"}
    for stage, text in calls:
        if stage == "author":  # the draft, the plain write: the person's own words only
            assert text.startswith(f"Request:\n{ZH_REQUEST}\n\n")
            assert ASKED not in text and "Do not translate" not in text
        else:
            assert text.endswith(CHINESE_ASK) and fields[stage] in text.rsplit("Write ", 1)[1]
    assert (ws / "config.py").read_text(encoding="utf-8") == "PORT = 8080\nDEBUG = True\n"
    assert of(events, "summary")[0].final_summary == "## 完成\n\n端口已改为 8080。"


def test_an_english_request_adds_nothing_to_any_call(ws: Path) -> None:
    events, model = run(every_stage("English"), ws, EN_REQUEST, think_stage="always")
    assert of(events, "request_analysed")[0].language == "English"
    everything = "".join(str(r["messages"]) for r in model.requests)
    assert ASKED not in everything and "Do not translate" not in everything
    assert len(model.requests) == 9 and model.remaining == 0


def test_a_latin_request_keeps_the_language_the_model_names(ws: Path) -> None:
    events, model = run(every_stage("French"), ws, "Change le port dans config.py en 8080",
                        think_stage="always")
    assert of(events, "request_analysed")[0].language == "French"
    calls = asked(model, events)
    first = calls[0][1]  # the language is not known before the analysis
    assert first.startswith("Change le port dans config.py en 8080\n\n---\nThe named file "
                            "config.py (for reference):\nPORT = 8000\n")
    assert ASKED not in first
    assert all(text.endswith(f"in French, {ASKED}; code, paths and tool arguments stay as they "
                             "are.") for stage, text in calls[1:] if stage != "author")


def test_without_an_analysis_the_script_alone_decides(ws: Path) -> None:
    """A question (the draft answers in words, so round 1 is planned): every stage after the
    failed analysis still asks for Chinese, and the draft gets the person's own words."""
    broken = {"tool": "request_analyser", "arguments": {"core_goal": ""}}
    events, model = run([broken, broken, {"text": "端口是 8000。"},
                         plan(task(1, "read_file", path="config.py")),
                         judge([1], summary="读取了 config.py。"), summary("## 完成\n\n读取了配置文件。")],
                        ws, ZH_QUESTION, max_rounds_per_phase=1)
    assert of(events, "request_analysed")[0].language == ZH
    calls = asked(model, events)
    assert [stage for stage, _ in calls] == ["request_analyser", "request_analyser", "author",
                                             "plan", "judge", "summarizer"]
    assert calls[2][1].startswith(f"Request:\n{ZH_QUESTION}\n\n") and ASKED not in calls[2][1]
    assert all(text.endswith(CHINESE_ASK) for _, text in calls[3:])


def test_the_classic_loop_asks_its_answer_and_summary_in_the_requests_language(
        ws: Path) -> None:
    read = {"tool_calls": [{"tool": "read_file", "arguments": {"path": "config.py"}}]}
    question = analysis("端口是多少", **reading("question"))
    events, model = run([question, read, {"text": "端口是 8000。"}], ws, ZH_QUESTION,
                        use_phase_task=False)
    assert of(events, "summary")[0].final_summary == "端口是 8000。"
    assert model.requests[0]["messages"][-1]["content"].endswith(CHINESE_ASK)  # the analysis
    systems = [r["messages"][0]["content"] for r in model.requests[1:]]
    assert len(systems) == 2 and all(s.endswith(f"Write your answer and summary {CHINESE_ASK}")
                                     for s in systems)

    events, model = run([question, read, summary("## 端口\n\n端口是 8000。")], ws, ZH_QUESTION,
                        use_phase_task=False, max_iterations=1)
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "classic",
                                                         "summarizer"]
    assert model.requests[2]["messages"][-1]["content"].endswith(CHINESE_ASK)

    _, model = run([question, read, {"text": "PORT is 8000."}], ws,
                   "What is the port in config.py?", use_phase_task=False)
    assert ASKED not in "".join(str(r["messages"]) for r in model.requests)


def test_a_clarification_answer_keeps_the_requests_language(ws: Path) -> None:
    events, _ = run([analysis("改端口", questions=["端口要改成多少？"], language="English")], ws,
                    "把端口改一下")
    clarification = of(events, "clarification")[0]
    assert clarification.questions == ["端口要改成多少？"]  # a Chinese question is concrete
    assert clarification.analysis["language"] == ZH

    async def answer() -> tuple[list, ScriptedModel]:
        model = ScriptedModel([analysis("把端口改成 8080", language="English"),
                               plan(task(1, "read_file", path="config.py")), judge([1]),
                               summary("## 完成\n\n看过了配置文件。")])
        engine = create_engine(settings(), ws, model=model)
        return [e async for e in engine.run("8080", previous_analysis=clarification.analysis)
                ], model

    events, model = asyncio.run(answer())
    assert of(events, "request_analysed")[0].language == ZH
    assert model.requests[0]["messages"][-1]["content"].endswith(CHINESE_ASK)
    assert kinds(events)[-1] == "run_finished"


def test_the_language_survives_the_history_export_and_replay(ws: Path, tmp_path: Path) -> None:
    script = [analysis("把端口改成 8080", language="English"),
              plan(task(1, "read_file", path="config.py")), judge([1], summary="读取了 config.py。"),
              summary("## 完成\n\n读取了配置文件。")]
    with Store(tmp_path / "history.db") as store:
        run_ids = []
        for model in (ScriptedModel(script), None):
            if model is None:  # the replay: the recorded run's replies, exported as a script
                exported = tmp_path / "run.json"
                exported.write_text(export_text(store, run_ids[0], "json"), encoding="utf-8")
                model = ScriptedModel.from_file(exported)
            conversation = store.create_conversation(ZH_REQUEST)
            run_id = store.start_run(conversation, ZH_REQUEST, "phase", model.provider,
                                     model.name, dataclasses.asdict(settings()))
            engine = create_engine(settings(), ws, model=model, run_id=run_id)

            async def consume() -> None:
                async for _ in Recorder(store, run_id).wrap(engine.run(ZH_REQUEST)):
                    pass

            asyncio.run(consume())
            run_ids.append(run_id)
        for run_id in run_ids:
            stored = next(e for e in store.events(run_id) if e["kind"] == "request_analysed")
            assert from_dict(stored).language == ZH  # type: ignore[attr-defined]
            assert f"**Language:** {ZH}" in export_markdown(store, run_id)
        older = {k: v for k, v in stored.items() if k != "language"}  # recorded before it
        assert from_dict(older).language == ""  # type: ignore[attr-defined]
