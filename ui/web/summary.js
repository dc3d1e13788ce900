/* The purple Summarizer panel (seed 000). Its Markdown HTML was rendered and sanitised in Python. */
"use strict";

(function (PD) {
  const BADGES = {
    completed: ["badge-success", "✅ Completed"],
    cancelled: ["badge-muted", "⏹ Stopped"],
    budget_exhausted: ["badge-warning", "⏳ Budget used up"],
    failed: ["badge-error", "⚠️ Failed"],
    clarification_needed: ["badge-warning", "❓ Needs your answer"],
  };
  /* The page's copy of core/shapes/wording.py's OUTCOME_WORDING (emoji, capitalised words);
     tests/unit/ui/test_page_messages.py keeps the two equal. */
  const OUTCOMES = {
    succeeded: ["badge-success", "✅ Succeeded"],
    partial: ["badge-warning", "◐ Partly done"],
    failed: ["badge-error", "❌ Failed"],
  };
  const REQUIREMENT_ICONS = { done: "✅", failed: "❌", not_attempted: "○" };
  /* The verification state (core/engine/verification/state.py): what checked the final files. */
  const VERIFICATION = {
    verified: ["badge-success", "🧪 "],
    failing: ["badge-error", "🧪 "],
    unverified: ["badge-muted", "🧪 "],
  };
  const COLLAPSE_PX = 420;

  /** The outcome badge (what the run achieved), or null for runs recorded without one. */
  PD.outcomeBadge = function (outcome) {
    const entry = OUTCOMES[PD.str(outcome)];
    if (!entry) return null;
    const badge = PD.el("span", "badge outcome " + entry[0], entry[1]);
    badge.dataset.outcome = PD.str(outcome);
    return badge;
  };

  /** Whether the run's status says more than its outcome: a run stopped, out of budget or
      waiting for an answer says so; "completed" beside an outcome, or "failed" beside the
      outcome "failed", repeats it. */
  function statusAddsToOutcome(status, outcome) {
    if (status === "completed") return false;
    return !(status === "failed" && PD.str(outcome) === "failed");
  }

  /** The compact checklist of the analysis's requirements; model text goes in as text. */
  function requirementList(ev) {
    const entries = PD.arr(ev.requirements).filter((r) => r && typeof r === "object");
    const box = PD.el("div", "summarizer-requirements");
    if (!entries.length) {
      if (!PD.str(ev.requirements_note)) return null;
      return PD.add(box, PD.el("div", "requirements-note", "Requirements: none listed — " +
        PD.str(ev.requirements_note)));
    }
    const list = PD.el("ul", "requirements");
    for (const entry of entries) {
      const status = REQUIREMENT_ICONS[PD.str(entry.status)] ? PD.str(entry.status) : "not_attempted";
      const item = PD.el("li", "requirement requirement-" + status);
      item.dataset.status = status;
      PD.add(item, PD.el("span", "requirement-icon", REQUIREMENT_ICONS[status]),
        PD.el("span", "requirement-text", PD.str(entry.requirement)),
        PD.el("span", "requirement-status", PD.words(status)));
      if (PD.str(entry.evidence)) {
        PD.add(item, PD.add(PD.el("div", "requirement-evidence"), PD.el("span", "evidence-label", "Evidence: "),
          PD.el("span", "evidence-text", PD.str(entry.evidence))));
      }
      PD.add(list, item);
    }
    return PD.add(box, PD.el("h4", "", "☑️ Requirements"), list);
  }

  /** The verification chip ("12 tests pass", "not verified"), or null for runs recorded
      before the state existed. */
  PD.verificationBadge = function (state, line) {
    const entry = VERIFICATION[PD.str(state)];
    if (!entry) return null;
    const words = PD.str(state) === "unverified" ? "not verified" : PD.str(line) || PD.words(state);
    const badge = PD.el("span", "badge verification " + entry[0], entry[1] + words);
    badge.dataset.verification = PD.str(state);
    return badge;
  };

  /** What checked the final files, as sentences, and the requirements the person did not
      state (assumed, not counted). */
  function checkedBlock(ev) {
    const sentences = PD.arr(ev.verification_sentences).map(PD.str).filter(Boolean);
    const assumed = PD.arr(ev.assumptions).map(PD.str).filter(Boolean);
    if (!sentences.length && !assumed.length) return null;
    const box = PD.el("div", "summarizer-checked");
    if (sentences.length) {
      PD.add(box, PD.el("h4", "", "🧪 Checked"), PD.el("div", "checked-text", sentences.join(" ")));
    }
    if (assumed.length) {
      const list = PD.el("ul", "assumptions");
      for (const a of assumed) PD.add(list, PD.el("li", "assumption", a));
      PD.add(box, PD.el("h4", "", "Assumed, not asked for (not counted)"), list);
    }
    return box;
  }

  function stat(icon, label, value) {
    const item = PD.el("div", "stat-item");
    const text = PD.add(PD.el("span"), label + ": ", PD.el("span", "stat-value", value));
    return PD.add(item, PD.el("span", "stat-icon", icon), text);
  }

  function addToggle(panel, content) {
    if (content.scrollHeight <= COLLAPSE_PX) return;
    panel.classList.add("collapsed");
    const toggle = PD.el("div", "summarizer-toggle");
    const button = PD.el("button", "", "Show more ▾");
    button.type = "button";
    button.addEventListener("click", () => {
      const collapsed = panel.classList.toggle("collapsed");
      button.textContent = collapsed ? "Show more ▾" : "Show less ▴";
    });
    PD.add(panel, PD.add(toggle, button));
  }

  PD.renderSummary = function (ev) {
    const run = PD.currentRun();
    PD.endStage();
    run.activePhase = null;
    const status = PD.str(ev.status) || "completed";
    const [badgeClass, badgeText] = BADGES[status] || ["badge-muted", PD.words(status)];
    const panel = PD.el("div", "message-summarizer");
    panel.dataset.status = status;
    const header = PD.el("div", "summarizer-header");
    const outcome = PD.outcomeBadge(ev.outcome);
    PD.add(header, PD.el("span", "summarizer-icon", "📝"), PD.el("span", "summarizer-title", "Summary"),
      outcome, statusAddsToOutcome(status, ev.outcome) || !outcome ?
        PD.el("span", "badge run-status " + badgeClass, badgeText) : null,
      PD.verificationBadge(ev.verification, ev.verification_line));
    if (PD.str(ev.outcome)) panel.dataset.outcome = PD.str(ev.outcome);
    if (PD.str(ev.generated_by) === "fallback") {
      PD.add(header, PD.el("span", "summarizer-by", "composed without the model"));
    }
    const content = PD.el("div", "summarizer-content");
    if (typeof ev.final_summary_html === "string") {
      content.appendChild(PD.html(ev.final_summary_html));
    } else {
      content.textContent = PD.str(ev.final_summary);
    }
    PD.add(panel, header, requirementList(ev), checkedBlock(ev), content);
    const highlights = PD.arr(ev.highlights).map(PD.str).filter(Boolean);
    if (highlights.length) {
      const box = PD.el("div", "summarizer-highlights");
      const list = PD.el("ul");
      for (const h of highlights) PD.add(list, PD.el("li", "", h));
      PD.add(panel, PD.add(box, PD.el("h4", "", "🌟 Highlights"), list));
    }
    const stats = PD.el("div", "summarizer-stats");
    PD.add(stats, stat("📊", "Phases", PD.num(ev.phases_completed)),
      stat("✓", "Tasks", PD.num(ev.total_tasks_executed)),
      stat("🔄", "Rounds", PD.num(ev.total_rounds)));
    if (PD.num(ev.tasks_scored) > 0 && ev.quality_average !== null) {
      const scored = PD.num(ev.tasks_scored);
      PD.add(stats, stat("⚖️", "Avg quality", PD.num(ev.quality_average).toFixed(1) + " (" + scored +
        (scored === 1 ? " task" : " tasks") + " scored)"));
    }
    if (PD.str(ev.quality_assessment)) PD.add(stats, stat("⭐", "Quality", PD.str(ev.quality_assessment)));
    PD.add(panel, stats);
    PD.add(run.body, panel);
    run.summary = panel;
    addToggle(panel, content);
  };
})(window.PD);
