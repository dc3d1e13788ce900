"""What a run achieved, decided from the engine's own record, never from the model's word alone.

Four outcomes, the same in both engines:

- ``succeeded``: the run finished its work (every phase done by the record; in the classic
  loop an answer with nothing failing in its last batch), every one of the person's
  requirements has evidence (``requirements``), and a check the engine ran on the final files
  passed (``state`` is ``verified``: the workspace's tests, a test command, the request's
  examples; when only examples checked them, every requirement that states values between
  quote marks has an example that uses one of them). A question succeeds when its answer
  cites what it rests on: lines of files the run read that hold the cited words
  (``citations``).
- ``unverified``: the work finished and nothing fails, but nothing checked the final files
  (or the answer cites nothing): "Done · not verified".
- ``failed``: nothing achieved (no phase or requirement done, no file changed, no answer), no
  usable stage reply, or a request to change files in which no file changed.
- ``partial``: anything else (a check fails, work left undone, a run stopped part way).

Assumptions (the requirements the person did not state) are not counted.
"""

from __future__ import annotations

from typing import Any, Literal

from core.engine.reports import PhaseRecord
from core.engine.verification.requirements import phase_status
from core.engine.verification.state import VerificationState

Outcome = Literal["succeeded", "unverified", "partial", "failed"]


def decide_outcome(status: str, records: list[PhaseRecord], usable_replies: int,
                   requirements: list[dict[str, Any]], state: VerificationState,
                   answered: bool = False, changes_requested: bool = False,
                   cited: bool = False) -> Outcome:
    """The outcome (see the module's docstring); ``cited``: the answer cites lines the run
    read."""
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
    if status != "completed" or not clean or not all_met or state.state == "failing":
        return "partial"
    if changed:
        checked = all(r.get("checked", True) for r in requirements)
        return "succeeded" if state.state == "verified" and checked else "unverified"
    return "succeeded" if cited else "unverified"
