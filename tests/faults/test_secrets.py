"""The API key never shows: not in events, logs, the history, exports or crash messages.

The key is deliberately not shaped like ``sk-…``, so only the registration of the
configured key can hide it; the endpoint echoes it, the workspace holds it in ``.env``,
and the model repeats it in its verdicts and summary.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from core.events import ApprovalRequested, Event, TaskFinished, to_json
from core.store.export import export_text
from core.llm.openai_client import OpenAIModel
from core.engine.build import create_engine
from core.store.history import Recorder, Store
from tests.faults.cells import phase_replies
from tests.support.fake_openai import FakeOpenAI, refused_url
from tests.support.log_guard import ExpectedWarning
from tests.support.script import judge, plan, settings, summary, task

KEY = "pd-live-7f3a9c-Q2w3E4r5T6y7U8i9o0"


def echoing_replies() -> dict[str, list[dict]]:
    return {**phase_replies(),
            "plan_tool_call": [plan(task(1, "read_file", path=".env"), task(
                2, "run_command", command="cat .env; echo $OPENAI_API_KEY"))],
            "judge_tasks": [judge([1, 2], summary=f"The .env file holds the key {KEY}.")],
            "summarizer": [summary(f"## Found it\n\nYour key is `{KEY}`.", highlights=[KEY])]}


def refusing_replies() -> dict[str, list[dict]]:
    return {"request_analyser": [{"error": {"status": 401, "message":
                                            f"Incorrect API key provided: {KEY}."}}]}


async def run(base_url: str, workspace: Path, store: Store) -> tuple[list[Event], str]:
    model = OpenAIModel(base_url, "fake-model", KEY, timeout_s=2, max_retries=0)
    engine = create_engine(settings(command_approval="auto"), workspace, model=model)
    run_id = store.start_run(store.create_conversation(f"key {KEY}"), f"use {KEY}", "phase",
                             model.provider, model.name, {"api_key": KEY})
    recorder = Recorder(store, run_id)
    events: list[Event] = []
    async for event in recorder.wrap(engine.run(f"Check .env (key {KEY})")):
        events.append(event)
        if isinstance(event, ApprovalRequested):  # .env looks like a secret: the person lets
            engine.answer_approval(event.request_id, "run")  # the model read it
    await model.aclose()
    return events, run_id


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "README.md").write_text("# hello\n", encoding="utf-8")
    (folder / ".env").write_text(f"OPENAI_API_KEY={KEY}\n", encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    return folder


def assert_hidden(events: list[Event], store: Store, run_id: str,
                  caplog: pytest.LogCaptureFixture) -> None:
    for event in events:
        assert KEY not in to_json(event), event
    for fmt in ("json", "md"):
        assert KEY not in export_text(store, run_id, fmt)  # type: ignore[arg-type]
    for record in caplog.records:
        shown = logging.Formatter().format(record)
        assert KEY not in shown, shown


def assert_db_clean(db: Path) -> None:
    stored = b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))
    assert KEY.encode() not in stored


@pytest.mark.parametrize("replies", [echoing_replies, refusing_replies],
                         ids=["echoed", "refused"])
def test_the_key_stays_hidden_in_a_run_whose_model_and_files_repeat_it(
        replies: Callable[[], dict[str, list[dict]]], workspace: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    db = workspace.parent / "history.sqlite3"
    with FakeOpenAI(stages=replies()) as server, Store(db) as store:
        events, run_id = asyncio.run(run(server.base_url, workspace, store))
        assert events[-1].kind == "run_finished"
        assert_hidden(events, store, run_id, caplog)
    commands = [e for e in events if isinstance(e, TaskFinished) and e.tool == "run_command"]
    assert [e.sandbox for e in commands] == (["sandboxed"] if replies is echoing_replies else [])
    assert_db_clean(db)
    assert any("Bearer" in str(r["headers"]) for r in server.requests)  # it was really sent
    assert len(caplog.records) > 5  # DEBUG logging of the SDK was captured


def test_the_key_stays_hidden_when_the_engine_crashes(
        workspace: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
        expect_warning: Callable[..., ExpectedWarning]) -> None:
    def broken(*args: object) -> list[int]:
        raise RuntimeError(f"cannot order the phases with credentials {KEY}")

    crash = expect_warning("engine error", count=1)

    monkeypatch.setattr("core.engine.phase.engine.order_phases", broken)
    caplog.set_level(logging.DEBUG)
    db = workspace.parent / "history.sqlite3"
    with FakeOpenAI(stages=phase_replies()) as server, Store(db) as store:
        events, run_id = asyncio.run(run(server.base_url, workspace, store))
        assert [e.kind for e in events][-2:] == ["summary", "run_finished"]
        assert "Internal error" in str([e for e in events if e.kind == "notice"])
        assert_hidden(events, store, run_id, caplog)
    assert_db_clean(db)
    assert crash.records[0].exc_info  # the crash was logged, with its traceback


def test_the_key_stays_hidden_when_the_endpoint_is_down(
        workspace: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    db = workspace.parent / "history.sqlite3"
    with Store(db) as store:
        events, run_id = asyncio.run(run(refused_url() + f"?api-key={KEY}", workspace, store))
        assert "could not be reached" in events[-2].final_summary
        assert_hidden(events, store, run_id, caplog)
    assert_db_clean(db)
