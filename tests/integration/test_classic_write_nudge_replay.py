"""The classic loop's reminder to write, on the 1.5B Qwen's own replies.

``ex-query-string-classic`` is the evaluation runner's record of the classic loop on the
``ex-query-string`` exercise after the reminder existed (`8aa5c8f`, embedded provider). Before
it, the same first three replies (two identical searches of query.py, then the text "The
search code has already been called…") ended the run with the stub untouched; with it the
model's fourth reply writes query.py.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

from core.engine.authoring.blocks import code_blocks
from core.engine.build import create_engine
from core.events import Event
from core.llm.scripted import ScriptedModel
from tests.support.script import analysis, of, reading, settings

TRANSCRIPT = Path(__file__).resolve().parents[1] / "support" / "transcripts" / \
    "ex-query-string-classic"


def recorded() -> list[dict[str, Any]]:
    return json.loads((TRANSCRIPT / "replies.json").read_text())["replies"]


# The analysis the classic loop asks first (the recording predates it): a change of query.py.
ANALYSIS = analysis("Implement parse_query and build_query",
                    **reading("change", change=("query.py",)))


def replay(replies: list[dict[str, Any]], folder: Path) -> tuple[list[Event], ScriptedModel]:
    model = ScriptedModel([ANALYSIS, *replies])
    request = (TRANSCRIPT / "request.txt").read_text()

    async def go() -> list[Event]:
        engine = create_engine(settings(use_phase_task=False), folder, model=model,
                               can_ask=False)
        return [event async for event in engine.run(request)]

    return asyncio.run(go()), model


def test_the_recorded_run_writes_the_stub_after_one_reminder(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    shutil.copytree(TRANSCRIPT / "workspace", folder)
    replies = recorded()
    events, model = replay(replies, folder)

    written = (folder / "query.py").read_text()
    assert "NotImplementedError" not in written
    assert written.strip() == code_blocks(replies[4]["text"])[0].body.strip()
    compile(written, "query.py", "exec")
    reminders = [n.message for n in of(events, "notice") if "answered without writing" in n.message]
    assert reminders == ["The model answered without writing anything, though the request asks "
                         "for changes; it was asked once to write query.py or say why it cannot."]
    fourth = model.requests[4]["messages"]  # after the analysis
    assert fourth[-2] == {"role": "assistant", "content": replies[2]["text"]}
    assert "call write_file now with the path query.py" in fourth[-1]["content"]
    assert [(t.tool, t.status) for t in of(events, "task_finished")] == [
        ("search_code", "done"), ("write_file", "done")]
    assert events[-1].outcome == "partial"  # written, but the loop ended on a repeated call


def test_a_model_that_answers_the_reminder_in_text_again_ends_the_run_failed(
        tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    shutil.copytree(TRANSCRIPT / "workspace", folder)
    stub = (folder / "query.py").read_text()
    replies = recorded()
    events, model = replay(replies[:3] + [replies[2]], folder)
    assert (folder / "query.py").read_text() == stub
    assert len(model.requests) == 5
    assert events[-2].final_summary == replies[2]["text"]
    assert events[-1].outcome == "failed"
