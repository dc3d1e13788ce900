"""A request that asks for a change and a round that only read: the engine writes the draft.

Scripted after the 1.5B Qwen's recorded run of the ``ex-query-string`` exercise (its plans
listed and read query.py four times; the phase ended stalled and the stub was never written).
The recording itself can no longer be replayed: the engine now decides a read-only round of a
request to change files without a judge call (and so without Think), so the recorded judge
and Think replies would answer Plan calls; and the first round of a request to change files
is now the draft's write, not a Plan call. A first round that only reads still happens where
the phase planner hands the first tasks: the script gives the recorded plan's reads as those.
The scripts keep the recorded reads, request and workspace, and check what a person sees: the
file on disk, the task the engine planned, and the run's outcome.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

from core.engine.build import create_engine
from core.events import Event
from core.llm.scripted import ScriptedModel
from tests.support.script import analysis, authored, of, phases, plan, reading, settings, \
    summary, task

TRANSCRIPT = Path(__file__).resolve().parents[1] / "support" / "transcripts" / "ex-query-string"
SOLUTION = '''"""URL query strings."""

from urllib.parse import quote_plus, unquote_plus


def parse_query(text):
    result = {}
    for pair in text.removeprefix("?").split("&"):
        if pair:
            key, _, value = pair.partition("=")
            result.setdefault(unquote_plus(key, errors="strict"), []).append(
                unquote_plus(value, errors="strict"))
    return result


def build_query(params):
    return "&".join(f"{quote_plus(key)}={quote_plus(value)}" for key in sorted(params)
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


GOAL = "Implement parse_query(text) and build_query(params) in query.py"
READS = (task(1, "list_files", path="query.py"),
         task(2, "read_file", path="query.py", start_line=1, end_line=20))
SEARCH = task(3, "search_code", pattern="parse_query(text)", path="query.py")
# The reading a model now gives of the recorded request: a change of query.py, with the two
# examples the request states in prose written as code (they check the written file).
EXAMPLES = ('parse_query("?a=1&b=x+y&a=2&flag") == {"a": ["1", "2"], "b": ["x y"], "flag": [""]}',
            'build_query({"q": "red shoes", "a": ["1", "2"]}) == "a=1&a=2&q=red+shoes"')
READING = reading("change", change=("query.py",), examples=EXAMPLES)


def stalled_plans() -> list[dict[str, Any]]:
    """The recorded run's analysis goal and its plans: list and read, then the same with a
    search, then that again (the engine decides the read-only rounds itself). The first
    plan's reads come as the phase planner's first tasks (a Plan call would not be asked:
    the first round of a request to change files is the draft's write)."""
    return [analysis(GOAL, complexity="complex", **READING),
            phases((1, "Implement query.py", []), first_tasks=list(READS)),
            plan(*READS, SEARCH), plan(*READS, SEARCH)]


def test_after_a_read_only_round_the_engine_writes_the_files_the_draft_gives(
        tmp_path: Path) -> None:
    """The recorded reads only listed and read query.py: after the first such round the
    engine asks the draft (the one-shot prompt) and writes the file it gives, with no judge
    and no Plan call (the later recorded plans are never asked for). The request's examples,
    read as code, check the file; the analysis listed no requirement, so the request is the
    one requirement, and the values it states that no example uses ("q=red+shoes&page=2",
    "%zz", …) leave
    the run finished but not verified."""
    folder = workspace(tmp_path)
    request = (TRANSCRIPT / "request.txt").read_text().strip()
    events, model = replay(stalled_plans()[:2] + [
        authored(SOLUTION, "query.py"),
        summary("## Done\n\n- query.py implemented")], folder, request)
    namespace: dict[str, Any] = {}
    exec((folder / "query.py").read_text(), namespace)
    assert namespace["parse_query"]("?a=1&&b=2&a=3") == {"a": ["1", "3"], "b": ["2"]}
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "phase_planner",
                                                         "author", "summarizer"]
    first = of(events, "tasks_planned")[0]
    assert [t["tool"] for t in first.tasks] == ["list_files", "read_file"]  # only reads
    draft = model.requests[2]["messages"]
    assert draft[0]["content"].startswith("You are an expert programmer")
    assert draft[1]["content"].startswith(f"Request:\n{request}")
    planned = of(events, "tasks_planned")[-1]
    assert planned.reasoning == "the files the draft gives"
    assert [(t["tool"], t["arguments"]["path"]) for t in planned.tasks] == [
        ("write_file", "query.py")]
    assert [(j.round, j.by_engine) for j in of(events, "judged")] == [(1, True), (2, True)]
    assert events[-1].outcome == "unverified" and model.remaining == 0
    assert events[-1].verification_line == "2 checks of the request's examples pass"
    [requirement] = of(events, "summary")[0].requirements
    assert requirement["checked"] is False and '"q=red+shoes&page=2"' in requirement["evidence"]


def test_a_request_that_forbids_changes_gets_no_write_from_the_engine(tmp_path: Path) -> None:
    folder = workspace(tmp_path)
    replies = recorded()
    events, _ = replay(replies[:9] + [summary()], folder,
                       "What does parse_query in query.py do? Do not change any file.")
    assert "raise NotImplementedError" in (folder / "query.py").read_text()
    assert not of(events, "file_changed")
    assert not [t for p in of(events, "tasks_planned") for t in p.tasks
                if t["tool"] == "write_file"]



