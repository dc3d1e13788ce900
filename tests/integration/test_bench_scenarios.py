"""Every scenario of ``bench/bench_engines.py`` still runs as scripted on both engines.

The bench refuses a run that did not do the scenario's tool calls, left replies unasked for,
made a call the script holds no reply for or ended without a model-written summary; when
the phase engine stopped running a round that only reads back what the last round wrote,
"search then edit chain" was refused that way and the bench printed nothing until it was
run again by hand. The phase engine settles some rounds itself (a clean write round, a
read-only round before the draft's writes): the script must leave the judge out exactly
there, and the page must still show a Judge card for every round. Which authoring calls a
write makes depends on whether its file is offered as a program (a command sandbox and the
computed_files assist): both ways are run. A run asks the one-shot draft at most once: for
the first write of a file not offered as a program, after a read-only round before the
draft's writes, or — the phase engine only — after a round whose every write was offered as
a program while the request names workspace files the run has not written (the late draft,
which tells the files to change from those the request only reads). The phase engine asks
it before anything else when the request asks for changes, and its first round is the
draft's writes (``for_phase``): the report scenarios are one write there; and when the
request is one phase (not planned with first tasks), where a question's draft answers in
words and round 1 is planned (``drafts_first``). Both engines ask the analysis first.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bench.engine_runs import ENGINES, bench_settings, run_one
from bench.engine_scenarios import DRAFT_INSTRUCTION, Call, Scenario, scenarios
from bench.engine_writes import drafts_first, for_phase, program_offered


def settled_by_engine(s: Scenario) -> list[bool]:
    """Per round: whether the engine decides it (every write succeeded and there was one,
    or the next round is the engine's own write of the draft), not the judge."""
    rounds = [(p, r, calls) for p, phase in enumerate(s.rounds, start=1)
              for r, calls in enumerate(phase, start=1)]
    settled = []
    for n, (p, r, calls) in enumerate(rounds):
        writes = [i for i, call in enumerate(calls, start=1) if call[0] == "write_file"]
        clean = bool(writes) and not any((p, r, i) in s.failing for i in writes)
        following = rounds[n + 1][2] if n + 1 < len(rounds) else []
        drafted = bool(following) and all(call[0] == "write_file" and
                                           call[1]["instruction"] == DRAFT_INSTRUCTION
                                           for call in following)
        settled.append(clean or drafted)
    return settled


def writes(s: Scenario, rounds: list[list[list[Call]]] | None = None) -> list[str]:
    """The paths the scenario's write calls write (of ``rounds`` when given)."""
    return [call[1]["path"] for phase in (rounds or s.rounds) for calls in phase
            for call in calls if call[0] == "write_file"]


def late_draft(s: Scenario, assists_off: str) -> bool:
    """Whether the phase engine asks the draft after the first round's writes: that round
    writes, every write of it is worked out by a program (so none asks the draft), and the
    request names workspace files the round does not write."""
    offered = program_offered_in(assists_off)
    first = writes(s, [[s.rounds[0][0]]])
    return bool(first) and all(map(offered, first)) and bool(set(s.named_files()) - set(first))


def program_offered_in(assists_off: str) -> Callable[[str], bool]:
    """Whether a path's first write is offered as a program in the bench's run."""
    settings = bench_settings(False, assists_off)
    return lambda path: program_offered(path, settings)


@pytest.mark.parametrize("assists_off", ["", "computed_files"], ids=["programs", "drafts"])
@pytest.mark.parametrize("full", [False, True], ids=["lean", "full"])
@pytest.mark.parametrize("scenario", scenarios(), ids=lambda s: s.name)
def test_the_scenario_runs_as_scripted_on_every_engine(scenario: Scenario, full: bool,
                                                       assists_off: str) -> None:
    """``run_one`` raises where a run strays from the script. Every call is counted in the
    run's figures; the phase engine shows one Judge card per round, asks the judge only for
    the rounds it cannot settle, and adds the analysis and the summary. Without the
    computed_files assist a text file's first write asks the one-shot draft, as on a
    machine without a command sandbox. The draft is asked once where a write, a read-only
    round or (phase engine) a request naming workspace files asks it, else never; after a
    write's own call exactly where the late draft is due (``late_draft``)."""
    for engine in ENGINES:
        ran = for_phase(scenario) if engine == "phase" else scenario
        rounds = [(p, r) for p, phase in enumerate(ran.rounds, start=1)
                  for r in range(1, len(phase) + 1)]
        settled = settled_by_engine(ran)
        offered = program_offered_in(assists_off)
        drafted_by_a_write = any(not offered(path) for path in writes(ran))
        first = engine == "phase" and drafts_first(ran)
        late = late_draft(ran, assists_off) and not first
        draft_round = any(settled[n] and not writes(ran, [[calls]])
                          for n, calls in enumerate(c for phase in ran.rounds for c in phase))
        run = run_one(scenario, engine, full, assists_off)
        stages, drafts = run.model.stages, run.model.drafts
        assert not run.model.left_over() and not run.model.unscripted
        assert run.figures["calls"] == len(stages)
        assert stages[0] == "request_analyser"
        if engine == "phase":
            assert [(p, r) for p, r, _ in run.cards] == rounds
            assert [by_engine for _, _, by_engine in run.cards] == settled
            assert stages.count("judge_tasks") == settled.count(False)
            assert stages[-1] == "summarizer"
            assert len(drafts) == (drafted_by_a_write or late or draft_round or first)
            first_authoring = stages.index("auto") if "auto" in stages else len(stages)
            assert (bool(drafts) and drafts[0] > first_authoring) == late
            # the draft first comes before any plan; for a request for changes no Plan call
            # is made, for a question's draft (words) round 1 is planned
            assert (first and drafts[0] == first_authoring and
                    ("plan_tool_call" in stages) != ran.changes_requested) or not first
        else:  # the classic loop asks the draft only for a write
            assert len(drafts) == drafted_by_a_write
