"""The person's requirements, and the evidence for each, from the run's own record.

**Grounded or assumed.** A requirement the analysis lists is the person's when it points at
their words: its quote appears in the request, or most of its content words do. One that
cannot be grounded (more than half its content words must be the request's: "read the
strands from the input files" for a request that names no input file is not) is an
*assumption*: shown as such, planned after the requirements, never counted
in the outcome.

**Evidence** is built from what ran, as sentences a person reads: for a request to change
files, the writes that made the change and what checked the final files; for a question, the
reads, searches and commands that found the answer. A command that ran before the change is
no evidence that the change works. A requirement is ``done`` only with such evidence, in a
phase the record shows done, and while no check fails on the final files; the model's word
can lower a status, never raise it, and cannot lower it when checks the engine ran on the
final files passed (``verified``): what ran outweighs what a model says.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from core.engine.reports import PhaseRecord
from core.engine.requests import FILE_NAME, mentions
from core.engine.verification.state import VerificationState
from core.shapes.phase import Phase
from core.shapes.task import Task

RequirementStatus = Literal["done", "failed", "not_attempted"]
STATUSES = ("done", "failed", "not_attempted")
EVIDENCE_CHARS = 400
GROUNDED_SHARE = 0.5
WRITES = ("write_file", "edit_file")
_WORD = re.compile(r"[a-z0-9_]{3,}|[\u3400-\u9fff]")
_COMMON = {"the", "and", "for", "with", "that", "this", "from", "into", "all", "must", "should",
           "make", "use", "file", "files", "each", "every", "are", "not", "its", "new", "will",
           "has", "have", "can", "which", "when", "then", "than", "function", "code",
           "implement", "implemented", "correct", "correctly", "properly", "work", "works"}


def words_of(text: str) -> set[str]:
    """Content words, lightly stemmed (a plural or past tense matches its root)."""
    found = set()
    for word in _WORD.findall(text.lower()):
        if word in _COMMON:
            continue
        for end in ("ing", "ed", "es", "s"):
            if len(word) > len(end) + 3 and word.endswith(end):
                word = word[:-len(end)]
                break
        found.add(word)
    return found


def _squeezed(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def grounded(requirement: str, quote: str, request: str) -> bool:
    """Whether a requirement points at the person's words (see the module's docstring)."""
    said = _squeezed(request)
    if len(_squeezed(quote)) >= 3 and _squeezed(quote) in said:
        return True
    asked = words_of(request)
    for text in (quote, requirement):
        wanted = words_of(text)
        if wanted and len(wanted & asked) > GROUNDED_SHARE * len(wanted):
            return True
    return False


def _last_round_clean(phase: Phase) -> bool:
    last = [t for t in phase.tasks if t.round == phase.rounds]
    return bool(last) and all(t.status in ("done", "skipped") for t in last)


def phase_status(phase: Phase) -> RequirementStatus:
    """A phase as the record shows it: done (ended complete with a clean last round), failed
    (work ran but did not get there) or not_attempted (no task of it ever ran)."""
    if not any(t.started_at is not None or t.status in ("failed", "blocked") for t in phase.tasks):
        return "not_attempted"
    if phase.status == "completed" and _last_round_clean(phase):
        return "done"
    return "failed"


def _phase_words(record: PhaseRecord) -> set[str]:
    phase = record.phase
    parts = [phase.name, phase.goal, *record.changed_files]
    for task in phase.tasks:
        parts += [task.title, task.description, " ".join(str(v) for v in task.arguments.values())]
    return words_of(" ".join(parts))


def attributed(requirement: str, records: list[PhaseRecord]) -> list[PhaseRecord]:
    """The phases a requirement is about: those sharing the most words with it, else all."""
    live = [r for r in records if r.phase.status != "superseded"]
    wanted = words_of(requirement)
    scored = [(len(wanted & _phase_words(r)), r) for r in live]
    best = max((score for score, _ in scored), default=0)
    return [r for score, r in scored if score == best and best > 0] or live


def _task_line(task: Task, phase: int = 0) -> str:
    """"task 2 in round 1 (write_file calc.py)", with the phase when the run had several."""
    arguments = task.arguments
    target = arguments.get("path") or arguments.get("command") or arguments.get("pattern") \
        or arguments.get("query") or ""
    shown = f" {str(target)[:80]}" if target else ""
    where = f"phase {phase}, round {task.round}" if phase else f"round {task.round}"
    return f"task {task.id} in {where} ({task.tool}{shown})"


def _tasks(records: list[PhaseRecord], several: bool) -> list[tuple[Task, int]]:
    return [(t, r.phase.id if several else 0) for r in records for t in r.phase.tasks]


def _closest(requirement: str, writes: list[tuple[Task, int]]) -> list[tuple[Task, int]]:
    """The writes a requirement is most about (sharing the most words with its path,
    arguments and result), else every write."""
    wanted = words_of(requirement)
    scored = [(len(wanted & words_of(" ".join([*t.changed, *map(str, t.arguments.values()),
                                               t.result]))), (t, p)) for t, p in writes]
    best = max((score for score, _ in scored), default=0)
    return [w for score, w in scored if score == best] if best else writes


def change_evidence(records: list[PhaseRecord], state: VerificationState,
                    several: bool = False, requirement: str = "") -> tuple[bool, str]:
    """Whether the records hold a write that made a change, and the sentences saying so."""
    writes = _closest(requirement, [(t, p) for t, p in _tasks(records, several)
                                    if t.tool in WRITES and t.status == "done" and t.changed])
    changed = sorted({path for r in records for path in r.changed_files})
    if not writes and not changed:
        return False, "No file was changed."
    parts = [f"{', '.join(t.changed)} written by {_task_line(t, p)}." for t, p in writes[-3:]]
    if not writes:
        parts.append(f"Changed by a command: {', '.join(changed[:4])}.")
    parts.append(" ".join(state.sentences) if state.checked else
                 "Nothing checked the final files, so the change is not verified.")
    return True, " ".join(parts)


def answer_evidence(records: list[PhaseRecord], several: bool = False) -> tuple[bool, str]:
    """Whether the records hold a read, search or command that succeeded, and what ran."""
    looks = [(t, p) for t, p in _tasks(records, several)
             if t.tool not in WRITES and t.status == "done"]
    if not looks:
        return False, "No task found anything."
    return True, "Found by " + "; ".join(_task_line(t, p) for t, p in looks[-3:]) + "."


def record_entry(requirement: str, records: list[PhaseRecord], state: VerificationState,
                 changes: bool, answered: bool = False) -> dict[str, Any]:
    """The engine's own verdict on one requirement, with its evidence."""
    about = attributed(requirement, records)
    statuses = [phase_status(r.phase) for r in about]
    if any(r.phase.status == "blocked" for r in about) and all(
            s == "not_attempted" for s in statuses):
        return {"requirement": requirement, "status": "not_attempted",
                "evidence": "Its phase was blocked and never ran."}
    several = len([r for r in records if r.phase.status != "superseded"]) > 1
    wrote = changes or any(r.changed_files for r in records)
    has, evidence = change_evidence(records, state, several, requirement) if wrote \
        else answer_evidence(about, several)
    if answered and not changes:
        has, evidence = True, "Answered in the run's final reply. " + evidence
    phases_done = bool(statuses) and all(s == "done" for s in statuses) or answered
    if has and phases_done and not _fails(requirement, state):
        status: RequirementStatus = "done"
    elif any(s != "not_attempted" for s in statuses) or has:
        status = "failed"
    else:
        status = "not_attempted"
    return {"requirement": requirement, "status": status, "evidence": evidence[:EVIDENCE_CHARS]}


def _fails(requirement: str, state: VerificationState) -> bool:
    """Whether the failing ``state`` bears on ``requirement``: every failing check does,
    except a requested file missing, which spares a requirement that names files, none of
    them missing ("Set the port in config.py" beside a missing NOTES.md)."""
    if state.state != "failing" or not state.only_missing:
        return state.state == "failing"
    return not FILE_NAME.search(requirement) or any(
        mentions(requirement, name) for name in state.missing)


def account(requirements: list[str], records: list[PhaseRecord], state: VerificationState,
            changes: bool, claimed: list[dict[str, Any]] | None = None,
            answered: bool = False) -> list[dict[str, Any]]:
    """One entry per requirement, in order: the engine's status and evidence; a model's
    status (matched by position or text) only where it is lower and the final files are not
    verified."""
    claimed = [c for c in (claimed or []) if isinstance(c, dict)]
    by_text = {str(c.get("requirement", "")).strip().lower(): c for c in claimed}
    entries = []
    for index, requirement in enumerate(requirements):
        own = record_entry(requirement, records, state, changes, answered)
        model = by_text.get(requirement.strip().lower())
        if model is None and index < len(claimed) and len(claimed) == len(requirements):
            model = claimed[index]
        entries.append(own if state.state == "verified" else _lowered(own, model))
    return entries


def _lowered(own: dict[str, Any], model: dict[str, Any] | None) -> dict[str, Any]:
    """``own`` with the model's status where the model says less (failed for done)."""
    if model is None or model.get("status") not in STATUSES or own["status"] != "done":
        return own
    if model["status"] == "failed":
        return {**own, "status": "failed",
                "evidence": f"The summarizer found it not met. {own['evidence']}"[
                    :EVIDENCE_CHARS]}
    return own
