"""Export a recorded run: JSON that replays offline, and Markdown a person reads.

The JSON's top-level ``replies`` list holds the run's model replies in the scripted-model
format, so an exported file is itself a model script: ``--model-script run.json`` replays
the run without a network and reproduces its cards. Every string in either export goes
through ``scrub``; secret settings are dropped from the snapshot.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal

from core import secrets
from core.shapes.shown_text import shown_items, task_title, without_internal_names
from core.shapes.wording import SANDBOX_WORDS, ending_words, outcome_chip
from core.shapes.phase import describe_quality
from core.store.changes import markdown_lines, net_changes
from core.store.history import RunInfo, Store, public_settings

FORMAT = "phasedesk-run/1"


scrub = secrets.scrub


def export_json(store: Store, run_id: str) -> dict[str, Any]:
    """The run as ``{"format", "run", "events", "replies"}``; ``replies`` is a model script."""
    info, events = _load(store, run_id)
    run: dict[str, Any] = {**info, "conversation_title": _title(store, info)}
    replies = [_reply(event) for event in events if event["kind"] == "llm_call"]
    return {"format": FORMAT, "run": run, "events": events, "replies": replies}


def export_text(store: Store, run_id: str, fmt: Literal["json", "md"]) -> str:
    """The export as file contents, for ``--export RUN_ID --format json|md``."""
    if fmt == "json":
        return json.dumps(export_json(store, run_id), ensure_ascii=False, indent=2) + "\n"
    return export_markdown(store, run_id)


def _load(store: Store, run_id: str) -> tuple[RunInfo, list[dict[str, Any]]]:
    info = store.run(run_id)
    if info is None:
        raise KeyError(f"no run {run_id}")
    info = RunInfo(**{**info, "settings_snapshot": public_settings(info["settings_snapshot"])})
    return scrub(info), scrub(store.events(run_id))


def _title(store: Store, info: RunInfo) -> str:
    conversation = store.conversation(info["conversation_id"])
    return str(scrub(conversation["title"])) if conversation else ""


def _reply(event: dict[str, Any]) -> dict[str, Any]:
    """The call's scripted reply; a provider's own token counts ride along as ``usage``."""
    reply = dict(event.get("reply") or {})
    if not event.get("ok", True):
        return reply or {"error": {"status": 0, "message": event.get("error") or "call failed"}}
    if not reply:
        reply = {"text": ""}
    if not event.get("usage_estimated", True) and "error" not in reply:
        usage = {"prompt_tokens": event.get("prompt_tokens", 0),
                 "completion_tokens": event.get("completion_tokens", 0)}
        if event.get("cached_tokens"):
            usage["cached_tokens"] = event["cached_tokens"]
        reply.setdefault("usage", usage)
    return reply


@dataclass
class _Round:
    number: int
    mode: str = "plan"
    reasoning: str = ""
    tasks: dict[int, dict[str, Any]] = field(default_factory=dict)
    judged: dict[str, Any] | None = None
    thought: dict[str, Any] | None = None


@dataclass
class _Phase:
    id: int
    name: str
    goal: str = ""
    position: str = ""
    rounds: list[_Round] = field(default_factory=list)
    finished: dict[str, Any] | None = None

    def round(self, number: int) -> _Round:
        """The latest round numbered ``number`` (0: the latest round), created when missing."""
        for candidate in reversed(self.rounds):
            if number in (0, candidate.number):
                return candidate
        self.rounds.append(_Round(number))
        return self.rounds[-1]


@dataclass
class _Report:
    """The run's events folded into what the Markdown shows."""

    analysis: dict[str, Any] | None = None
    questions: list[str] = field(default_factory=list)
    plan: list[dict[str, Any]] = field(default_factory=list)
    phases: dict[int, _Phase] = field(default_factory=dict)
    files: list[dict[str, Any]] = field(default_factory=list)
    notices: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] | None = None

    def phase(self, phase_id: int) -> _Phase:
        """The phase with this id; named from the phase plan when it never started (blocked)."""
        if phase_id not in self.phases:
            planned = next((p for p in self.plan if p.get("id") == phase_id), {})
            name = planned.get("name") or (f"Phase {phase_id}" if phase_id else "Steps")
            self.phases[phase_id] = _Phase(phase_id, name, planned.get("goal", ""))
        return self.phases[phase_id]

    def add(self, event: dict[str, Any]) -> None:
        kind = event["kind"]
        if kind == "request_analysed":
            self.analysis = event
        elif kind == "clarification":
            self.questions = list(event["questions"])
        elif kind == "phases_planned":
            self.plan = list(event["phases"])
        elif kind == "phase_started":
            phase = self.phase(event["phase_id"])
            phase.name, phase.goal = event["name"], event["goal"]
            phase.position = f"{event['index']}/{event['total']}"
        elif kind == "tasks_planned":
            entry = _Round(event["round"], event["mode"], event["reasoning"])
            for task in event["tasks"]:
                entry.tasks[task.get("id", len(entry.tasks) + 1)] = {
                    "title": task.get("title", ""), "tool": task.get("tool", ""),
                    "arguments": task.get("arguments"), "status": "pending", "error": ""}
            self.phase(event["phase_id"]).rounds.append(entry)
        elif kind in ("task_started", "task_finished"):
            entry = self.phase(event["phase_id"]).round(event.get("round", 0))
            task = entry.tasks.setdefault(event["task_id"], {"title": "", "error": ""})
            task.update(tool=event["tool"], status=event.get("status", "running"),
                        error=event.get("error", ""), sandbox=event.get("sandbox", ""),
                        candidates=event.get("candidates") or [])
        elif kind == "judged":
            self.phase(event["phase_id"]).round(event["round"]).judged = event
        elif kind == "thought":
            self.phase(event["phase_id"]).round(event["round"]).thought = event
        elif kind == "phase_finished":
            self.phase(event["phase_id"]).finished = event
        elif kind == "file_changed":
            self.files.append(event)
        elif kind == "notice" and event["level"] != "info":
            self.notices.append(event)
        elif kind == "summary":
            self.summary = event


def export_markdown(store: Store, run_id: str) -> str:
    """The run for a person: request, phases, tasks, judge verdicts and the summary."""
    info, events = _load(store, run_id)
    report = _Report()
    for event in events:
        report.add(event)
    lines = [f"# {_title(store, info) or 'PhaseDesk run'}", "",
             f"- **Outcome:** {_outcome(info)}",
             *([f"- **Ended:** {ending}"] if (ending := _ending(info)) else []),
             f"- **Run:** `{info['id']}`",
             f"- **Engine:** {info['engine']} · **Model:** {info['provider']} / {info['model']}",
             f"- **Started:** {_when(info['started_at'])} · **Finished:** "
             f"{_when(info['finished_at'])}",
             f"- **LLM calls:** {info['llm_calls']} · **Tokens:** {info['prompt_tokens']} prompt"
             f" / {info['completion_tokens']} completion",
             f"- **Files changed:** {info['changed_files']}",
             *([f"- **Changes undone:** {_when(info['undone_at'])}"]
               if info.get("undone_at") is not None else []), "", "## Request", ""]
    lines += [f"> {line}" for line in info["request"].splitlines() or [""]]
    if report.analysis:
        goal = without_internal_names(report.analysis["core_goal"])
        lines += ["", "## Analysis", ""] + ([f"**Goal:** {_line(goal)}", ""] if goal else [])
        if report.analysis.get("language"):
            lines += [f"**Language:** {_line(report.analysis['language'])}", ""]
        lines += [f"- {_line(item)}" for item in report.analysis["requirements"]]
        lines += [f"- *Assumed, not asked for:* {_line(item)}"
                  for item in shown_items(report.analysis.get("assumptions", []))]
    if report.questions:
        lines += ["", "## Questions for you", ""]
        lines += [f"{n}. {_line(q)}" for n, q in enumerate(report.questions, 1)]
    if report.plan:
        lines += ["", "## Phases", ""]
        lines += [f"{n}. **{_line(p.get('name', ''))}** — {_line(p.get('goal', ''))}"
                  for n, p in enumerate(report.plan, 1)]
    for phase in report.phases.values():
        lines += _phase_lines(phase)
    if report.files:
        lines += [""] + markdown_lines(net_changes(report.files))
    if report.notices:
        lines += ["", "## Notices", ""]
        lines += [f"- {n['level']}" + (f" ({n['stage']})" if n["stage"] else "")
                  + f": {_line(n['message'])}" for n in report.notices]
    lines += ["", "## Summary", ""] + _summary_lines(report.summary, info["status"])
    return "\n".join(lines) + "\n"


def _sandbox(mark: str) -> str:
    """How a shell command ran, after its tool's name ("" for other tools)."""
    return f" ({SANDBOX_WORDS[mark]})" if mark in SANDBOX_WORDS else ""


def _phase_lines(phase: _Phase) -> list[str]:
    position = f" ({phase.position})" if phase.position else ""
    lines = ["", f"### {_line(phase.name)}{position}", ""]
    if phase.goal:
        lines += [f"*Goal:* {_line(phase.goal)}", ""]
    for entry in phase.rounds:
        lines += [f"#### Round {entry.number} ({entry.mode})", ""]
        if entry.reasoning:
            lines += [f"*{_line(entry.reasoning)}*", ""]
        if entry.tasks:
            lines += ["| Task | Tool | Status | Error |", "|---|---|---|---|"]
            lines += [f"| {task_id}. {_cell(_task_title(t))} | `{_cell(t.get('tool', ''))}`"
                      f"{_sandbox(t.get('sandbox', ''))} | "
                      f"{_cell(t.get('status', ''))} | {_cell(t['error'])} |"
                      for task_id, t in entry.tasks.items()]
            lines.append("")
            for task_id, t in entry.tasks.items():
                lines += _candidate_lines(task_id, t.get("candidates") or [])
        if entry.judged:
            lines += _judge_lines(entry.judged)
        if entry.thought:
            t = entry.thought
            decision = "continue the phase" if t["continue_phase"] else "end the phase"
            lines += [f"**Think:** {decision} — {_line(t['next_round_strategy'])}", ""]
    if phase.finished:
        f = phase.finished
        lines.append(f"**Phase result:** {f['status']} · {f['tasks_done']}/{f['tasks_total']} "
                     f"tasks · {_count(f['rounds'], 'round')} — {_line(f['summary'])}")
    return lines


def _candidate_lines(task_id: int, candidates: list[Any]) -> list[str]:
    """The versions a task's write weighed, one line each (what the checks found)."""
    versions = [c for c in candidates if isinstance(c, dict)]
    if len(versions) < 2:
        return []
    lines = [f"*Task {task_id} tried {_count(len(versions) - 1, 'candidate')} after its "
             f"{_line(str(versions[0].get('source', 'first version')))}:*", ""]
    return lines + [f"- {_line(str(v.get('line', '')))}" for v in versions] + [""]


def _judge_lines(judged: dict[str, Any]) -> list[str]:
    problem = f" (problem: {judged['problem_level']})" if judged["problem_level"] else ""
    quality = describe_quality(judged["quality_average"], judged.get("tasks_scored"),
                               judged.get("tasks_total"))
    lines = [f"**Judge:** completion {judged['completion_rate']:.0%}, success "
             f"{judged['success_rate']:.0%}, quality {quality} → "
             f"`{judged['next_action']}`{problem}", ""]
    if judged["user_summary"]:
        lines += [f"> {_line(judged['user_summary'])}", ""]
    for verdict in judged["verdicts"]:
        score = verdict.get("quality_score", verdict.get("quality"))
        reason = next((verdict[k] for k in ("reason", "comment", "feedback", "issue")
                       if verdict.get(k)), "")
        actual = verdict.get("actual")
        status = actual if actual in ("failed", "blocked") else verdict.get("status", "?")
        lines.append(f"- Task {verdict.get('task_id', '?')}: {status}"
                     + (f", quality {score}" if score is not None else ", not scored")
                     + (f" — {_line(str(reason))}" if reason else ""))
    return lines + ([""] if judged["verdicts"] else [])


def _summary_lines(summary: dict[str, Any] | None, status: str) -> list[str]:
    if summary is None:
        return [f"*No summary was recorded (run status: {status}).*"]
    lines = [_demoted(summary["final_summary"].strip()), ""]
    lines += _requirement_lines(summary.get("requirements") or [],
                                str(summary.get("requirements_note") or ""))
    if summary["highlights"]:
        lines += ["**Highlights**", ""] + [f"- {_line(h)}" for h in summary["highlights"]] + [""]
    if summary.get("tasks_scored"):
        lines += [f"**Average quality:** "
                  f"{describe_quality(summary['quality_average'], summary['tasks_scored'])}", ""]
    if summary["quality_assessment"] and summary["generated_by"] == "model":
        lines += [f"**Quality:** {_line(summary['quality_assessment'])}", ""]
    author = "the model" if summary["generated_by"] == "model" else "PhaseDesk (fallback)"
    lines.append(f"*{_count(summary['phases_completed'], 'phase')} done · "
                 f"{_count(summary['total_tasks_executed'], 'task')} · "
                 f"{_count(summary['total_rounds'], 'round')} · written by {author}*")
    return lines


REQUIREMENT_BOXES = {"done": "[x]", "failed": "[ ] ✗", "not_attempted": "[ ] –"}


def _outcome(info: RunInfo) -> str:
    """The run's one verdict ("✅ Succeeded · 12 tests pass"), else its status."""
    return outcome_chip(info["outcome"], info["verification"], info["verification_line"],
                        emoji=True) or f"not recorded (run status: {info['status']})"


def _ending(info: RunInfo) -> str:
    """How the run ended, when that adds to its outcome ("stopped by you")."""
    return ending_words(info["status"], info["outcome"]) if info["outcome"] else ""


def _task_title(task: dict[str, Any]) -> str:
    words, code = task_title(str(task.get("title", "")), str(task.get("tool", "")),
                             task.get("arguments"))
    return f"{words} `{code}`" if code else words


def _requirement_lines(requirements: list[dict[str, Any]], note: str) -> list[str]:
    """The checklist of the analysis's requirements, with their status and evidence."""
    if not requirements:
        return [f"*Requirements: none listed ({_line(note)}).*", ""] if note else []
    lines = ["**Requirements**", ""]
    for entry in requirements:
        status = str(entry.get("status", ""))
        evidence = f" — {_line(entry['evidence'], 200)}" if entry.get("evidence") else ""
        lines.append(f"- {REQUIREMENT_BOXES.get(status, '[ ] ?')} "
                     f"{_line(entry.get('requirement', ''), 200)} *({status.replace('_', ' ')})*"
                     f"{evidence}")
    return lines + [""]


def _demoted(markdown: str) -> str:
    """The model's Markdown with its headings moved under ``## Summary`` (code left alone)."""
    out, fenced = [], False
    for line in markdown.splitlines():
        fenced ^= line.lstrip().startswith(("```", "~~~"))
        out.append("##" + line if not fenced and re.match(r"#{1,4}\s", line) else line)
    return "\n".join(out)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _when(timestamp: float | None) -> str:
    if timestamp is None:
        return "—"
    return datetime.fromtimestamp(timestamp, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def _line(text: str, limit: int = 500) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _cell(text: str) -> str:
    return _line(text, 200).replace("|", "\\|")
