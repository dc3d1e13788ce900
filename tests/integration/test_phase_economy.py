"""What the phase engine saves: calls it does not make and a prompt prefix providers can cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.script import analysis, judge, of, phases, plan, run, summary, task


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "README.md").write_text("# hello\n")
    return tmp_path


def test_every_call_after_the_analysis_starts_with_the_same_prefix(ws: Path) -> None:
    events, model = run([
        analysis("Read and note", phases=2),
        phases((1, "Read", []), (2, "Note", [1])),
        plan(task(1, "read_file", path="README.md")), judge([1]),
        plan(task(1, "write_file", path="notes.md", content="hello")), judge([1]),
        summary(),
    ], ws, request="please read the README and take a note")
    stages = [c.stage for c in of(events, "llm_call")]
    assert stages == ["request_analyser", "phase_planner", "plan", "judge", "plan", "judge",
                      "summarizer"]
    prefix = model.requests[1]["messages"][:2]
    assert [m["role"] for m in prefix] == ["system", "user"]
    assert "Structured request" in prefix[1]["content"]
    assert all(r["messages"][:2] == prefix for r in model.requests[1:])
    # each stage's instruction comes after the prefix, never inside it
    assert "phase_planner" not in prefix[1]["content"]
    assert "phase_planner" in model.requests[1]["messages"][-1]["content"]
    # the raw request stays in the analyser's context
    assert all("take a note" not in str(r["messages"]) for r in model.requests[1:])
    assert (ws / "notes.md").read_text() == "hello"
