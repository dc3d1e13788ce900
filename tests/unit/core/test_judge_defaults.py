"""A verdict without next_action (small models leave optional fields out) still counts; one
that does not say whether the goal is reached does not."""

from __future__ import annotations

from typing import Any

import pytest

from core.engine.stages.schemas import parse_judge
from core.schema import SchemaError


def _accept(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return arguments


def judge(**fields: Any) -> dict[str, Any]:
    return parse_judge({"user_summary": "The version was read from setup.cfg.", **fields},
                       ["read_file", "search_code"], 8, _accept)


def test_a_reached_goal_without_an_action_ends_the_phase() -> None:
    verdict = judge(phase_completed=True)
    assert verdict.next_action == "end_phase" and verdict.phase_completed is True


def test_a_verdict_without_goal_or_action_goes_on() -> None:
    verdict = judge(phase_completed=False)
    assert verdict.next_action == "continue_phase" and verdict.phase_completed is False


def test_next_tasks_without_an_action_continue_the_phase() -> None:
    verdict = judge(phase_completed=False,
                    next_tasks=[{"tool": "read_file", "arguments": {"path": "a.txt"}}])
    assert verdict.next_action == "continue_phase"
    assert [t.tool for t in verdict.next_tasks] == ["read_file"]


def test_an_explicit_action_is_kept() -> None:
    assert judge(phase_completed=True, next_action="retry_failed").next_action == \
        "retry_failed"


def test_a_verdict_that_only_summarises_is_refused_with_what_is_missing() -> None:
    """Seen with the 1.5B model: ``{"user_summary": ...}`` alone left the phase open, and the
    next Plan call only read back the file just written."""
    with pytest.raises(SchemaError, match="missing required field 'phase_completed'"):
        judge()
