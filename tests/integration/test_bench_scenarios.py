"""Every scenario of ``bench/bench_engines.py`` still runs as scripted on both engines.

The bench refuses a run that did not do the scenario's tool calls, left replies unasked for
or ended without a model-written summary; when the phase engine stopped running a round
that only reads back what the last round wrote, "search then edit chain" was refused that
way and the bench printed nothing until it was run again by hand.
"""

from __future__ import annotations

import pytest

from bench.engine_runs import ENGINES, run_one
from bench.engine_scenarios import Scenario, scenarios


@pytest.mark.parametrize("full", [False, True], ids=["lean", "full"])
@pytest.mark.parametrize("scenario", scenarios(), ids=lambda s: s.name)
def test_the_scenario_runs_as_scripted_on_every_engine(scenario: Scenario, full: bool) -> None:
    """``run_one`` raises where a run strays from the script; the phase engine plans every
    round and adds the analysis and the summary."""
    rounds = sum(len(phase) for phase in scenario.rounds)
    for engine in ENGINES:
        figures, model = run_one(scenario, engine, full)
        assert not model.left_over()
        if engine == "phase":
            assert figures["calls"] >= rounds + 2
