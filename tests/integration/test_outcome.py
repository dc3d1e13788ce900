"""What a run achieved (``outcome``) and the per-requirement checklist, from the engine's record."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.events import RunFinished, Summary
from tests.support.script import (
    analysis, authored, error, judge, of, phases, plan, reading, run, summary, task)


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "config.py").write_text("PORT = 8000\nDEBUG = True\n", encoding="utf-8")
    return folder


def ending(events: list) -> tuple[Summary, RunFinished]:
    assert [e.kind for e in events][-2:] == ["summary", "run_finished"]
    return events[-2], events[-1]


TWO_REQUIREMENTS = ["Set the port in config.py to 8080", "Turn DEBUG off in config.py"]
TWO_QUOTED = [{"requirement": r, "quote": r} for r in TWO_REQUIREMENTS]
TWO_ASKED = "Set the port in config.py to 8080 and turn DEBUG off in config.py."
CONFIG_TEST = ("import config\n\n\ndef test_the_port_and_debug():\n"
               "    assert (config.PORT, config.DEBUG) == (8080, False)\n")
# A draft cut off inside its block: no file is taken from it, and it is no answer in words,
# so the reading stays a change and round 1 is planned.
NO_DRAFT = {"text": "config.py\n```python\nPORT ="}


def test_a_clean_run_succeeds_with_every_requirement_done(ws: Path) -> None:
    """The workspace's test checks the written config.py: that check passing is what makes
    the run 'succeeded'."""
    (ws / "test_config.py").write_text(CONFIG_TEST, encoding="utf-8")
    events, model = run([
        analysis("Configure the server", requirements=TWO_QUOTED,
                 **reading("change", change=("config.py",))),
        authored("PORT = 8080\nDEBUG = False\n", "config.py"),  # the draft: round 1 writes it
        summary("## Done\n\nThe port is 8080 and debug is off."),
    ], ws, request=TWO_ASKED)
    final, finished = ending(events)
    assert (ws / "config.py").read_text(encoding="utf-8") == "PORT = 8080\nDEBUG = False\n"
    assert finished.status == "completed" and finished.outcome == "succeeded"
    assert final.outcome == "succeeded"
    assert finished.verification == "verified"
    assert finished.verification_line == "1 test passes"
    # the draft's write was clean and nothing failed: the engine decided the round, not a judge
    verdict, = of(events, "judged")
    assert verdict.by_engine and verdict.user_summary.startswith("Decided from the facts:")
    assert [c.stage for c in of(events, "llm_call")] == [
        "request_analyser", "author", "summarizer"]
    assert [r["requirement"] for r in final.requirements] == TWO_REQUIREMENTS
    assert [r["status"] for r in final.requirements] == ["done", "done"]
    for entry in final.requirements:
        assert "config.py written by task 1 in round 1 (write_file config.py)." in \
            entry["evidence"]
        assert "On the final files, 1 test passes (the workspace's tests, run by the engine)." \
            in entry["evidence"]


def test_a_phase_that_fails_all_its_tasks_is_not_a_success(ws: Path) -> None:
    events, _ = run([
        analysis("Fix the parser", requirements=["Fix parser.py so the tests pass"],
                 **reading("change")),
        NO_DRAFT,
        plan(task(1, "read_file", path="parser.py"),
             task(2, "edit_file", [1], path="parser.py", old_text="a", new_text="b")),
        judge([], [1, 2], completed=False, action="replan", level="planning",
              reason="parser.py does not exist"),
        plan(task(1, "read_file", path="src/parser.py")),
        judge([], [1], completed=False, action="end_phase", reason="no parser anywhere"),
        summary("## Could not fix\n\nThe parser file was not found.", highlights=[]),
    ], ws, request="Fix parser.py so the tests pass", think_stage="never")
    final, finished = ending(events)
    assert finished.status == "completed"
    assert finished.outcome == "failed"
    assert [r["requirement"] for r in final.requirements] == ["Fix parser.py so the tests pass"]
    assert [r["status"] for r in final.requirements] == ["failed"]
    assert final.requirements[0]["evidence"] == "No file was changed."
    assert sorted(p.name for p in ws.iterdir()) == ["config.py"]


def test_the_model_cannot_claim_a_requirement_the_record_contradicts(ws: Path) -> None:
    claimed = summary("## All done\n\nEverything works.")
    claimed["arguments"]["requirements"] = [
        {"requirement": "Fix parser.py so the tests pass", "status": "done",
         "evidence": "fixed it"}]
    events, _ = run([
        analysis("Fix the parser", requirements=["Fix parser.py so the tests pass"],
                 **reading("change")),
        NO_DRAFT,
        plan(task(1, "read_file", path="parser.py")),
        judge([1], completed=True, action="end_phase"),
        claimed,
    ], ws, request="Fix parser.py so the tests pass", think_stage="never")
    final, finished = ending(events)
    assert final.generated_by == "model"  # the claim reached the summary
    assert final.requirements[0]["requirement"] == "Fix parser.py so the tests pass"
    assert final.requirements[0]["status"] == "failed"
    assert "fixed it" not in final.requirements[0]["evidence"]
    assert finished.outcome == "failed"


def test_one_of_two_phases_done_is_partial(ws: Path) -> None:
    """A requirement is decided by the phases that changed the files it concerns: the port's
    requirement, written in phase 1, is done; the changelog's fails with phase 2 (NOTES.md was
    never written); the run is partial."""
    events, _ = run([
        analysis("Configure", phases=2, requirements=[
            {"requirement": "Set the port to 8080 in config.py",
             "quote": "Set the port to 8080 in config.py"},
            {"requirement": "Write the changelog NOTES.md",
             "quote": "write the changelog NOTES.md"}],
            **reading("change", change=("config.py",), create=("NOTES.md",))),
        phases((1, "Port", []), (2, "Changelog", [1])),
        NO_DRAFT,  # round 1 of phase 1 is planned: an edit, no authoring
        plan(task(1, "edit_file", path="config.py", old_text="PORT = 8000",
                  new_text="PORT = 8080")),
        plan(task(1, "read_file", path="NOTES.md")),
        judge([], [1], completed=False, action="end_phase", reason="no NOTES.md"),
        summary(),
    ], ws, request="Set the port to 8080 in config.py, then write the changelog NOTES.md.",
        think_stage="never")
    final, finished = ending(events)
    assert finished.outcome == "partial"
    assert [j.by_engine for j in of(events, "judged")] == [True, False]
    assert final.verification_line == "1 of 1 requested file is missing"
    assert [r["status"] for r in final.requirements] == ["done", "failed"]
    assert "config.py written by task 1" in final.requirements[0]["evidence"]
    assert (ws / "config.py").read_text(encoding="utf-8") == "PORT = 8080\nDEBUG = True\n"


def test_a_run_whose_every_stage_reply_was_unusable_failed(ws: Path) -> None:
    events, _ = run([{"text": "I think we should analyse this."}] * 2
                    + [{"text": "phases?"}] * 2 + [{"text": "a plan"}] * 4
                    + [{"text": "no summary either"}] * 2, ws)
    final, finished = ending(events)
    assert finished.outcome == "failed" and final.generated_by == "fallback"
    assert final.requirements and all(r["status"] == "not_attempted" for r in final.requirements)


def test_an_unreachable_model_fails_and_the_fallback_lists_the_goal(ws: Path) -> None:
    events, _ = run([error(0, "connection refused")], ws, request="Rename foo to bar")
    final, finished = ending(events)
    assert finished.status == "failed" and finished.outcome == "failed"
    assert [r["status"] for r in final.requirements] == ["not_attempted"]
    assert final.requirements[0]["requirement"] == "Rename foo to bar"


def test_a_classic_answer_is_held_to_the_request_it_answers(ws: Path) -> None:
    """The answer cites the line of config.py it rests on: that makes it 'succeeded'."""
    events, _ = run([
        analysis("Say which port config.py sets", **reading("question", read=("config.py",))),
        {"tool": "read_file", "arguments": {"path": "config.py"}},
        {"text": "The port is 8000: config.py sets `PORT = 8000`."},
    ], ws, request="Which port does config.py set?", use_phase_task=False)
    final, finished = ending(events)
    assert finished.outcome == "succeeded"
    assert finished.verification_line == "the answer cites config.py, line 1"
    assert final.requirements == [{
        "requirement": "Which port does config.py set?", "status": "done",
        "evidence": "Answered in the run's final reply. "
                    "Found by task 1 in round 1 (read_file config.py)."}]


def test_a_classic_summary_cannot_claim_a_change_the_loop_never_made(ws: Path) -> None:
    derived = summary("## Stopped\n\nThe config was read; nothing was changed.")
    derived["arguments"]["requirements"] = [
        {"requirement": "Change the port in config.py to 8080", "status": "done",
         "evidence": "claimed"}]
    events, _ = run([
        analysis("Change the port", **reading("change", change=("config.py",))),
        {"tool": "read_file", "arguments": {"path": "config.py"}},
        {"tool": "read_file", "arguments": {"path": "config.py"}},
        derived,
    ], ws, request="Change the port in config.py to 8080", use_phase_task=False,
        max_iterations=2)
    final, finished = ending(events)
    assert finished.status == "budget_exhausted" and finished.outcome == "failed"
    assert [r["requirement"] for r in final.requirements] == [
        "Change the port in config.py to 8080"]
    assert final.requirements[0]["status"] == "failed"  # claimed done; nothing was written
    assert final.requirements[0]["evidence"] == "No file was changed."
    assert (ws / "config.py").read_text(encoding="utf-8") == "PORT = 8000\nDEBUG = True\n"
    assert of(events, "summary")[0].generated_by == "model"
