"""A recorded run, exported to JSON and replayed offline, produces the same events and cards."""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from pathlib import Path
from typing import Any


from core.events import from_dict, to_dict
from core.store.export import export_markdown, export_text
from core.llm.scripted import ScriptedModel
from core.engine.build import create_engine
from core.store.history import Recorder, Store
from tests.support.event_order import canonical
from tests.support.script import (analysis, error, judge, phases, plan, settings, summary,
                                  task)

REQUEST = "Turn debug off and write notes about it"
TOTALS = ("status", "llm_calls", "prompt_tokens", "completion_tokens", "changed_files")


def _script(*, judge_fails: bool = False) -> list[dict[str, Any]]:
    """A two-phase run with a failed task and a retry; some replies carry a provider's usage.
    The one-shot draft gives no file, so phase 1's first round is planned."""
    fix_plan = plan(task(1, "read_file", path="missing.py"),
                    task(2, "edit_file", path="config.py", old_text="DEBUG = True",
                         new_text="DEBUG = False"))
    return [
        {**analysis("Turn debug off and document it", phases=2),
         "usage": {"prompt_tokens": 812, "completion_tokens": 97}},
        phases((1, "Fix", [], 2), (2, "Document", [1], 1)),
        {"text": "First I need to see where debug is set."},  # the draft: no file
        {**fix_plan, "usage": {"prompt_tokens": 1500, "completion_tokens": 230,
                               "cached_tokens": 1024}},
        *([error(500)] if judge_fails else []),
        judge([2], [1], completed=False, action="retry_failed", reason="missing.py is absent"),
        plan(task(1, "read_file", path="config.py")),
        judge([1]),
        plan(task(1, "write_file", path="NOTES.md", content="Debug is off.\n")),
        judge([1]),
        summary("## Debug is off\n\n- `config.py` edited\n- `NOTES.md` written"),
    ]


def _fresh_workspace(folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / "config.py").write_text("PORT = 8000\nDEBUG = True\n", encoding="utf-8")
    return folder


def _record(store: Store, model: ScriptedModel, workspace: Path) -> str:
    """Run the phase engine on ``model`` the way the app does: wrapped by a ``Recorder``."""
    conversation = store.create_conversation(REQUEST)
    run_id = store.start_run(conversation, REQUEST, "phase", model.provider, model.name,
                             dataclasses.asdict(settings()))
    engine = create_engine(settings(), _fresh_workspace(workspace), model=model, run_id=run_id)

    async def consume() -> None:
        async for _ in Recorder(store, run_id).wrap(engine.run(REQUEST)):
            pass

    asyncio.run(consume())
    return run_id


def _comparable(event: dict[str, Any]) -> dict[str, Any]:
    """The event without what legitimately differs: timings, run id, the script's name."""
    data = to_dict(from_dict(event))
    for name in ("elapsed_s", "run_id", "model"):
        data.pop(name, None)
    return data


def _live_then_replay(store: Store, tmp_path: Path, script: list[dict[str, Any]]
                      ) -> tuple[str, str]:
    live_id = _record(store, ScriptedModel(script), tmp_path / "ws")
    exported = tmp_path / "run.json"
    exported.write_text(export_text(store, live_id, "json"), encoding="utf-8")
    replay_model = ScriptedModel.from_file(exported)
    replay_id = _record(store, replay_model, tmp_path / "ws")
    assert replay_model.remaining == 0
    assert (tmp_path / "ws" / "NOTES.md").read_text(encoding="utf-8") == "Debug is off.\n"
    return live_id, replay_id


def _assert_same_run(store: Store, live_id: str, replay_id: str) -> None:
    live, replayed = store.events(live_id), store.events(replay_id)
    assert canonical(replayed, _comparable) == canonical(live, _comparable)
    runs: list[dict[str, Any]] = [dict(store.run(run_id) or {}) for run_id in (live_id, replay_id)]
    assert [{k: run[k] for k in TOTALS} for run in runs] == [{k: runs[0][k] for k in TOTALS}] * 2
    cards = [export_markdown(store, run).split("## Request", 1)[1] for run in (live_id, replay_id)]
    assert cards[0] == cards[1]


def test_export_then_replay_gives_the_same_events(store: Store, tmp_path: Path) -> None:
    live_id, replay_id = _live_then_replay(store, tmp_path, _script())
    _assert_same_run(store, live_id, replay_id)
    kinds = {e["kind"] for e in store.events(live_id)}
    assert kinds >= {"llm_call", "tasks_planned", "task_finished", "judged", "summary"}
    first_call = next(e for e in store.events(live_id) if e["kind"] == "llm_call")
    assert (first_call["prompt_tokens"], first_call["usage_estimated"]) == (812, False)
    cached = [e["cached_tokens"] for e in store.events(replay_id) if e["kind"] == "llm_call"]
    assert cached.count(1024) == 1 and sum(cached) == 1024  # the replay keeps the cache hits
    assert store.run(live_id)["status"] == "completed"  # type: ignore[index]
    text = export_markdown(store, live_id)
    assert "`retry_failed`" in text and "## Summary\n\n#### Debug is off\n" in text


def test_replay_of_a_run_with_an_api_error(store: Store, tmp_path: Path) -> None:
    live_id, replay_id = _live_then_replay(store, tmp_path, _script(judge_fails=True))
    _assert_same_run(store, live_id, replay_id)
