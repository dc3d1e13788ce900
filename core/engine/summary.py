"""The final summary: asked of the model outside the budget, composed without it if need be."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.events import Summary
from core.llm.base import Message
from core.engine.verification.requirements import account
from core.engine.verification.state import VerificationState
from core.engine.stages.instructions import language_ask, summarizer_instruction
from core.engine.reports import PhaseRecord, degraded_reports
from core.engine.summary_language import in_language
from core.engine.stages.caller import StageCaller
from core.engine.stages.schemas import SUMMARIZER, parse_summary
from core.shapes.phase import quality_average, scored

STATUS_LINES = {
    "completed": "all planned work was attempted",
    "budget_exhausted": "the iteration budget was spent before the work was finished",
    "cancelled": "the person stopped the run",
    "failed": "the run could not continue",
    "clarification_needed": "the request needs clarification before work can start",
}


@dataclass
class RunTally:
    """What actually happened, counted by the engine (the model's own numbers are not trusted)."""

    status: str
    reason: str = ""
    goal: str = ""
    records: list[PhaseRecord] = field(default_factory=list)
    # The person's requirements (grounded in their words); the classic loop's is the request.
    requirements: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)  # requirements the person did not state
    quotes: dict[str, str] = field(default_factory=dict)  # each requirement's words of the request
    changes_requested: bool = False  # the request asks for files to be created or changed
    verification: VerificationState = field(default_factory=VerificationState)
    answered: bool = False  # the classic loop answered the request itself
    draft_answer: str = ""  # the draft's answer in words, when it wrote no file

    def person_requirements(self, texts: list[str], request: str) -> None:
        """The requirements the account checks: ``texts`` (their quotes kept), or, when the
        reading lists none, the request itself: its first 200 characters as the text and the
        whole request as its words, so what the request states is held to the checks."""
        if texts:
            self.requirements = list(texts)
            return
        words = " ".join(request.split())[:200]
        self.requirements, self.quotes = [words], {words: request}

    @property
    def phases_completed(self) -> int:
        return sum(r.phase.status == "completed" for r in self.records)

    @property
    def tasks_executed(self) -> int:
        return sum(t.started_at is not None for r in self.records for t in r.phase.tasks)

    @property
    def rounds(self) -> int:
        return sum(r.phase.rounds for r in self.records)

    @property
    def quality_average(self) -> float | None:
        """The average quality of every task the judge scored (None when it scored none)."""
        return quality_average([t for r in self.records for t in r.phase.tasks])

    @property
    def tasks_scored(self) -> int:
        return scored([t for r in self.records for t in r.phase.tasks])

    def accounted(self, claimed: list[dict] | None = None) -> tuple[list[dict], str]:
        """The requirement checklist, with evidence from the record, and, when it is empty,
        why."""
        entries = account(self.requirements, self.records, self.verification,
                          self.changes_requested, claimed, self.answered, self.quotes)
        if entries:
            return entries, ""
        return entries, ("every requirement the analysis listed is an assumption (the "
                         "person did not state it)" if self.assumptions else
                         "the analysis listed no requirements")

    def status_line(self) -> str:
        line = STATUS_LINES.get(self.status, self.status)
        return f"{line} ({self.reason})" if self.reason else line


class SummaryUnavailable(Exception):
    """The summarizer gave nothing usable; the message says why, for the fallback summary."""


async def model_summary(caller: StageCaller, base: list[Message], tally: RunTally,
                        context_window: int, language: str = "") -> Summary:
    """The summary from the model, its text for the person asked in ``language``."""
    reports, _ = degraded_reports(tally.records, max(context_window // 3, 1000), tally.goal)
    changed = sorted({path for r in tally.records for path in r.changed_files})
    instruction = summarizer_instruction(tally.status_line(), reports, tally.requirements,
                                         verified_line(tally.verification), changed,
                                         tally.draft_answer)
    messages = list(base) + [{"role": "user",
                              "content": instruction + language_ask(language, "summarizer")}]
    result = await caller.call("summarizer", messages, "summarizer", SUMMARIZER, parse_summary,
                               counted=False)
    if result.value is None:
        raise SummaryUnavailable(result.problem or "its reply was unusable")
    reply = result.value
    if echoes_schema(reply.final_summary):
        raise SummaryUnavailable("its reply repeated the descriptions of the summary's fields "
                                 "instead of a summary")
    reply = await in_language(caller, reply, language)
    requirements, note = tally.accounted([r.as_dict() for r in reply.requirements])
    return Summary(final_summary=reply.final_summary, phases_completed=tally.phases_completed,
                   total_tasks_executed=tally.tasks_executed, total_rounds=tally.rounds,
                   highlights=list(reply.highlights),
                   quality_assessment=reply.quality_assessment, generated_by="model",
                   status=tally.status, requirements=requirements, requirements_note=note,
                   quality_average=tally.quality_average, tasks_scored=tally.tasks_scored)


def _described(schema: dict[str, Any]) -> list[str]:
    found = [str(schema["description"])] if "description" in schema else []
    for value in (schema.get("properties") or {}).values():
        found += _described(value)
    return found


# The summarizer's field descriptions as a reply could repeat them (lowercase, one space):
# seen from the 1.5B Qwen on llama-server, a final_summary of "... The summary for the
# person, in Markdown: at most about 200 words. Key results; ...".
SCHEMA_PHRASES = tuple(" ".join(text.lower().split()).rstrip(".")
                       for text in _described(SUMMARIZER) if len(text) >= 25)


def echoes_schema(text: str) -> bool:
    """Whether ``text`` repeats one of the summarizer schema's field descriptions."""
    said = " ".join(text.lower().split())
    return any(phrase in said for phrase in SCHEMA_PHRASES)


def verified_line(state: VerificationState) -> str:
    """What the summarizer is told about checks of the final files."""
    if state.state == "unverified":
        return ("No test or check ran on the final files: do not say that tests or checks "
                "ran or passed.")
    return " ".join(state.sentences)


def fallback_summary(tally: RunTally, why: str = "") -> Summary:
    """A summary from the recorded judge summaries and task outcomes, without the model: the
    engine's own text, in English whatever the person's language (the judge summaries it
    quotes are in the language the judge wrote them in)."""
    lines = [f"**Run {tally.status.replace('_', ' ')}** — {tally.status_line()}."]
    if why:
        lines.append(f"\nThe summary was written without the model: {why}.")
    if tally.goal:
        lines.append(f"\n**Goal:** {tally.goal}")
    highlights: list[str] = []
    if tally.records:
        lines.append("\n### Phases")
    for record in tally.records:
        phase = record.phase
        done = sum(t.status == "done" for t in phase.tasks)
        summary = phase.user_summary or "no judge summary recorded"
        lines.append(f"- **Phase {phase.id}: {phase.name}** — {phase.status}, "
                     f"{done}/{len(phase.tasks)} tasks done. {summary}")
        for task in phase.tasks:
            if task.status in ("failed", "blocked"):
                lines.append(f"  - task {task.id} *{task.title}* {task.status}: {task.error[:200]}")
        if phase.status == "completed" and phase.user_summary:
            highlights.append(f"Phase {phase.id}: {phase.user_summary[:180]}")
        if record.changed_files:
            highlights.append("Changed: " + ", ".join(record.changed_files[:5]))
    if not tally.records:
        lines.append("\nNo phase ran.")
    quality = "not assessed (written without the model)"
    requirements, note = tally.accounted()
    return Summary(final_summary="\n".join(lines), phases_completed=tally.phases_completed,
                   total_tasks_executed=tally.tasks_executed, total_rounds=tally.rounds,
                   highlights=highlights[:6], quality_assessment=quality,
                   generated_by="fallback", status=tally.status, requirements=requirements,
                   requirements_note=note, quality_average=tally.quality_average,
                   tasks_scored=tally.tasks_scored)
