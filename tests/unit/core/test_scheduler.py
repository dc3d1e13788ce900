"""Topological levels, cycles and refusals."""

from __future__ import annotations

import pytest

from core.engine.execution.scheduler import find_cycle, order_phases, schedule


def test_levels_respect_dependencies_and_priority() -> None:
    plan = schedule({1: [], 2: [], 3: [1, 2], 4: [3]}, {1: 1, 2: 9})
    assert plan.levels == [[2, 1], [3], [4]]
    assert plan.refused == {}


def test_cycles_and_unknown_ids_are_refused_with_their_dependents() -> None:
    plan = schedule({1: [2], 2: [1], 3: [9], 4: [3], 5: []})
    assert plan.levels == [[5]]
    assert "dependency cycle" in plan.refused[1] and "dependency cycle" in plan.refused[2]
    assert "unknown task id(s) [9]" in plan.refused[3]
    assert "refused task(s) [3]" in plan.refused[4]


def test_self_dependency() -> None:
    assert schedule({1: [1]}).refused == {1: "depends on itself"}


def test_find_cycle_returns_a_closed_path() -> None:
    cycle = find_cycle({1: [2], 2: [3], 3: [1], 4: []})
    assert cycle[0] == cycle[-1] and set(cycle) == {1, 2, 3}
    assert find_cycle({1: [], 2: [1]}) == []


def test_phase_order_keeps_declared_order_when_possible() -> None:
    assert order_phases({1: [], 2: [1], 3: []}, [1, 2, 3]) == [1, 2, 3]
    assert order_phases({1: [3], 2: [], 3: []}, [1, 2, 3]) == [2, 3, 1]
    with pytest.raises(ValueError):
        order_phases({1: [2], 2: [1]}, [1, 2])
