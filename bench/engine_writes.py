"""The authoring replies of a scenario's writes, in the order both engines ask for them.

A write's content comes from plain authoring calls (``core.engine.authoring.stage``), which
take their replies from the bench model's ``"auto"`` queue. The run's first write of a file
that is not offered as a program asks the one-shot draft first (one call for the whole
run); the draft's reply is that write's own reply, which names its file, so the write makes
no call of its own — unless it fails (a reply without a file), when its own call follows
and fails too. A data or text file (``.md``, ``.txt``…) is offered as a program that prints
it where a command sandbox exists (the ``computed_files`` assist): its first write skips the
draft and makes its own call. The phase engine also asks the draft after a read-only round
of a request for changes (``engine_scripts.decisions``): then the draft's reply comes before
the write, which still makes its own call when its file is offered as a program. Without the
assist (``assists_off``) no file is offered as a program.
"""

from __future__ import annotations

from typing import Any

from bench.engine_scenarios import Call, Key, Scenario, authored_reply
from core.config import Settings
from core.engine.assists import parse_off
from core.engine.assists.computed_files import offers_program
from core.engine.phase.engine_verdict import draft_writes

Reply = dict[str, Any]


def levels(calls: list[Call]) -> list[list[tuple[int, Call]]]:
    """A round's calls by dependency level (the scenarios use two levels), ids from 1."""
    numbered = list(enumerate(calls, start=1))
    return [[(i, c) for i, c in numbered if not c[2]], [(i, c) for i, c in numbered if c[2]]]


def numbered_rounds(s: Scenario) -> list[tuple[int, int, list[Call]]]:
    return [(p, r, calls) for p, phase in enumerate(s.rounds, start=1)
            for r, calls in enumerate(phase, start=1)]


def writes_in_order(s: Scenario) -> list[tuple[Key, Call]]:
    """The scenario's writes in the order they run (round, dependency level, task id)."""
    return [((p, r, i), call) for p, r, calls in numbered_rounds(s) for level in levels(calls)
            for i, call in level if call[0] == "write_file"]


def program_offered(path: str, settings: Settings) -> bool:
    """Whether a write of ``path`` is offered as a program in a run with ``settings`` on
    this machine."""
    return "computed_files" not in parse_off(settings.assists_off) and \
        offers_program(path, settings.command_sandbox)


def draft_round(s: Scenario) -> list[Call]:
    """The round the phase engine plans from the draft after a read-only round: a write of
    the file the draft gives (the first write's), with the engine's own instruction."""
    writes = writes_in_order(s)
    if not writes or writes[0][0] in s.failing:
        return []
    return [(spec.tool, dict(spec.arguments), [])
            for spec in draft_writes([writes[0][1][1]["path"]])]


def write_replies(s: Scenario, settings: Settings, drafted_early: bool = False
                  ) -> dict[Key, list[Reply]]:
    """Each write's authoring replies in a run with ``settings`` (the draft's first where
    the write asks for it). ``drafted_early``: the phase engine asks the draft before the
    first write (after a read-only round)."""
    asked = False
    found: dict[Key, list[Reply]] = {}
    for key, call in writes_in_order(s):
        own = authored_reply(s, key, call)
        offered = program_offered(call[1]["path"], settings)
        if asked or offered and not drafted_early:
            found[key] = [own]
            continue
        asked = True
        found[key] = [own, own] if key in s.failing or offered else [own]
    return found
