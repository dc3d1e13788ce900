"""A phase whose dependency failed, was blocked or did nothing is blocked, not run; one after
an incomplete phase that did some work runs and is told what is missing (phase engine,
scripted model, real workspace)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.script import analysis, judge, of, phases, plan, run, summary, task

REQUIREMENTS = ["Build the parser module", "Document the parser usage",
                "Publish the release notes"]
REQUEST = "Build the parser module, document the parser usage, then publish the release notes."
PLANNED = phases((1, "Build parser module", []), (2, "Document parser usage", [1]),
                 (3, "Publish release notes", [2]))


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def start() -> list[dict[str, Any]]:
    """The analysis (each requirement quoting the request's words) and the phase plan."""
    return [analysis("Ship the parser", phases=3, complexity="complex",
                     requirements=[{"requirement": r, "quote": r} for r in REQUIREMENTS]),
            PLANNED]


# the one-shot draft, asked first in phase 1, is cut off inside its block: it gives no file
# and is no answer in words, so phase 1's first round is planned as the test needs
NO_DRAFT = {"text": "parser.py\n```python\ndef parse(text):"}


def claimed_summary(statuses: list[str]) -> dict[str, Any]:
    reply = summary("## Parser\n\n- phase 1 did not get done")
    reply["arguments"]["requirements"] = [
        {"requirement": r, "status": s, "evidence": "as the model saw it"}
        for r, s in zip(REQUIREMENTS, statuses)]
    return reply


def ended(events: list) -> list[tuple[int, str]]:
    return [(e.phase_id, e.status) for e in of(events, "phase_finished")]


def test_phases_after_a_failed_phase_are_blocked_not_run(ws: Path) -> None:
    unknown = plan(task(1, "no_such_tool"))
    events, model = run(start() + [NO_DRAFT] + [unknown] * 4 + [
        claimed_summary(["failed", "failed", "failed"])], ws, request=REQUEST)
    assert model.remaining == 0  # no plan was asked for phases 2 and 3
    assert [e.phase_id for e in of(events, "phase_started")] == [1]
    assert ended(events) == [(1, "failed"), (2, "blocked"), (3, "blocked")]
    said = [e.message for e in of(events, "notice") if "blocked" in e.message]
    assert said == [
        "Phase 2 (Document parser usage) is blocked and was not run: it depends on phase 1 "
        "(Build parser module), which failed (no valid plan could be made).",
        "Phase 3 (Publish release notes) is blocked and was not run: it depends on phase 2 "
        "(Document parser usage), which was blocked."]
    final = of(events, "summary")[0]
    assert final.generated_by == "model"
    statuses = [(r["requirement"], r["status"]) for r in final.requirements]
    # no task of phase 1 ever ran (no plan was valid): nothing of it was attempted
    assert statuses == [(REQUIREMENTS[0], "not_attempted"), (REQUIREMENTS[1], "not_attempted"),
                        (REQUIREMENTS[2], "not_attempted")]
    # the requirements are no longer tied to phases by the words they share, so the engine
    # says the same of each: a phase was blocked and no task of the run ran
    assert [r["evidence"] for r in final.requirements][1:] == [
        "Its phase was blocked and never ran.", "Its phase was blocked and never ran."]
    assert final.outcome == "failed"


def test_a_phase_after_one_that_ended_without_a_task_done_is_blocked(ws: Path) -> None:
    events, model = run(start() + [
        NO_DRAFT,
        plan(task(1, "read_file", path="missing.txt")),
        judge([], [1], completed=False, action="end_phase", reason="the notes are missing"),
        summary("## Parser\n\n- nothing could be read")], ws)
    assert model.remaining == 0
    assert ended(events) == [(1, "incomplete"), (2, "blocked"), (3, "blocked")]
    notice = next(e.message for e in of(events, "notice") if "Phase 2" in e.message)
    assert notice.endswith("it depends on phase 1 (Build parser module), which ended "
                           "incomplete without a single task done.")
    assert of(events, "run_finished")[0].outcome == "failed"


def test_a_phase_after_an_incomplete_phase_that_did_some_work_runs_and_is_told_what_is_missing(
        ws: Path) -> None:
    (ws / "parser.py").write_text("def parse(text):\n    return text.split()\n")
    events, model = run(start() + [
        NO_DRAFT,
        plan(task(1, "read_file", path="parser.py"), task(2, "read_file", path="grammar.txt")),
        judge([1], [2], completed=False, action="end_phase", reason="grammar.txt is missing"),
        plan(task(1, "write_file", path="USAGE.md", content="Call parse(text).\n")),
        plan(task(1, "write_file", path="NOTES.md", content="Parser released.\n")),
        summary("## Parser\n\n- documented and released")], ws, request=REQUEST)
    assert model.remaining == 0
    assert ended(events) == [(1, "incomplete"), (2, "completed"), (3, "completed")]
    assert (ws / "USAGE.md").read_text() == "Call parse(text).\n"
    second_plan = model.requests[5]["messages"]
    intro = next(m["content"] for m in second_plan
                 if m["role"] == "user" and "Phase 2 of 3" in str(m["content"]))
    assert ("This phase depends on phase 1 (Build parser module), which ended incomplete: "
            "1 of 2 task(s) done; grammar.txt is missing.") in intro
    assert "(read_file, failed): " in intro and "grammar.txt" in intro
    third_plan = model.requests[6]["messages"]
    assert "Phase 3 of 3" in str(third_plan)
    assert not any("which ended incomplete" in str(m["content"]) for m in third_plan)
    assert not [e for e in of(events, "notice") if "blocked" in e.message]
    # the clean writes of phases 2 and 3 were decided by the engine; phase 1 by the judge
    assert [(e.phase_id, e.by_engine) for e in of(events, "judged")] == [
        (1, False), (2, True), (3, True)]
