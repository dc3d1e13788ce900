"""What a run achieved, decided from the engine's own record, never from the model's word alone.

``succeeded``: the run finished its work (every phase done by the record: ended complete, as
the judge, Think or the engine's own verdict decided, with a clean last round; in the classic
loop an answer with nothing failing in its last batch), every one of the person's
requirements has evidence (``requirements``), and no check fails on the final files
(``state``: an unverified change can succeed, and says it is unverified). ``failed``: nothing
achieved (no phase or requirement done, no file changed, no answer), no usable stage reply,
or a request to change files in which no file changed. Else ``partial``. Assumptions (the
requirements the person did not state) are not counted.
"""

from __future__ import annotations

from typing import Any, Literal

from core.engine.reports import PhaseRecord
from core.engine.verification.requirements import phase_status
from core.engine.verification.state import VerificationState

Outcome = Literal["succeeded", "partial", "failed"]


def decide_outcome(status: str, records: list[PhaseRecord], usable_replies: int,
                   requirements: list[dict[str, Any]], state: VerificationState,
                   answered: bool = False, changes_requested: bool = False) -> Outcome:
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
    if status == "completed" and clean and all_met and state.state != "failing":
        return "succeeded"
    return "partial"
