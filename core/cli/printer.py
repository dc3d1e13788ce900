"""Readable one-line progress for each event in a terminal run."""

from __future__ import annotations

from typing import Callable

from core import events as ev
from core.engine.language import is_english
from core.cli.terminal_text import terminal_text
from core.shapes.phase import describe_quality
from core.shapes.shown_text import shown_items, task_title, without_internal_names
from core.shapes.wording import SANDBOX_WORDS, count, ending_line, priority_level

ICONS = {"done": "✓", "failed": "✗", "blocked": "⏸", "skipped": "–", "running": "…"}


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _run_started(e: ev.RunStarted) -> str:
    return f"▶ run {e.run_id[:8]} · {e.engine} engine · {e.provider}:{e.model} · {e.workspace}"


def _analysed(e: ev.RequestAnalysed) -> str:
    language = "" if is_english(e.language) else f", {e.language}"
    goal = without_internal_names(e.core_goal)
    about = f"{e.complexity}, about {count(e.estimated_phases, 'phase')}{language}"
    lines = [f"🔍 goal: {goal} ({about})" if goal else f"🔍 request analysed ({about})"]
    lines += [f"   assumed (not asked for): {a}" for a in shown_items(e.assumptions)]
    return "\n".join(lines)


def _phases(e: ev.PhasesPlanned) -> str:
    names = "; ".join(f"{p['id']}. {p['name']}" for p in e.phases)
    return f"📋 {count(len(e.phases), 'phase')}: {names}"


def _phase(e: ev.PhaseStarted) -> str:
    return (f"\n🎯 Phase {e.index}/{e.total}: {e.name} — {e.goal} "
            f"(≤{count(e.max_rounds, 'round')})")


def shown_title(task: dict) -> str:
    """A planned task's title in words, its argument in backticks (``task_title``)."""
    words, code = task_title(str(task.get("title", "")), str(task.get("tool", "")),
                             task.get("arguments"))
    return f"{words} `{code}`" if code else words


def _planned(e: ev.TasksPlanned) -> str:
    lines = [f"  Round {e.round} (at most {e.max_rounds}) · {e.mode}: "
             f"{count(len(e.tasks), 'task')}"]
    for t in e.tasks:
        deps = f" after {t['dependencies']}" if t["dependencies"] else ""
        lines.append(f"    [{t['id']}] {shown_title(t)} · {t['tool']} · "
                     f"{priority_level(t.get('priority'))[0]}{deps}")
    return "\n".join(lines)


def _finished(e: ev.TaskFinished) -> str:
    error = e.error[:400].rstrip()
    tail = (" — " + error.replace("\n", "\n      ")) if error else ""
    how = f" · {SANDBOX_WORDS[e.sandbox]}" if e.sandbox in SANDBOX_WORDS else ""
    return (f"    {ICONS.get(e.status, '?')} task {e.task_id} {e.status} ({e.elapsed_s:.2f}s)"
            f"{how}{tail}")


def _judged(e: ev.Judged) -> str:
    flag = " (degraded)" if e.degraded else ""
    quality = ("not scored" if e.tasks_scored == 0 else
               describe_quality(e.quality_average, e.tasks_scored, e.tasks_total))
    return (f"  ⚖️  judge{flag}: completion {_pct(e.completion_rate)}, success "
            f"{_pct(e.success_rate)}, quality {quality} → {e.next_action.replace('_', ' ')}"
            f"\n     {_indented(terminal_text(e.user_summary), 5)}")


def _thought(e: ev.Thought) -> str:
    decision = "complete" if e.phase_completed else ("continue" if e.continue_phase else "stop")
    return f"  💭 think: {decision}. {e.next_round_strategy}".rstrip()


def _phase_done(e: ev.PhaseFinished) -> str:
    return (f"  ■ phase {e.phase_id} {e.status}: {e.tasks_done}/{count(e.tasks_total, 'task')}"
            f" done, {count(e.rounds, 'round')}")


def _indented(text: str, spaces: int) -> str:
    return text.replace("\n", "\n" + " " * spaces)


REQUIREMENT_MARKS = {"done": "✓", "failed": "✗", "not_attempted": "–"}


def requirement_lines(requirements: list[dict], note: str = "") -> list[str]:
    """The checklist: one line per requirement, its mark, status and evidence."""
    if not requirements:
        return [f"  Requirements: none listed ({note})"] if note else []
    lines = ["  Requirements:"]
    for entry in requirements:
        status = str(entry.get("status", ""))
        evidence = f" — {entry['evidence']}" if entry.get("evidence") else ""
        lines.append(f"    {REQUIREMENT_MARKS.get(status, '?')} {entry.get('requirement', '')} "
                     f"[{status.replace('_', ' ')}]{evidence}")
    return lines


def _summary(e: ev.Summary) -> str:
    author = "by the model" if e.generated_by == "model" else "composed without the model"
    quality = (f" · quality {describe_quality(e.quality_average, e.tasks_scored)}"
               if e.tasks_scored else "")
    assessed = (f" ({e.quality_assessment})"
                if e.quality_assessment and e.generated_by == "model" else "")
    lines = [f"\n📝 Summary ({author}) · {count(e.phases_completed, 'phase')} done · "
             f"{count(e.total_tasks_executed, 'task')} · {count(e.total_rounds, 'round')}"
             f"{quality}{assessed}", terminal_text(e.final_summary)]
    lines += [f"  ★ {h}" for h in e.highlights]
    lines += requirement_lines(e.requirements, e.requirements_note)
    lines += [f"  Assumed (not asked for, not counted): {a}"
              for a in shown_items(e.assumptions)]
    if e.verification:
        lines.append("  Checked: " + (" ".join(e.verification_sentences) or "nothing"))
    return "\n".join(lines)


def _run_finished(e: ev.RunFinished) -> str:
    return (f"■ {ending_line(e.outcome, e.verification, e.verification_line, e.status)} · "
            f"{count(e.llm_calls, 'LLM call')} · {e.prompt_tokens} prompt + "
            f"{e.completion_tokens} completion tokens · {e.elapsed_s:.1f}s")


def _file_changed(e: ev.FileChanged) -> str:
    """One line per write: "+n −m path", and whether the file is new."""
    what = {"created": " (new file)", "deleted": " (deleted)"}.get(e.change, "")
    if e.source == "command":
        return f"    ✎ {e.path} {e.change} by a command{' ' + what.strip() if what else ''}"
    return f"    ✎ +{e.added} −{e.removed} {e.path}{what}"


def _mcp_server(e: ev.McpServerStatus) -> str:
    if e.status == "started":
        return f"  🔌 MCP server {e.name} started (pid {e.pid}): {', '.join(e.tools) or 'no tools'}"
    if e.status == "stopped":
        return f"  🔌 MCP server {e.name} stopped"
    stderr = f"\n    stderr: {e.stderr[-500:]}" if e.stderr else ""
    return f"  ⚠ {e.error}{stderr}"


def _approval_detail(e: ev.ApprovalRequested) -> str:
    return " ".join(e.detail.split())[:300]


def approved_by_yes(e: ev.ApprovalRequested) -> str:
    """The line for a request ``--yes`` answers: approved (for the rest of the run)."""
    return f"  ✓ {e.action} approved by --yes: {_approval_detail(e)}"


PRINTERS: dict[type, Callable] = {
    ev.RunStarted: _run_started,
    ev.RequestAnalysed: _analysed,
    ev.Clarification: lambda e: "❓ clarification needed:\n" + "\n".join(f"  - {q}" for q in e.questions),
    ev.PhasesPlanned: _phases,
    ev.PhaseStarted: _phase,
    ev.TasksPlanned: _planned,
    ev.TaskFinished: _finished,
    ev.Judged: _judged,
    ev.Thought: _thought,
    ev.PhaseFinished: _phase_done,
    ev.ApprovalRequested: lambda e: f"  ⚠ approval needed for {e.action}: {_approval_detail(e)}",
    ev.FileChanged: _file_changed,
    ev.ContextCompacted: lambda e: f"  ⇣ context compacted {e.before_tokens} → {e.after_tokens} tokens",
    ev.Notice: lambda e: f"  {'⚠' if e.level != 'info' else 'ℹ'} {e.message}",
    ev.McpServerStatus: _mcp_server,
    ev.Summary: _summary,
    ev.RunFinished: _run_finished,
}


def describe(event: ev.Event) -> str:
    """The line to print for ``event``; empty for events not worth a line (among them the
    progress events of a call under way: the terminal prints results, ``--jsonl`` has all)."""
    printer = PRINTERS.get(type(event))
    return printer(event) if printer else ""
