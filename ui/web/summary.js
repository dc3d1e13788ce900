/* The purple Summarizer panel (seed 000). Its Markdown HTML was rendered and sanitised in Python. */
"use strict";

(function (PD) {
  /* The page's copies of core/shapes/wording.py's OUTCOME_WORDING (badge class, emoji,
     label) and ENDING_WORDS; tests/unit/ui/test_page_messages.py keeps them equal. */
  const OUTCOMES = {
    succeeded: ["badge-success", "✅", "Succeeded"],
    unverified: ["badge-info", "⚪", "Done · not verified"],
    partial: ["badge-warning", "◐", "Partly done"],
    failed: ["badge-error", "❌", "Failed"],
  };
  const ENDINGS = {
    cancelled: "stopped by you",
    budget_exhausted: "budget spent",
    failed: "ended by an error",
    clarification_needed: "waiting for your answer",
    interrupted: "interrupted",
  };
  const REQUIREMENT_ICONS = { done: "✅", failed: "❌", not_attempted: "○" };
  const COLLAPSE_PX = 420;

  /** What checked the final files, as the chip says it after the outcome ("12 tests pass",
      "not verified"); "" where the outcome says it already (a failed run nothing checked). */
  function checkedWords(outcome, state, line) {
    if (!state || outcome === "unverified" || (outcome === "failed" && state === "unverified")) return "";
    return state === "unverified" ? "not verified" : PD.str(line) || PD.words(state);
  }

  /** The run's one verdict chip: the outcome with what checked it ("✅ Succeeded · 12 tests
      pass", "⚪ Done · not verified"), as core/shapes/wording.py's outcome_chip words it; null
      for runs recorded without an outcome. */
  PD.outcomeBadge = function (outcome, state, line) {
    const key = PD.str(outcome);
    const entry = OUTCOMES[key];
    if (!entry) return null;
    const checked = checkedWords(key, PD.str(state), line);
    const badge = PD.el("span", "badge outcome " + entry[0], entry[1] + " " + entry[2] +
      (checked ? " · " + checked : ""));
    badge.dataset.outcome = key;
    if (PD.str(state)) badge.dataset.verification = PD.str(state);
    return badge;
  };

  /** How the run ended, in words beside its outcome, when that adds to it ("stopped by you",
      "budget spent"); a run without an outcome says its status. Null when it adds nothing. */
  PD.endingNote = function (status, outcome) {
    const key = PD.str(status);
    let words = ENDINGS[key] || "";
    if (key === "failed" && PD.str(outcome) === "failed") words = "";
    if (!OUTCOMES[PD.str(outcome)] && !words && key) words = PD.words(key);
    if (!words) return null;
    const note = PD.el("span", "run-ending", words);
    note.dataset.status = key;
    return note;
  };

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
    const panel = PD.el("div", "message-summarizer");
    panel.dataset.status = status;
    const header = PD.el("div", "summarizer-header");
    PD.add(header, PD.el("span", "summarizer-icon", "📝"), PD.el("span", "summarizer-title", "Summary"),
      PD.outcomeBadge(ev.outcome, ev.verification, ev.verification_line),
      PD.endingNote(status, ev.outcome));
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
    const said = PD.el("div", "summarizer-said", PD.str(ev.generated_by) === "fallback" ?
      "Composed by the engine from the run" : "In the model's words");
    PD.add(panel, header, requirementList(ev), checkedBlock(ev), said, content);
    const highlights = PD.arr(ev.highlights).map(PD.str).filter(Boolean);
    if (highlights.length) {
      const box = PD.el("div", "summarizer-highlights");
      const list = PD.el("ul");
      for (const h of highlights) PD.add(list, PD.el("li", "", h));
      PD.add(panel, PD.add(box, PD.el("h4", "", "🌟 Highlights"), list));
    }
    const stats = PD.el("div", "summarizer-stats");
    const ran = Array.from(run.phases.values()).filter((p) => !p.blocked).length;
    const done = PD.num(ev.phases_completed);
    PD.add(stats, stat("📊", "Phases done", ran > done ? done + " of " + ran : String(done)),
      stat("✓", "Tasks", PD.num(ev.total_tasks_executed)),
      stat("🔄", "Rounds", PD.num(ev.total_rounds)));
    if (PD.num(ev.tasks_scored) > 0 && ev.quality_average !== null) {
      const scored = PD.num(ev.tasks_scored);
      PD.add(stats, stat("⚖️", "Avg quality", PD.num(ev.quality_average).toFixed(1) + " (" + scored +
        (scored === 1 ? " task" : " tasks") + " scored)"));
    }
    if (PD.str(ev.quality_assessment) && PD.str(ev.generated_by) !== "fallback") {
      PD.add(stats, stat("⭐", "Quality", PD.str(ev.quality_assessment)));
    }
    PD.add(panel, stats);
    PD.add(run.body, panel);
    run.summary = panel;
    addToggle(panel, content);
  };
})(window.PD);
