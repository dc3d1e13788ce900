"""The authoring replies of a scenario's writes, in the order both engines ask for them.

A write's content comes from plain authoring calls (``core.engine.authoring.stage``), which
take their replies from the bench model's ``"auto"`` queue. The run's first write of a file
that is not offered as a program asks the one-shot draft first (one call for the whole
run); the draft's reply is the first write's own reply, which names its file, so that write
makes no call of its own — unless it fails (a reply without a file), when its own call
follows and fails too. A data or text file (``.md``, ``.txt``…) is offered as a program that
prints it where a command sandbox exists (the ``computed_files`` assist): its first write
skips the draft and makes its own call. The phase engine also asks the draft after a round
when no write asked it yet: a read-only round of a request for changes
(``engine_scripts.decisions``), or any round while the request names workspace files the
run has not written (to tell the files to change from those it only reads); a request for
changes asks it before the first round, whose writes are the draft's files (``for_phase``),
and so does a one-phase question, whose draft answers in words (``drafts_first``).
The draft's reply then comes before the next write, which still makes its own call when its file is
offered as a program, or after the round's writes: it gives the file just written, so
nothing is left to write. Without the assist (``assists_off``) no file is offered as a
program.
"""

from __future__ import annotations

from dataclasses import replace
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


def for_phase(s: Scenario) -> Scenario:
    """The scenario as the phase engine runs it. A request for changes starts with the
    draft's writes, with no Plan call (``PhaseRounds._draft``): the draft, which saw the
    workspace's files, gives the file of the scenario's first write, so the run's work is
    that one write; the reads the classic loop makes first are not needed. Raises
    ``ValueError`` for a request for changes whose draft gives no file (not modelled)."""
    if not s.changes_requested:
        return s
    first = draft_round(s)
    if not first:
        raise ValueError(f"{s.name}: the draft gives no file; the bench does not model that")
    return replace(s, rounds=[[first]], failing=frozenset())


def drafts_first(s: Scenario) -> bool:
    """Whether the phase engine asks the draft before its first round (of ``for_phase``): a
    request for changes, or a one-phase request (its first round is not planned with the
    phases), where the draft of a question answers in words and round 1 is planned."""
    return s.changes_requested or len(s.rounds) == 1


def draft_reply(s: Scenario) -> tuple[Reply, set[str]]:
    """The one-shot draft's reply (the first write's own reply, which names its file) and
    the files it gives (none when that write fails or the scenario writes nothing)."""
    writes = writes_in_order(s)
    if not writes:
        return {"text": "The request asks for no change to the files."}, set()
    key, call = writes[0]
    return authored_reply(s, key, call), set() if key in s.failing else {call[1]["path"]}


def authoring_calls(s: Scenario, settings: Settings, decided: list[str] | None = None
                    ) -> list[tuple[Key | None, Reply]]:
    """Every authoring call's reply in the order the engine asks for them, each with the
    write that asked it (``None``: the phase engine's draft after a round). ``decided``:
    who decides each round (``engine_scripts.decisions``) for the phase engine, which asks
    the draft before its first round when the request asks for changes (``for_phase``) or is
    one phase (``drafts_first``), or after a round when no write asked it yet and the round
    is read-only before the draft's writes (``"draft"``) or the request names workspace files
    the run has not written;
    ``None`` for the classic loop, which asks it only for a write. Raises
    ``ValueError`` where the draft would give a named file the scenario does not write."""
    reply, drafted = draft_reply(s)
    named = s.named_files() if decided is not None else []
    asked, started, written = False, set(), set()
    found: list[tuple[Key | None, Reply]] = []
    if decided is not None and drafts_first(s):  # the phase engine's draft first
        if drafted and not s.changes_requested:
            raise ValueError(f"{s.name}: the draft of a question gives a file, which makes "
                             "the run a change; the bench does not model that")
        asked = True
        found.append((None, reply))
    for n, (p, r, calls) in enumerate(numbered_rounds(s)):
        for level in levels(calls):
            for i, call in level:
                if call[0] != "write_file":
                    continue
                key, path = (p, r, i), call[1]["path"]
                first = path not in started
                started.add(path)
                if first and not asked and not program_offered(path, settings):
                    asked = True
                    found.append((key, reply))
                if not first or path not in drafted or program_offered(path, settings):
                    found.append((key, authored_reply(s, key, call)))
                if key not in s.failing:
                    written.add(path)
        if decided is None or asked:
            continue
        if decided[n] == "draft" or any(f not in written for f in named):
            asked = True
            found.append((None, reply))
            left = sorted(f for f in drafted - written if f in s.targets())
            if decided[n] == "written" and left:
                raise ValueError(f"{s.name}: the draft asked after round {p}.{r} changes "
                                 f"{left}, which the request names: the next round writes it")
    return found


def write_replies(s: Scenario, settings: Settings) -> dict[Key, list[Reply]]:
    """Each write's authoring replies in a classic run with ``settings`` (the draft's first
    where the write asks for it)."""
    found: dict[Key, list[Reply]] = {key: [] for key, _ in writes_in_order(s)}
    for key, reply in authoring_calls(s, settings):
        if key is not None:
            found[key].append(reply)
    return found


def phase_replies(s: Scenario, settings: Settings, decided: list[str]) -> list[Reply]:
    """The phase engine's authoring replies in order (its ``"auto"`` queue)."""
    return [reply for _, reply in authoring_calls(s, settings, decided)]
