"""Readable one-line progress for each event in a terminal run."""

from __future__ import annotations

from typing import Callable

from core import events as ev
from core.engine.language import is_english
from core.shapes.phase import describe_quality
from core.shapes.wording import SANDBOX_WORDS, ending_line, outcome_text

ICONS = {"done": "✓", "failed": "✗", "blocked": "⏸", "skipped": "–", "running": "…"}


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _run_started(e: ev.RunStarted) -> str:
    return f"▶ run {e.run_id[:8]} · {e.engine} engine · {e.provider}:{e.model} · {e.workspace}"


def _analysed(e: ev.RequestAnalysed) -> str:
    language = "" if is_english(e.language) else f", {e.language}"
    return f"🔍 goal: {e.core_goal} ({e.complexity}, ~{e.estimated_phases} phase(s){language})"


def _phases(e: ev.PhasesPlanned) -> str:
    names = "; ".join(f"{p['id']}. {p['name']}" for p in e.phases)
    return f"📋 {len(e.phases)} phase(s): {names}"


def _phase(e: ev.PhaseStarted) -> str:
    return f"\n🎯 Phase {e.index}/{e.total}: {e.name} — {e.goal} (≤{e.max_rounds} rounds)"


def _planned(e: ev.TasksPlanned) -> str:
    lines = [f"  Round {e.round}/{e.max_rounds} · {e.mode}: {len(e.tasks)} task(s)"]
    for t in e.tasks:
        deps = f" after {t['dependencies']}" if t["dependencies"] else ""
        lines.append(f"    [{t['id']}] {t['title']} · {t['tool']} · p{t['priority']}{deps}")
    return "\n".join(lines)


def _finished(e: ev.TaskFinished) -> str:
    tail = f" — {e.error[:160]}" if e.error else ""
    how = f" · {SANDBOX_WORDS[e.sandbox]}" if e.sandbox in SANDBOX_WORDS else ""
    return (f"    {ICONS.get(e.status, '?')} task {e.task_id} {e.status} ({e.elapsed_s:.2f}s)"
            f"{how}{tail}")


def _judged(e: ev.Judged) -> str:
    flag = " (degraded)" if e.degraded else ""
    quality = describe_quality(e.quality_average, e.tasks_scored, e.tasks_total)
    return (f"  ⚖️  judge{flag}: completion {_pct(e.completion_rate)}, success "
            f"{_pct(e.success_rate)}, quality {quality} → {e.next_action}"
            f"\n     {e.user_summary}")


def _thought(e: ev.Thought) -> str:
    decision = "complete" if e.phase_completed else ("continue" if e.continue_phase else "stop")
    return f"  💭 think: {decision}. {e.next_round_strategy}".rstrip()


def _phase_done(e: ev.PhaseFinished) -> str:
    return f"  ■ phase {e.phase_id} {e.status}: {e.tasks_done}/{e.tasks_total} tasks, {e.rounds} round(s)"


REQUIREMENT_MARKS = {"done": "✓", "failed": "✗", "not_attempted": "–"}


def outcome_words(outcome: str) -> str:
    return outcome_text(outcome) or outcome or "outcome unknown"


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
    lines = [f"\n📝 {outcome_words(e.outcome)} · Summary ({e.generated_by}) · phases "
             f"{e.phases_completed} · tasks {e.total_tasks_executed} · rounds {e.total_rounds}"
             f" · quality {describe_quality(e.quality_average, e.tasks_scored)}"
             + (f" ({e.quality_assessment})" if e.quality_assessment else ""), e.final_summary]
    lines += [f"  ★ {h}" for h in e.highlights]
    lines += requirement_lines(e.requirements, e.requirements_note)
    lines += [f"  Assumed (not asked for, not counted): {a}" for a in e.assumptions]
    if e.verification:
        lines.append("  Checked: " + (" ".join(e.verification_sentences) or "nothing"))
    return "\n".join(lines)


def _run_finished(e: ev.RunFinished) -> str:
    return (f"■ {ending_line(e.outcome, e.verification, e.verification_line)} "
            f"({e.status.replace('_', ' ')}) · {e.llm_calls} LLM "
            f"calls · {e.prompt_tokens} prompt + {e.completion_tokens} completion tokens · "
            f"{e.elapsed_s:.1f}s")


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
