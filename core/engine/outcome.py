"""What a run achieved, decided from the engine's own record, never from the model's word alone.

``decide_outcome`` says ``succeeded`` / ``partial`` / ``failed`` from facts the engine
counted (tasks done or failed, files changed, phases ended, stage replies usable). A phase
the judge (or Think) called complete only counts where the record agrees: its last round
left no failed task. ``account_requirements`` gives one entry per requirement of the
analysis, in order: the model's entries where the record bears them out, else the engine's.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from core.engine.reports import PhaseRecord
from core.models.phase import Phase

Outcome = Literal["succeeded", "partial", "failed"]
RequirementStatus = Literal["done", "failed", "not_attempted"]
STATUSES = ("done", "failed", "not_attempted")
EVIDENCE_CHARS = 200
_WORD = re.compile(r"[a-z0-9_]{3,}")
_COMMON = {"the", "and", "for", "with", "that", "this", "from", "into", "all", "must", "should",
           "make", "use", "file", "files", "each", "every", "are", "not", "its", "new"}


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


def decide_outcome(status: str, records: list[PhaseRecord], usable_replies: int,
                   requirements: list[dict[str, Any]], answered: bool = False,
                   changes_requested: bool = False, checks_failing: bool = False) -> Outcome:
    """``succeeded``: every phase done by the record (ended complete, as the judge or Think
    decided, with a clean last round; in the classic loop an answer with nothing failing in
    its last batch) and every requirement done; ``failed``: nothing
    achieved (no phase or requirement done, no file changed, no answer), no usable stage
    reply at all, or a request to change files in which no file changed; else ``partial``
    (also when a written file fails checks of the request's examples)."""
    phases = [r.phase for r in records if r.phase.status != "superseded"]
    phases_done = [phase_status(p) == "done" for p in phases]
    changed = sum(len(r.changed_files) for r in records)
    if changes_requested and not changed:
        return "failed"
    achieved = any(phases_done) or changed > 0 or answered or any(
        r.get("status") == "done" for r in requirements)
    if usable_replies == 0 or not achieved:
        return "failed"
    clean = bool(phases) and all(phases_done)
    if answered and phases and not any(p.tasks for p in phases):
        clean = True
    all_met = all(r.get("status") == "done" for r in requirements)
    if status == "completed" and clean and all_met and not checks_failing:
        return "succeeded"
    return "partial"


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _COMMON}


def _phase_words(record: PhaseRecord) -> set[str]:
    phase = record.phase
    parts = [phase.name, phase.goal, *record.changed_files]
    for task in phase.tasks:
        parts += [task.title, task.description, " ".join(str(v) for v in task.arguments.values())]
    return _words(" ".join(parts))


def _attribute(requirement: str, records: list[PhaseRecord]) -> list[PhaseRecord]:
    """The phases a requirement is about: those sharing the most words with it, else all."""
    live = [r for r in records if r.phase.status != "superseded"]
    wanted = _words(requirement)
    scored = [(len(wanted & _phase_words(r)), r) for r in live]
    best = max((score for score, _ in scored), default=0)
    return [r for score, r in scored if score == best and best > 0] or live


def _evidence(records: list[PhaseRecord], status: RequirementStatus) -> str:
    if not records:
        return "no phase ran"
    bits: list[str] = []
    for record in records:
        phase = record.phase
        if phase.status == "blocked":
            bits.append(f"phase {phase.id}: blocked, not run ({phase.failed_reason})")
            continue
        done = [t for t in phase.tasks if t.status == "done"]
        failed = [t for t in phase.tasks if t.status in ("failed", "blocked")]
        if status == "done" or not failed:
            names = list(dict.fromkeys(f"task {t.id} {t.tool}" for t in done))[-4:]
            bits.append(f"phase {phase.id}: " + (", ".join(names) + " done" if names
                                                 else "no task done"))
        else:
            t = failed[-1]
            bits.append(f"phase {phase.id}: task {t.id} {t.tool} {t.status}"
                        + (f" ({' '.join(t.error.split())[:80]})" if t.error else ""))
        if record.changed_files:
            bits.append("changed " + ", ".join(record.changed_files[:3]))
    return "; ".join(bits)[:EVIDENCE_CHARS]


def record_entry(requirement: str, records: list[PhaseRecord]) -> dict[str, Any]:
    """The engine's own verdict on one requirement."""
    about = _attribute(requirement, records)
    statuses = [phase_status(r.phase) for r in about]
    if statuses and all(s == "done" for s in statuses):
        status: RequirementStatus = "done"
    elif any(s != "not_attempted" for s in statuses):
        status = "failed"
    else:
        status = "not_attempted"
    return {"requirement": requirement, "status": status, "evidence": _evidence(about, status)}


def _only_blocked(requirement: str, records: list[PhaseRecord]) -> bool:
    about = _attribute(requirement, records)
    return bool(about) and all(r.phase.status == "blocked" for r in about)


def account_requirements(requirements: list[str], records: list[PhaseRecord],
                         claimed: list[dict[str, Any]] | None = None,
                         changes_requested: bool = False) -> list[dict[str, Any]]:
    """One entry per requirement, in order. A model entry (matched by position or by its
    text) is kept only where the record allows it: "done" needs work the record shows done
    for that requirement (and, when the request asks for changes, a changed file); a missing
    status or evidence is taken from the record."""
    claimed = [c for c in (claimed or []) if isinstance(c, dict)]
    by_text = {str(c.get("requirement", "")).strip().lower(): c for c in claimed}
    entries = []
    for index, requirement in enumerate(requirements):
        own = record_entry(requirement, records)
        if _only_blocked(requirement, records):
            entries.append(own)  # its phases never ran: not attempted, whatever the model says
            continue
        model = by_text.get(requirement.strip().lower())
        if model is None and index < len(claimed) and len(claimed) == len(requirements):
            model = claimed[index]
        entries.append(_reconcile(own, model))
    if changes_requested and not any(r.changed_files for r in records):
        entries = [_unwritten(entry) for entry in entries]
    return entries


def _unwritten(entry: dict[str, Any]) -> dict[str, Any]:
    """No requirement of a request to change files is done while the run changed no file: a
    read or a search is no evidence that a function was implemented."""
    if entry["status"] != "done":
        return entry
    return {**entry, "status": "failed",
            "evidence": f"no file was changed ({entry['evidence']})"[:EVIDENCE_CHARS]}


def reconcile_claimed(claimed: list[dict[str, Any]], records: list[PhaseRecord],
                      changes_requested: bool = False) -> list[dict[str, Any]]:
    """Requirements the summary call derived from the request (no analysis listed them),
    each checked against the record like any other."""
    texts = [" ".join(str(c.get("requirement", "")).split()) for c in claimed
             if isinstance(c, dict)]
    return account_requirements([t for t in texts if t][:8], records, claimed,
                                changes_requested)


def _reconcile(own: dict[str, Any], model: dict[str, Any] | None) -> dict[str, Any]:
    if model is None or model.get("status") not in STATUSES:
        return own
    status = model["status"]
    if status == "done" and own["status"] != "done":
        return own
    if status == "not_attempted" and own["status"] != "not_attempted":
        status = own["status"]
    evidence = " ".join(str(model.get("evidence") or "").split())[:EVIDENCE_CHARS]
    return {"requirement": own["requirement"], "status": status,
            "evidence": evidence or own["evidence"]}
