"""A round's verdict the facts already settle, so the judge is not asked.

Two cases: (1) every task of the round succeeded, it wrote files, every written file parses
and no check the engine ran on them fails: the phase is complete — unless the draft also
changes files the request names that are not written yet: then the next round writes them
(the one-shot draft is asked now if no write asked it yet); (2) in the last phase of a request
to change files, every task succeeded but the round only read (nothing is written yet): the
next round writes the files the draft gives — the one-shot call is made then, and no Plan
call is needed (with no draft files, the judge decides). A request to change files starts
with that write too: its first round is the draft's files (``first_writes``), with no Plan
call. (3) That draft round's writes a check still fails after its candidates: the phase
ends incomplete, with what fails — further rounds would guess (on the evaluation suite, no
run passed through a round after such a draft, on either runtime). Anything else — a
failure, a failing check after a planned write, a question to answer — goes to the judge.
The verdict is recorded as the engine's on the Judge card.
"""

from __future__ import annotations

from pathlib import Path

from core.engine.execution.offered import WRITE
from core.shapes.reading import Reading
from core.shapes.stage_results import TaskSpec, Verdict
from core.shapes.task import Task

DONE = ("done", "skipped")


def engine_verdict(tasks: list[Task], wrote: list[str], failing: list[str],
                   broken: list[str], unwritten: list[str], *, changes_requested: bool,
                   written_before: bool, last_phase: bool, last_round: bool,
                   checked: str, drafted: bool = False) -> Verdict | None:
    """The verdict the facts give, or None when the judge must decide. ``wrote``: files the
    round changed; ``failing``: written files a check fails for; ``broken``: facts that
    speak against a write (does not parse, lost definitions); ``unwritten``: draft files
    the request names not written yet; ``checked``: what the checks found, for the card;
    ``drafted``: the round wrote the draft's files (``PhaseRounds._draft``)."""
    if not tasks or any(t.status not in DONE for t in tasks):
        return None
    if wrote:
        if failing and drafted and not broken:
            said = checked or f"a check fails on {', '.join(failing)}"
            return Verdict(user_summary=f"Decided from the facts: {', '.join(wrote)} written; "
                                        f"{said}. The draft fails it and no candidate did "
                                        "better; no further round is run on a guess.",
                           next_action="end_phase", phase_completed=False,
                           failed_reason=f"the draft fails the checks and no candidate did "
                                         f"better: {said}")
        if failing or broken:
            return None
        said = f"{', '.join(wrote)} written" + (f"; {checked}" if checked else
                                               "; no check ran on " +
                                               ("them" if len(wrote) > 1 else "it"))
        if unwritten:
            return Verdict(user_summary=f"Decided from the facts: {said}; the draft also "
                                        f"changes {', '.join(unwritten)}, which the request "
                                        "names: the next round writes it.",
                           next_action="continue_phase", phase_completed=False)
        return Verdict(user_summary=f"Decided from the facts: {said}.", next_action="end_phase",
                       phase_completed=True)
    if changes_requested and not written_before and last_phase and not last_round:
        return Verdict(user_summary="Decided from the facts: every task succeeded and nothing "
                                    "is written yet; the next round writes the files the draft "
                                    "gives.", next_action="continue_phase", phase_completed=False)
    return None


def first_writes(given: list[str], reading: Reading, workspace: Path) -> list[str]:
    """Of the files the draft gives (``given``), those the first round writes: the files the
    request's reading targets or names and the workspace's own; the new files it does not
    name only when the draft gives nothing else and the request names no workspace file (a
    request to create something new). A usage example or a test module the model adds
    unasked stays unwritten: a later round may still write it."""
    asked = set(reading.targets()) | set(reading.named)
    known = [p for p in given if p in asked or (workspace / p).exists()]
    if known or reading.named or reading.change:
        return known
    return list(given)


def draft_writes(paths: list[str]) -> tuple[TaskSpec, ...]:
    """The writes of the draft's files, as the next round's tasks."""
    return tuple(TaskSpec(id=n, tool=WRITE, title=f"write {path}",
                          arguments={"path": path, "instruction": "What the request asks."},
                          description="the draft of this file: what the model alone wrote")
                 for n, path in enumerate(paths, 1))
