"""The person's requirements, and the evidence for each, from the run's own record.

A requirement is the person's when the words of the request it rests on are in the request
(``core.engine.reading.check``); the others are assumptions, never counted here.

**Evidence** is the events that concern the requirement, as sentences a person reads: the
writes of the files it names and the checks that ran on them, the checks of the functions it
names, the commands it names. What it names is read by shape, in any language: file names,
and names of code (identifiers that are files, functions or commands of the run). A
requirement that names nothing the run touched concerns the files the run changed (or, for a
question, what the run read). A command that ran before the change is no evidence that the
change works. A requirement is ``done`` only with such evidence, in the phases that concern
it (those that changed its files) done by the record, and while no check on what it concerns
fails; the model's word can lower a status, never raise it, and cannot lower it when checks
the engine ran on the final files passed. When only the request's examples checked the final
files, a requirement whose words (with its quote) state a value between quote marks that no
example uses is ``done`` but not checked (``checked: False``): the run is then not
``succeeded``. With no requirement listed, the request itself is the one requirement, and
its words are the whole request.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from core.tools.code_in_text import file_names, mentions
from core.engine.reports import PhaseRecord
from core.engine.verification.state import VerificationState
from core.shapes.phase import Phase
from core.shapes.task import Task

RequirementStatus = Literal["done", "failed", "not_attempted"]
STATUSES = ("done", "failed", "not_attempted")
EVIDENCE_CHARS = 400
WRITES = ("write_file", "edit_file")
CODE_NAME = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]{2,}(?![A-Za-z0-9_])")
NO_EVIDENCE = "No event of the run concerns it."
# A value a requirement states, between quote marks of any script ('…' only where no letter
# or digit touches a mark, so "don't" holds none).
STATED = re.compile(r'"([^"\n]{1,80})"|“([^”\n]{1,80})”|‘([^’\n]{1,80})’|«([^»\n]{1,80})»'
                    r'|„([^“\n]{1,80})“|「([^」\n]{1,80})」|『([^』\n]{1,80})』'
                    r"|(?<![^\W_])'([^'\n]{1,80})'(?![^\W_])")


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


def _names(text: str) -> set[str]:
    return set(CODE_NAME.findall(text))


def _files_named(text: str, changed: list[str]) -> list[str]:
    """The changed files ``text`` names (by path or file name)."""
    written = set(file_names(text))
    return [path for path in changed if path in written or mentions(text, path)]


def _commands_named(text: str, tasks: list[tuple[Task, int]]) -> list[tuple[Task, int]]:
    """The commands that ran whose text, or whose program and first argument, ``text``
    holds."""
    found = []
    for task, phase in tasks:
        command = str(task.arguments.get("command", "")).strip() \
            if task.tool == "run_command" else ""
        if command and (command in text or " ".join(command.split()[:2]) in text):
            found.append((task, phase))
    return found


def _state_lines(state: VerificationState, files: list[str], names: set[str]) -> list[str]:
    """The verification sentences about ``files`` or the functions ``names``; every sentence
    when none picks one out."""
    picked = [line for line in state.sentences
              if any(mentions(line, path) for path in files) or names & _names(line)]
    return picked or list(state.sentences)


def change_evidence(records: list[PhaseRecord], state: VerificationState, several: bool,
                    words: str) -> tuple[bool, str, list[str]]:
    """Whether the record holds a write that concerns the requirement ``words``, the
    sentences saying so, and the files it concerns."""
    changed = sorted({path for r in records for path in r.changed_files})
    tasks = _tasks(records, several)
    files = _files_named(words, changed)
    names = _names(words)
    if not files:
        defining = [t for t, _ in tasks if t.tool in WRITES and t.changed
                    and names & _names(t.result + " " + str(t.arguments.get("instruction", "")))]
        files = sorted({path for t in defining for path in t.changed}) or changed
    writes = [(t, p) for t, p in tasks if t.tool in WRITES and t.status == "done"
              and set(t.changed) & set(files)]
    commands = _commands_named(words, tasks)
    if not writes and not files and not commands:
        return False, "No file was changed.", []
    parts = [f"{', '.join(sorted(set(t.changed) & set(files)))} written by "
             f"{_task_line(t, p)}." for t, p in writes[-3:]]
    if files and not writes:
        parts.append(f"Changed by a command: {', '.join(files[:4])}.")
    parts += [f"{_task_line(t, p)} ran it ({t.status})." for t, p in commands[-2:]]
    parts += _state_lines(state, files, names) if state.checked else [
        "Nothing checked the final files, so the change is not verified."]
    return True, " ".join(parts), files


def answer_evidence(records: list[PhaseRecord], several: bool, words: str
                    ) -> tuple[bool, str]:
    """Whether the record holds a read, search or command that succeeded and concerns the
    requirement ``words`` (any, when it names none of them), and what ran."""
    looks = [(t, p) for t, p in _tasks(records, several)
             if t.tool not in WRITES and t.status == "done"]
    named = [(t, p) for t, p in looks if any(
        mentions(words, str(value)) or str(value) in words
        for value in t.arguments.values() if str(value).strip())]
    looks = named or looks
    if not looks:
        return False, "No task found anything."
    return True, "Found by " + "; ".join(_task_line(t, p) for t, p in looks[-3:]) + "."


def record_entry(requirement: str, records: list[PhaseRecord], state: VerificationState,
                 changes: bool, answered: bool = False, quote: str = "") -> dict[str, Any]:
    """The engine's own verdict on one requirement, with its evidence: decided by the phases
    that concern it (those that changed the files it concerns; every phase when none did)."""
    live = [r for r in records if r.phase.status != "superseded"]
    several = len(live) > 1
    words = f"{requirement}\n{quote}"
    wrote = changes or any(r.changed_files for r in records)
    files: list[str] = []
    if wrote:
        has, evidence, files = change_evidence(records, state, several, words)
    else:
        has, evidence = answer_evidence(live, several, words)
    about = [r for r in live if set(r.changed_files) & set(files)] or live
    statuses = [phase_status(r.phase) for r in about]
    if any(r.phase.status == "blocked" for r in about) and all(
            s == "not_attempted" for s in statuses):
        return {"requirement": requirement, "status": "not_attempted",
                "evidence": "Its phase was blocked and never ran."}
    if answered and not changes:
        has, evidence = True, "Answered in the run's final reply. " + evidence
    phases_done = bool(statuses) and all(s == "done" for s in statuses) or answered
    own = _own_examples(words, state)
    if own and has:
        evidence = " ".join(f"On the final files the request's example {call} "
                            f"{'passes' if ok else 'fails'}." for call, ok in own) \
            + " " + evidence.split(" On the final files", 1)[0]
        status: RequirementStatus = "done" if all(ok for _, ok in own) else "failed"
    elif has and phases_done and not _fails(files, state, words):
        status = "done"
    elif any(s != "not_attempted" for s in statuses) or has:
        status = "failed"
    else:
        status = "not_attempted"
    if status == "done" and quote and (unchecked := _unchecked_values(words, state)):
        return {"requirement": requirement, "status": status, "checked": False,
                "evidence": (f"No check the engine ran uses what it states "
                             f"({', '.join(unchecked[:3])}), so it is not verified. "
                             + evidence)[:EVIDENCE_CHARS]}
    return {"requirement": requirement, "status": status, "evidence": evidence[:EVIDENCE_CHARS]}


def _own_examples(words: str, state: VerificationState) -> list[tuple[str, bool]]:
    """The examples that ran on the final files whose call the requirement's words hold
    (spaces aside): a requirement that states an example is decided by that example."""
    plain = "".join(words.split())
    return [(call, ok) for call, ok in state.examples if "".join(call.split()) in plain]


def stated_values(text: str) -> list[str]:
    """The values ``text`` writes between quote marks (file names aside), in order."""
    found = [next(group for group in match.groups() if group) for match in STATED.finditer(text)]
    return [value.strip() for value in dict.fromkeys(found)
            if value.strip() and file_names(value) != [value.strip()]]


def _unchecked_values(words: str, state: VerificationState) -> list[str]:
    """The values a requirement's ``words`` (its text and its quote of the request) state, when
    the final files were verified by the request's examples alone (no tests, no test command)
    and no example that ran uses them, in its call or the result it states: the examples then
    check other behaviour than the one they state. [] otherwise."""
    if state.state != "verified" or state.broad:
        return []
    calls = " ".join([*(call for call, _ in state.examples), *state.stated])
    return [f'"{value}"' for value in stated_values(words) if value not in calls]


def _fails(files: list[str], state: VerificationState, words: str) -> bool:
    """Whether the failing ``state`` bears on a requirement about ``files`` (its ``words``):
    every failing check does, except a requested file missing, which spares a requirement
    about other files, none of them missing and none named in its words."""
    if state.state != "failing" or not state.only_missing:
        return state.state == "failing"
    return not files or any(path in state.missing for path in files) \
        or any(mentions(words, path) for path in state.missing)


def account(requirements: list[str], records: list[PhaseRecord], state: VerificationState,
            changes: bool, claimed: list[dict[str, Any]] | None = None,
            answered: bool = False, quotes: dict[str, str] | None = None
            ) -> list[dict[str, Any]]:
    """One entry per requirement, in order: the engine's status and evidence; a model's
    status (matched by position or text) only where it is lower and the final files are not
    verified. ``quotes``: each requirement's words of the request."""
    claimed = [c for c in (claimed or []) if isinstance(c, dict)]
    by_text = {str(c.get("requirement", "")).strip().lower(): c for c in claimed}
    entries = []
    for index, requirement in enumerate(requirements):
        own = record_entry(requirement, records, state, changes, answered,
                           (quotes or {}).get(requirement, ""))
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
