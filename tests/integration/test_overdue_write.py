"""A request that asks for a change, plans that only repeat reads: the engine writes the file.

Replays the 1.5B Qwen's recorded run of the ``ex-query-string`` exercise (its plans listed and
read query.py four times; the phase ended stalled and the stub was never written) and checks
what a person sees: the file on disk, the notice that says why the engine planned the write,
the task card, and the run's outcome.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

from core.engine.requests import named_files
from core.engine.build import create_engine
from core.events import Event
from core.llm.scripted import ScriptedModel
from tests.support.script import authored, judge, of, settings, summary

TRANSCRIPT = Path(__file__).resolve().parents[1] / "support" / "transcripts" / "ex-query-string"
SOLUTION = '''"""URL query strings."""


def parse_query(text):
    result = {}
    for pair in text.removeprefix("?").split("&"):
        if pair:
            key, _, value = pair.partition("=")
            result.setdefault(key, []).append(value)
    return result


def build_query(params):
    return "&".join(f"{key}={value}" for key in sorted(params)
                    for value in ([params[key]] if isinstance(params[key], str) else params[key]))
'''


def recorded() -> list[dict[str, Any]]:
    return json.loads((TRANSCRIPT / "replies.json").read_text())["replies"]


def replay(replies: list[dict[str, Any]], folder: Path, request: str) -> tuple[list[Event],
                                                                                ScriptedModel]:
    model = ScriptedModel(replies)

    async def go() -> list[Event]:
        engine = create_engine(settings(), folder, model=model, can_ask=False)
        return [event async for event in engine.run(request)]

    return asyncio.run(go()), model


def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ex-query-string"
    shutil.copytree(TRANSCRIPT / "workspace", folder)
    return folder


def test_the_engine_writes_the_named_file_when_the_plans_only_repeat_reads(tmp_path: Path
                                                                           ) -> None:
    folder = workspace(tmp_path)
    request = (TRANSCRIPT / "request.txt").read_text().strip()
    replies = recorded()
    assert replies[6]["tool"] == "plan_tool_call"  # round 3: the list and read again
    events, model = replay(replies[:7] + [
        authored(SOLUTION, "query.py"),
        judge([1], summary="The functions are implemented."),
        summary("## Done\n\n- query.py implemented")], folder, request)
    namespace: dict[str, Any] = {}
    exec((folder / "query.py").read_text(), namespace)
    assert namespace["parse_query"]("?a=1&&b=2&a=3") == {"a": ["1", "3"], "b": ["2"]}
    notices = [n.message for n in of(events, "notice")]
    assert ("Phase 1, round 3: the plan only repeats earlier calls and nothing is written "
            "yet, though the request asks for changes; the engine plans the write of query.py "
            "itself.") in notices
    assert not any("repeats earlier work" in n for n in notices)
    planned = of(events, "tasks_planned")[-1]
    assert [(t["tool"], t["arguments"]["path"]) for t in planned.tasks] == [
        ("write_file", "query.py")]
    assert "Implement the parse_query and build_query functions" in \
        planned.tasks[0]["arguments"]["instruction"]  # Think's strategy
    author_prompt = model.requests[7]["messages"][-1]["content"]
    assert "raise NotImplementedError" in author_prompt  # the stub it was shown
    written = [e for e in of(events, "task_finished") if e.tool == "write_file"]
    assert [e.status for e in written] == ["done"]
    assert [e.path for e in of(events, "file_changed")] == ["query.py"]
    assert events[-1].outcome == "succeeded" and model.remaining == 0


def test_the_engine_plans_the_write_once_per_phase(tmp_path: Path) -> None:
    """An authored reply without a usable block fails the write; the plan that repeats the
    reads after it is held back as before (no second write by the engine), and the run is not
    a success."""
    folder = workspace(tmp_path)
    request = (TRANSCRIPT / "request.txt").read_text().strip()
    replies = recorded()
    broken = {"text": "I will implement the functions now."}
    events, _ = replay(replies[:7] + [broken,
                                      judge([], [1], completed=False, action="continue_phase",
                                            summary="The write failed."),
                                      replies[5], replies[6], summary()], folder, request)
    assert "raise NotImplementedError" in (folder / "query.py").read_text()
    notices = [n.message for n in of(events, "notice")]
    assert sum("the engine plans the write of query.py itself" in n for n in notices) == 1
    assert ("Phase 1, round 4: the plan only repeats earlier work; asking for a different "
            "plan.") in notices
    failed = [e for e in of(events, "task_finished") if e.tool == "write_file"]
    assert [e.status for e in failed] == ["failed"] and "block" in failed[0].error
    assert events[-1].outcome != "succeeded"


def test_a_request_that_forbids_changes_gets_no_write_from_the_engine(tmp_path: Path) -> None:
    folder = workspace(tmp_path)
    replies = recorded()
    events, _ = replay(replies[:9] + [summary()], folder,
                       "What does parse_query in query.py do? Do not change any file.")
    assert "raise NotImplementedError" in (folder / "query.py").read_text()
    assert not of(events, "file_changed")
    assert not any("the engine plans the write" in n.message for n in of(events, "notice"))


def test_named_files_are_the_workspace_files_a_text_names(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("")
    (tmp_path / "query.py").write_text("")
    (tmp_path / "test_query.py").write_text("")
    (tmp_path.parent / "outside.py").write_text("")
    text = ("Implement parse_query in query.py (see src/app.py, test_query.py, ../outside.py, "
            "missing.py, e.g. this); query.py again.")
    assert named_files(text, tmp_path) == ["query.py", "src/app.py"]
