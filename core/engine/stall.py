"""What a phase already did, so that a round never repeats work that brought nothing new.

Every executed call is remembered by its action (tool and arguments). Before a round
runs, a call that already succeeded in this phase is not executed again: a call that
writes files would apply its change twice (``port`` → ``listen_port`` → ``listen_listen_port``),
and a call that only reads would read the same thing — unless a file changed since it
ran. A call that failed and would meet the same workspace again is not run either. Such
tasks end ``skipped`` (with the earlier result) or ``failed`` (with the earlier error),
so the judge sees why.

A plan that brings nothing new — only calls that would not run again, the same plan as
an earlier round on an unchanged workspace included — is a stall: the first time the phase is replanned with the
evidence, the second time the phase ends with that reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from core.models.task import Task

STALLS_TO_END = 2
EVIDENCE_CHARS = 300


def action_key(tool: str, arguments: dict[str, Any]) -> str:
    return json.dumps([tool, arguments], sort_keys=True, ensure_ascii=False, default=str)


@dataclass
class Done:
    """One executed action as the phase remembers it."""

    round: int
    task_id: int
    ok: bool
    text: str
    changes_before: int  # the workspace change count when the round started


@dataclass
class StallGuard:
    """The phase's memory of actions and plans; ``writes`` says whether a call writes files."""

    writes: Callable[[str, dict[str, Any]], bool]
    actions: dict[str, Done] = field(default_factory=dict)
    stalls: int = 0

    def repeat_of(self, tool: str, arguments: dict[str, Any], changes: int) -> Done | None:
        """The earlier run this call would only repeat, or None when it may run."""
        done = self.actions.get(action_key(tool, arguments))
        if done is None:
            return None
        if done.ok and self.writes(tool, arguments):
            return done  # its change is already made
        return done if changes == done.changes_before else None

    def stale(self, specs: list[dict[str, Any]], changes: int) -> str:
        """Evidence when this plan brings nothing new, else ""."""
        repeats = [(s, self.repeat_of(s["tool"], s["arguments"], changes)) for s in specs]
        if not all(done for _, done in repeats):
            return ""
        lines = []
        for spec, done in repeats:
            if done is None:
                continue
            outcome = "succeeded" if done.ok else "failed"
            text = " ".join(done.text.split())[:EVIDENCE_CHARS]
            lines.append(f"- {spec['tool']} {json.dumps(spec['arguments'], ensure_ascii=False)[:160]}"
                         f": {outcome} in round {done.round}: {text}")
        return ("Every task of this plan repeats a call already made in this phase, on the same "
                "files, so it would bring nothing new:\n" + "\n".join(lines))

    def hold_back(self, tasks: list[Task], changes: int) -> list[tuple[Task, str, Done]]:
        """The tasks of this round not to run, each with its reason and earlier run."""
        held = []
        for task in tasks:
            done = self.repeat_of(task.tool, task.arguments, changes)
            if done is None:
                continue
            if done.ok:
                reason = (f"not run again: the same call succeeded in round {done.round} "
                          f"(task {done.task_id}); its result then is below")
            else:
                reason = (f"not run again: the same call failed in round {done.round} and "
                          f"nothing changed since: {done.text[:EVIDENCE_CHARS]}")
            held.append((task, reason, done))
        return held

    def record(self, specs: list[tuple[str, Task]], round_no: int, changes_before: int) -> None:
        """Remember what the round's executed tasks did (keys taken before placeholders)."""
        for key, task in specs:
            if task.status in ("done", "failed") and task.started_at is not None:
                self.actions[key] = Done(round_no, task.id, task.status == "done",
                                         task.result if task.status == "done" else task.error,
                                         changes_before)
