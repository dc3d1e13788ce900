"""Readable one-line progress for each event in a terminal run."""

from __future__ import annotations

from typing import Callable

from core import events as ev

ICONS = {"done": "✓", "failed": "✗", "blocked": "⏸", "skipped": "–", "running": "…"}


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _run_started(e: ev.RunStarted) -> str:
    return f"▶ run {e.run_id[:8]} · {e.engine} engine · {e.provider}:{e.model} · {e.workspace}"


def _analysed(e: ev.RequestAnalysed) -> str:
    return f"🔍 goal: {e.core_goal} ({e.complexity}, ~{e.estimated_phases} phase(s))"


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
    return f"    {ICONS.get(e.status, '?')} task {e.task_id} {e.status} ({e.elapsed_s:.2f}s){tail}"


def _judged(e: ev.Judged) -> str:
    flag = " (degraded)" if e.degraded else ""
    return (f"  ⚖️  judge{flag}: completion {_pct(e.completion_rate)}, success "
            f"{_pct(e.success_rate)}, quality {e.quality_average:.1f} → {e.next_action}"
            f"\n     {e.user_summary}")


def _thought(e: ev.Thought) -> str:
    decision = "complete" if e.phase_completed else ("continue" if e.continue_phase else "stop")
    return f"  💭 think: {decision}. {e.next_round_strategy}".rstrip()


def _phase_done(e: ev.PhaseFinished) -> str:
    return f"  ■ phase {e.phase_id} {e.status}: {e.tasks_done}/{e.tasks_total} tasks, {e.rounds} round(s)"


def _summary(e: ev.Summary) -> str:
    lines = [f"\n📝 Summary ({e.generated_by}) · phases {e.phases_completed} · tasks "
             f"{e.total_tasks_executed} · rounds {e.total_rounds} · quality {e.quality_assessment}",
             e.final_summary]
    lines += [f"  ★ {h}" for h in e.highlights]
    return "\n".join(lines)


def _run_finished(e: ev.RunFinished) -> str:
    return (f"■ {e.status} · {e.llm_calls} LLM calls · {e.prompt_tokens} prompt + "
            f"{e.completion_tokens} completion tokens · {e.elapsed_s:.1f}s")


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
    ev.ApprovalRequested: lambda e: f"  ⚠ approval needed for {e.action}: {e.detail}",
    ev.FileChanged: lambda e: f"    ✎ {e.change} {e.path} ({e.bytes} bytes)",
    ev.ContextCompacted: lambda e: f"  ⇣ context compacted {e.before_tokens} → {e.after_tokens} tokens",
    ev.Notice: lambda e: f"  {'⚠' if e.level != 'info' else 'ℹ'} {e.message}",
    ev.Summary: _summary,
    ev.RunFinished: _run_finished,
}


def describe(event: ev.Event) -> str:
    """The line to print for ``event``; empty for events not worth a line."""
    printer = PRINTERS.get(type(event))
    return printer(event) if printer else ""
