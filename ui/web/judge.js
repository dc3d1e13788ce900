/* The orange ⚖️ Judge card (one per round) and the 💭 Think line (seed 001). */
"use strict";

(function (PD) {
  const DECISIONS = {
    continue_phase: "▶ Continue the phase",
    end_phase: "✅ End the phase",
    retry_failed: "🔁 Retry the failed tasks",
    replan: "🧭 Replan the phase",
  };
  const VERDICT_ICONS = { done: "✅", failed: "❌", partial: "◑", blocked: "⛔", skipped: "↷" };

  function metric(label, value) {
    const cell = PD.el("div", "metric");
    return PD.add(cell, PD.el("div", "metric-value", value), PD.el("div", "metric-label", label));
  }

  /** Average quality over the tasks the judge scored, and how many it scored; a round with
      none scored has no average. Runs recorded before scores were counted show the bare number. */
  function qualityMetric(ev) {
    if (ev.tasks_scored === undefined || ev.tasks_scored === null) {
      return metric("Avg quality", PD.num(ev.quality_average).toFixed(1));
    }
    const scored = PD.num(ev.tasks_scored);
    const total = PD.num(ev.tasks_total);
    if (!scored || ev.quality_average === null) {
      const cell = metric("Avg quality · none scored", "—");
      cell.classList.add("unscored");
      return cell;
    }
    return metric("Avg quality · " + scored + " of " + total + " scored",
      PD.num(ev.quality_average).toFixed(1));
  }

  /** The verdict's status, where the task's own result wins: a task that failed or was
      blocked is never shown ✅ whatever the judge said (``said``: the judge's word then). */
  function verdictStatus(verdict) {
    const given = PD.str(verdict.status) || "done";
    const actual = PD.str(verdict.actual);
    const said = PD.str(verdict.judge_said) || given;
    if ((actual === "failed" || actual === "blocked") && said !== actual) return [actual, said];
    return [given, ""];
  }

  function verdictItem(run, phaseId, verdict) {
    const [status, said] = verdictStatus(verdict);
    const item = PD.el("li", "verdict verdict-" + (VERDICT_ICONS[status] ? status : "other"));
    const taskId = PD.num(verdict.task_id);
    const title = PD.taskTitle(run, phaseId, taskId) || PD.str(verdict.title);
    const head = PD.el("div", "verdict-head");
    PD.add(head, PD.el("span", "verdict-icon", VERDICT_ICONS[status] || "•"),
      PD.el("span", "verdict-task", "Task " + taskId + (title ? " · " + title : "")));
    const quality = verdict.quality !== undefined ? verdict.quality : verdict.quality_score;
    if (quality === null && verdict.quality === null) {
      PD.add(head, PD.el("span", "verdict-quality unscored", "not scored"));
    } else if (quality !== undefined && quality !== null) {
      PD.add(head, PD.el("span", "verdict-quality", "quality " + PD.num(quality).toFixed(1) + "/10"));
    }
    PD.add(item, head);
    if (said) {
      PD.add(item, PD.el("div", "verdict-overruled", "The task " + (status === "blocked" ? "was blocked" : "failed") +
        "; the judge called it " + PD.words(said) + ", which does not count."));
    }
    const comment = PD.str(verdict.comment) || PD.str(verdict.reason) || PD.str(verdict.summary);
    const html = PD.str(verdict.comment) ? verdict.comment_html : undefined;
    if (comment) PD.add(item, PD.markdown("div", "verdict-comment", comment, html));
    return item;
  }

  PD.renderJudged = function (ev) {
    const run = PD.currentRun();
    const phase = PD.phaseOf(run, ev.phase_id);
    const card = PD.el("div", "judge");
    card.dataset.round = String(PD.num(ev.round));
    const head = PD.el("div", "judge-head");
    PD.add(head, PD.el("span", "judge-icon", "⚖️"), PD.el("span", "judge-title", "Judge"),
      PD.el("span", "judge-round", "Round " + PD.num(ev.round)));
    if (ev.phase_completed === true) PD.add(head, PD.el("span", "badge badge-success", "Phase complete"));
    if (ev.degraded === true) PD.add(head, PD.el("span", "badge badge-muted", "judged without the model"));
    if (ev.by_engine === true) {
      card.classList.add("by-engine");
      PD.add(head, PD.el("span", "badge badge-muted judge-by-engine", "decided from the facts, no model call"));
    }
    const metrics = PD.el("div", "judge-metrics");
    PD.add(metrics, metric("Completion", PD.pct(ev.completion_rate)),
      metric("Success", PD.pct(ev.success_rate)),
      qualityMetric(ev));
    PD.add(card, head, metrics);
    const verdicts = PD.arr(ev.verdicts).filter((v) => v && typeof v === "object");
    if (verdicts.length) {
      const list = PD.el("ul", "verdicts");
      for (const v of verdicts) PD.add(list, verdictItem(run, ev.phase_id, v));
      PD.add(card, list);
    }
    if (PD.str(ev.user_summary)) {
      PD.add(card, PD.markdown("div", "judge-summary", ev.user_summary, ev.user_summary_html));
      phase.lines.add(PD.sameText(ev.user_summary));
    }
    const decision = PD.el("div", "judge-decision");
    const action = PD.str(ev.next_action);
    PD.add(decision, PD.el("span", "decision-label", "Decision"),
      PD.el("span", "decision-value", DECISIONS[action] || PD.words(action)));
    const troubled = PD.str(ev.failed_reason) || action === "retry_failed" || action === "replan";
    if (PD.str(ev.problem_level) && troubled) {
      PD.add(decision, PD.el("span", "badge badge-muted", PD.words(ev.problem_level) + " problem"));
    }
    PD.add(card, decision);
    if (PD.str(ev.failed_reason)) {
      PD.add(card, PD.el("div", "judge-failed", "Why it failed: " + PD.str(ev.failed_reason)));
    }
    PD.add(PD.sink(run), card);
    phase.refresh();
  };

  PD.renderThought = function (ev) {
    const run = PD.currentRun();
    const line = PD.el("div", "think");
    let verdict = "stop the phase";
    if (ev.phase_completed === true) verdict = "phase complete";
    else if (ev.continue_phase === true) verdict = "another round";
    PD.add(line, PD.el("span", "think-icon", "💭"), PD.el("span", "think-label", "Think"),
      PD.el("span", "think-verdict", verdict));
    const field = PD.str(ev.next_round_strategy) ? "next_round_strategy" : "user_summary";
    if (PD.str(ev[field])) {
      PD.add(line, PD.markdown("div", "think-text", ev[field], ev[field + "_html"]));
      if (run.activePhase) run.activePhase.lines.add(PD.sameText(ev[field]));
    }
    PD.add(PD.sink(run), line);
  };
})(window.PD);
