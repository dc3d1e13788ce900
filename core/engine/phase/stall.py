"""What a run already did, so that a round never repeats work that brought nothing new.

Every executed call is remembered by its action (tool and arguments) for the whole run.
Before a round runs, a write that already succeeded in the run is not executed again (it
would apply its change twice: ``port`` → ``listen_port`` → ``listen_listen_port``); any
other call already made in this phase is not run again unless a file changed since (it
would read the same thing, or fail the same way). Such
tasks end ``skipped`` (with the earlier result) or ``failed`` (with the earlier error),
so the judge sees why. A write by instruction that failed is the exception, once: its
authoring call is a model call, told the earlier failure and sampled, so it may well succeed
(largest-file with the 1.5B model: the reply was cut off at its token limit, and the plan
that asked for the same write again was held back as a repeat until the phase ended).

A plan that brings nothing new — only calls that would not run again, the same plan as
an earlier round on an unchanged workspace included — is a stall: the first time the phase is replanned with the
evidence, the second time the phase ends with that reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from core.engine.execution.offered import is_authoring
from core.shapes.stage_results import TaskSpec
from core.shapes.task import Task

STALLS_TO_END = 2
EVIDENCE_CHARS = 300
AUTHORED_TRIES = 2  # runs of one failed write by instruction before it counts as a repeat


def action_key(tool: str, arguments: dict[str, Any]) -> str:
    return json.dumps([tool, arguments], sort_keys=True, ensure_ascii=False, default=str)


@dataclass
class Done:
    """One executed action as the phase remembers it."""

    phase: int
    round: int
    task_id: int
    ok: bool
    text: str
    changes_before: int  # the workspace change count when the round started
    runs: int = 1  # how many times the call ran in the run

    @property
    def where(self) -> str:
        return f"phase {self.phase}, round {self.round}"


@dataclass
class StallGuard:
    """One phase's stall count over the run's memory of actions; ``writes`` says whether a
    call writes files."""

    writes: Callable[[str, dict[str, Any]], bool]
    phase: int
    actions: dict[str, Done] = field(default_factory=dict)
    stalls: int = 0

    def repeat_of(self, tool: str, arguments: dict[str, Any], changes: int) -> Done | None:
        """The earlier run this call would only repeat, or None when it may run: a write
        that succeeded anywhere in the run, any other call made in this phase on the same
        workspace (a later phase may read again what an earlier one read)."""
        done = self.actions.get(action_key(tool, arguments))
        if done is None:
            return None
        if done.ok and self.writes(tool, arguments):
            return done  # its change is already made
        if not done.ok and is_authoring(tool, arguments) and done.runs < AUTHORED_TRIES:
            return None  # a new authoring call, told what went wrong
        return done if (done.phase, done.changes_before) == (self.phase, changes) else None

    def stale(self, specs: Sequence[TaskSpec], changes: int) -> str:
        """Evidence when this plan brings nothing new, else "": every task repeats an earlier
        call, or waits for a repeated failure (it would be blocked again)."""
        repeats = {s.id: self.repeat_of(s.tool, s.arguments, changes) for s in specs}
        hopeless = {i for i, done in repeats.items() if done is not None and not done.ok}
        grew = True
        while grew:
            waiting = {s.id for s in specs if s.id not in hopeless and hopeless & set(s.dependencies)}
            hopeless |= waiting
            grew = bool(waiting)
        if not all(repeats[s.id] or s.id in hopeless for s in specs):
            return ""
        lines = []
        for spec in specs:
            call = f"- {spec.tool} {json.dumps(spec.arguments, ensure_ascii=False)[:160]}"
            done = repeats[spec.id]
            if done is None:
                lines.append(f"{call}: would be blocked again (it waits for a call that fails)")
                continue
            outcome = "succeeded" if done.ok else "failed"
            text = " ".join(done.text.split())[:EVIDENCE_CHARS]
            lines.append(f"{call}: {outcome} in {done.where}: {text}")
        return ("Every task of this plan repeats a call already made in this run, on the same "
                "files, so it would bring nothing new:\n" + "\n".join(lines))

    def hold_back(self, tasks: list[Task], changes: int) -> list[tuple[Task, str, Done]]:
        """The tasks of this round not to run, each with its reason and earlier run."""
        held = []
        for task in tasks:
            done = self.repeat_of(task.tool, task.arguments, changes)
            if done is None:
                continue
            if done.ok:
                reason = (f"not run again: the same call succeeded in {done.where} "
                          f"(task {done.task_id}); its result then is below")
            else:
                reason = (f"not run again: the same call failed in {done.where} and "
                          f"nothing changed since: {done.text[:EVIDENCE_CHARS]}")
            held.append((task, reason, done))
        return held

    def record(self, specs: list[tuple[str, Task]], phase_id: int, round_no: int,
               changes_before: int) -> None:
        """Remember what the round's executed tasks did (keys taken before placeholders)."""
        for key, task in specs:
            if task.status in ("done", "failed") and task.started_at is not None:
                earlier = self.actions.get(key)
                self.actions[key] = Done(phase_id, round_no, task.id, task.status == "done",
                                         task.result if task.status == "done" else task.error,
                                         changes_before, earlier.runs + 1 if earlier else 1)
