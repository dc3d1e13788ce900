"""Replays of a real 1.5B model's replies: no succeeded edit applied twice, no identical rounds.

The recorded runs (tests/support/transcripts) repeated ``edit_file port → listen_port`` every
round until config.json said ``listen_listen_listen_listen_listen_listen_port``, and spent the
whole budget re-planning the same round. The scenarios here are built from those replies;
each asserts what a person sees: the files on disk and the run's events.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from core.engine.build import create_engine
from core.events import Event
from core.llm.scripted import ScriptedModel
from tests.support.script import analysis, kinds, of, phases, settings, summary

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "support" / "transcripts"


def recorded(name: str) -> list[dict[str, Any]]:
    return json.loads((TRANSCRIPTS / name / "replies.json").read_text())["replies"]


def reply(name: str, index: int) -> dict[str, Any]:
    """One recorded reply, its arguments decoded (the model's JSON was valid there)."""
    item = recorded(name)[index]
    arguments = item.get("arguments") or json.loads(item["raw_arguments"])
    return {"tool": item["tool"], "arguments": arguments}


# The recordings predate the one-shot draft that is now asked first, in phase 1, round 1,
# instead of planning that round. Its reply is not in them: a replay feeds this one where the
# call comes (after the analysis and the phase plan). It is cut off inside its block, so it
# gives no file and is no answer in words: round 1 is planned by the recorded plan, as in the
# recorded run, and the draft says nothing of what the request asks. The recorded analyses
# hold no reading either (they predate it), so the kind of request stays unknown: the engine
# treats none of these replays as a request to change files.
NO_DRAFT = {"text": "```python\ndef"}


def with_draft(replies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recorded replies with the draft's reply where the draft is asked: after the
    analysis and the phase plan."""
    return replies[:2] + [NO_DRAFT] + replies[2:]


def workspace(name: str, tmp_path: Path) -> Path:
    folder = tmp_path / name
    shutil.copytree(TRANSCRIPTS / name / "workspace", folder)
    return folder


def replay(model: ScriptedModel, folder: Path, request: str, **values: Any) -> list[Event]:
    async def go() -> list[Event]:
        engine = create_engine(settings(**values), folder, model=model, can_ask=False)
        return [event async for event in engine.run(request)]

    return asyncio.run(go())


def executed_rounds(events: list[Event]) -> list[tuple[int, frozenset[str]]]:
    """(the round's phase, the calls that really ran) per round that ran at least one call;
    phase ids repeat after a re-analysis, so rounds are told apart by their plan events."""
    rounds: list[tuple[int, dict[int, dict[str, Any]], set[str]]] = []
    for event in events:
        if event.kind == "tasks_planned":
            rounds.append((event.phase_id, {t["id"]: t for t in event.tasks}, set()))
        elif event.kind == "task_started":
            task = rounds[-1][1][event.task_id]
            rounds[-1][2].add(json.dumps([task["tool"], task["arguments"]], sort_keys=True))
    return [(phase, frozenset(calls)) for phase, _, calls in rounds if calls]


def started_calls(events: list[Event]) -> list[dict[str, Any]]:
    """The planned task of every task that really started, in order."""
    found, planned = [], {}
    for event in events:
        if event.kind == "tasks_planned":
            planned = {t["id"]: t for t in event.tasks}
        elif event.kind == "task_started":
            found.append(planned[event.task_id])
    return found


def test_the_repeated_rename_round_is_skipped_then_the_phase_stops(tmp_path: Path) -> None:
    folder = workspace("rename-key", tmp_path)
    (folder / "README.md").write_text("Set the setting port to 8000.\n")  # as it was by then
    again, verdict = reply("rename-key", 25), reply("rename-key", 26)
    assert verdict["arguments"]["next_action"] == "retry_failed"
    model = ScriptedModel([analysis("Rename port to listen_port", phases=2),
                           phases((1, "Rename", [], 5), (2, "Check", [], 1)),
                           NO_DRAFT,  # the draft gives no file: round 1 is planned
                           again, verdict, again, verdict, again, again,
                           # the phase has ended: the next phase's plan is what comes next
                           {"tool": "plan_tool_call", "arguments": {"tasks": [
                               {"tool": "read_file", "arguments": {"path": "README.md"}}]}},
                           {"tool": "judge_tasks", "arguments": {
                               "next_action": "end_phase", "user_summary": "README checked.",
                               "phase_completed": True}},
                           summary(), again, verdict, again, verdict])
    events = replay(model, folder, "Rename the setting port to listen_port everywhere.")
    assert (folder / "README.md").read_text() == "Set the setting listen_port to 8000.\n"
    assert json.loads((folder / "config.json").read_text()) == {
        "host": "0.0.0.0", "port": 8000, "debug": False}  # never edited by these plans
    readme_writes = [e for e in of(events, "file_changed") if e.path == "README.md"]
    assert len(readme_writes) == 1
    skipped = [e for e in of(events, "task_finished") if e.status == "skipped"]
    assert skipped and all("same call succeeded in phase 1, round 1" in e.error
                           for e in skipped)
    notices = [n.message for n in of(events, "notice")]
    assert "Phase 1, round 3: the plan only repeats earlier work; asking for a different plan." \
        in notices
    assert "Phase 1, round 4: the plan repeats earlier work again; the phase ends." in notices
    first = of(events, "phase_finished")[0]
    assert (first.status, first.rounds) == ("incomplete", 4)
    replan = model.requests[8]["messages"][-1]["content"]  # the plan asked after the stall
    assert "did not work" in replan and "edit_file" in replan and "succeeded in phase 1" in replan
    rounds = executed_rounds(events)
    assert len(rounds) == len(set(rounds))  # no identical round ran
    assert [e.name for e in of(events, "phase_started")] == ["Rename", "Check"]
    finished = events[-1]
    assert finished.status == "completed" and finished.llm_calls == 12
    assert model.remaining == 4  # the engine stopped asking for the same round


def test_the_recorded_rename_run_never_applies_the_rename_twice(tmp_path: Path) -> None:
    folder = workspace("rename-key", tmp_path)
    request = (TRANSCRIPTS / "rename-key" / "request.txt").read_text().strip()
    model = ScriptedModel(with_draft(recorded("rename-key")))
    events = replay(model, folder, request)
    assert kinds(events)[-2:] == ["summary", "run_finished"]
    config = json.loads((folder / "config.json").read_text())
    assert list(config) == ["listen_port"]  # was listen_listen_listen_listen_listen_listen_port
    for path in ("README.md", "server.py", "config.json"):
        assert "listen_listen" not in (folder / path).read_text()
    rounds = executed_rounds(events)
    assert len(rounds) == len(set(rounds))
    stalls = [n for n in of(events, "notice") if "repeats earlier work" in n.message]
    assert stalls
    judge_prompts = [r["messages"][-1]["content"] for r in model.requests  # the draft: no tools
                     if r["tools"] and r["tools"][0]["function"]["name"] == "judge_tasks"]
    for path in ("config.json", "server.py", "README.md"):  # the stubs of the first plan
        assert f"WARNING: {path} was replaced by much less content" in judge_prompts[0]


def test_the_recorded_add_function_run_keeps_plans_and_blocks_what_follows_a_failed_phase(
        tmp_path: Path) -> None:
    folder = workspace("add-function", tmp_path)
    request = (TRANSCRIPTS / "add-function" / "request.txt").read_text().strip()
    model = ScriptedModel(with_draft(recorded("add-function")))
    events = replay(model, folder, request)
    notices = [n.message for n in of(events, "notice")]
    # the plan with "overwrite": true on edit_file is kept, the argument dropped
    assert any("dropped the unknown argument 'overwrite'" in n for n in notices)
    assert not any("unknown field 'overwrite'" in n for n in notices)
    # recorded: phase 3 ran after phase 2 failed (and the run re-analysed from there)
    assert [(e.phase_id, e.status) for e in of(events, "phase_finished")] == [
        (1, "completed"), (2, "failed"), (3, "blocked"), (4, "blocked"), (5, "blocked")]
    assert [e.phase_id for e in of(events, "phase_started")] == [1, 2]
    assert any(n.startswith("Phase 3 (Test Code) is blocked and was not run: it depends on "
                            "phase 2 (Write Code), which failed") for n in notices)
    assert kinds(events)[-2:] == ["summary", "run_finished"]


def test_the_recorded_add_function_reanalysis_repairs_the_cycle_and_stops_repeating(
        tmp_path: Path) -> None:
    """The recorded run from its second analysis (after the engine re-analysed the request).
    The plan review that refuses a write of a file the request never mentions while the file
    it names is untouched guards requests known to change files; the recorded analysis holds
    no reading (it predates it) and the draft's stand-in says nothing, so the kind stays
    unknown and the review does not act. A reading that says "change textutils.py" would be a
    reply the model never gave, so the replay shows what the engine does with the recorded
    replies alone: the recorded plan runs (its read of the missing requirements.txt fails and
    the writes after it are blocked), the repeated plans end the phase, and the phases after
    it, which depend on it, are blocked."""
    folder = workspace("add-function", tmp_path)
    request = (TRANSCRIPTS / "add-function" / "request.txt").read_text().strip()
    replies = recorded("add-function")
    second = [i for i, r in enumerate(replies) if r.get("tool") == "request_analyser"][1]
    model = ScriptedModel(with_draft(replies[second:]))
    events = replay(model, folder, request)
    notices = [n.message for n in of(events, "notice")]
    # the phase plan with a dependency cycle is repaired, not thrown away
    assert any("phase dependency cycle" in n for n in notices)
    assert len(of(events, "phases_planned")[-1].phases) == 3
    assert of(events, "request_analysed")[0].reading["kind"] == "unknown"
    missing = [t for t in started_calls(events)
               if t["tool"] == "read_file" and "requirements" in t["arguments"]["path"]]
    assert len(missing) <= 3  # recorded: eight reads of the missing file in four rounds
    assert any("the plan only repeats earlier work" in n for n in notices)
    assert any("the plan repeats earlier work again; the phase ends" in n for n in notices)
    rounds = executed_rounds(events)
    assert len(rounds) == len(set(rounds))
    assert not any("which the request does not mention" in n for n in notices)
    assert sorted(p.name for p in folder.iterdir()) == ["textutils.py"]
    assert of(events, "file_changed") == []
    assert "def slugify" not in (folder / "textutils.py").read_text()
    # phase 1 ended without a task done: the phases after it are blocked, not run
    assert [(e.phase_id, e.status) for e in of(events, "phase_finished")] == [
        (1, "incomplete"), (2, "blocked"), (3, "blocked")]
    assert [e.phase_id for e in of(events, "phase_started")] == [1]
    assert events[-1].outcome == "failed"


@pytest.mark.parametrize("name", ["rename-key", "add-function"])
def test_a_replay_under_yes_never_ends_asking_for_clarification(name: str,
                                                               tmp_path: Path) -> None:
    folder = workspace(name, tmp_path)
    first = reply(name, 0)
    first["arguments"].update(clarification_needed=True,
                              clarification_questions=["Which files should change?"])
    model = ScriptedModel(with_draft([first] + recorded(name)[1:]))
    events = replay(model, folder, (TRANSCRIPTS / name / "request.txt").read_text())
    assert events[-1].status != "clarification_needed"
    assert of(events, "clarification") == []
    assert of(events, "phase_started")
    analysed = model.requests[1]["messages"][1]["content"]
    assert "Unanswered questions (Which files should change?)" in analysed
