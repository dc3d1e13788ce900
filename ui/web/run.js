/* One run's section: request bubble, analysis, phases with progress, live counters, footer. */
"use strict";

(function (PD) {
  let current = null;

  function newRun(ev) {
    const el = PD.el("section", "run");
    const body = PD.el("div", "run-body");
    const meta = PD.el("div", "run-meta");
    const live = PD.el("span", "run-live");
    const run = {
      el, body, meta, live, activePhase: null, phases: new Map(), tasks: new Map(),
      latestTask: new Map(), files: null, calls: 0, budget: PD.num(ev.budget), tokens: 0, cached: 0,
      finished: false, summary: null, request: PD.str(ev.request),
    };
    el.dataset.runId = PD.str(ev.run_id);
    if (PD.str(ev.request)) {
      const row = PD.el("div", "bubble-row");
      PD.add(el, PD.add(row, PD.el("div", "bubble", PD.str(ev.request))));
    }
    if (PD.str(ev.engine)) PD.add(meta, PD.chip("", PD.str(ev.engine) === "classic" ? "Classic loop" : "Phase engine"));
    if (PD.str(ev.provider)) {
      PD.add(meta, PD.chip("", PD.str(ev.provider) + (PD.str(ev.model) ? " · " + PD.str(ev.model) : "")));
    }
    PD.add(meta, live);
    PD.add(el, meta, body);
    PD.add(PD.timeline(), el);
    return run;
  }

  function updateLive(run) {
    const budget = run.budget ? "/" + run.budget : "";
    const uncached = run.cached ? " · " + (run.tokens - run.cached).toLocaleString() + " uncached" : "";
    run.live.textContent = "🧠 " + run.calls + budget + " LLM calls · " +
      run.tokens.toLocaleString() + " tokens" + uncached;
  }

  PD.currentRun = function () {
    if (!current) current = newRun({});
    return current;
  };

  /** Where the next item of the run goes: the active phase, else the run body. */
  PD.sink = function (run) {
    return run.activePhase ? run.activePhase.body : run.body;
  };

  PD.resetRuns = function () {
    current = null;
  };

  function makePhase(run, id, ev) {
    const el = PD.el("section", "phase");
    el.dataset.phaseId = String(id);
    const head = PD.el("div", "phase-head");
    const badge = PD.el("span", "badge badge-running", "running");
    const title = PD.el("div", "phase-title");
    const index = PD.num(ev.index) ? "Phase " + PD.num(ev.index) + "/" + PD.num(ev.total) : "Steps";
    PD.add(title, PD.el("span", "phase-index", index), PD.el("span", "phase-name", PD.str(ev.name)), badge);
    const roundText = PD.el("span", "phase-round");
    const bar = PD.el("div", "bar");
    const fill = PD.el("div", "bar-fill");
    const countText = PD.el("span", "phase-count");
    const progress = PD.add(PD.el("div", "phase-progress"), roundText, PD.add(bar, fill), countText);
    PD.add(head, title);
    if (PD.str(ev.goal)) PD.add(head, PD.el("div", "phase-goal", PD.str(ev.goal)));
    PD.add(head, progress);
    const body = PD.el("div", "phase-body");
    PD.add(el, head, body);
    const phase = {
      el, body, badge, round: 0, maxRounds: PD.num(ev.max_rounds), taskStatus: new Map(),
      finalCount: null, lines: new Set(),
      setRound(round, maxRounds) {
        phase.round = round;
        if (maxRounds) phase.maxRounds = maxRounds;
        phase.refresh();
      },
      refresh() {
        let done = 0;
        for (const status of phase.taskStatus.values()) if (status === "done") done += 1;
        const total = phase.taskStatus.size;
        const [d, t] = phase.finalCount || [done, total];
        roundText.textContent = phase.blocked ? "Not run" : !phase.round ?
          (phase.el.classList.contains("finished") ? "No round run" : "Planning…") :
          "Round " + phase.round + (phase.maxRounds ? " (at most " + phase.maxRounds + ")" : "");
        countText.textContent = d + "/" + t + " tasks done";
        fill.style.width = (t ? Math.round((d / t) * 100) : 0) + "%";
      },
    };
    phase.refresh();
    run.phases.set(id, phase);
    return phase;
  }

  /** The phase with this id; one made from the phase plan when it was never started (a blocked
   * phase), else an implicit one (classic engine, phase 0). */
  PD.phaseOf = function (run, phaseId) {
    const id = PD.num(phaseId);
    let phase = run.phases.get(id);
    if (!phase) {
      const planned = (run.planned || []).findIndex((p) => PD.num(p.id) === id);
      const p = planned >= 0 ? run.planned[planned] : null;
      phase = makePhase(run, id, p ? { name: PD.str(p.name), goal: PD.str(p.goal), index: planned + 1,
        total: run.planned.length } : { name: id ? "Phase " + id : "" });
      PD.add(run.body, phase.el);
      run.activePhase = phase;
    }
    return phase;
  };

  PD.renderRunStarted = function (ev) {
    if (current && !current.finished) PD.finishRun(current, "");
    for (const card of PD.timeline().querySelectorAll(".clarify:not(.answered)")) card.classList.add("answered");
    current = newRun(ev);
    updateLive(current);
    PD.showBanner(PD.str(ev.provider) === "embedded" && PD.offlineDemo === true);
  };

  PD.renderLlmCall = function (ev) {
    const run = PD.currentRun();
    PD.endStage();
    run.calls = Math.max(run.calls + 1, PD.num(ev.calls_used));
    if (PD.num(ev.budget)) run.budget = PD.num(ev.budget);
    run.tokens += PD.num(ev.prompt_tokens) + PD.num(ev.completion_tokens);
    run.cached += Math.min(PD.num(ev.cached_tokens), PD.num(ev.prompt_tokens));
    updateLive(run);
    PD.inspectCall(run, ev);
    if (ev.ok === false && PD.str(ev.error)) {
      PD.renderNotice({ level: "warning", message: "Model call failed: " + PD.str(ev.error), stage: ev.stage });
    }
  };

  function listBlock(label, items) {
    const values = PD.arr(items).map(PD.str).filter(Boolean);
    if (!values.length) return null;
    const block = PD.el("div", "analysis-block");
    const list = PD.el("ul");
    for (const value of values) PD.add(list, PD.el("li", "", value));
    return PD.add(block, PD.el("div", "analysis-label", label), list);
  }

  PD.renderRequestAnalysed = function (ev) {
    const run = PD.currentRun();
    const card = PD.el("div", "analysis");
    const head = PD.el("div", "analysis-head");
    /* A goal left empty (every clause of it named an engine identifier, ui/render.py) reads
       as the person's own request. */
    const goal = PD.str(ev.core_goal) || run.request.split("\n")[0].slice(0, 300);
    PD.add(head, PD.el("span", "analysis-icon", "🎯"), PD.el("span", "analysis-goal", goal),
      PD.el("span", "badge badge-muted", "complexity: " + (PD.str(ev.complexity) || "?")));
    const language = PD.str(ev.language);
    if (language && !/^english\b/i.test(language)) {
      PD.add(head, PD.el("span", "badge badge-muted analysis-language", "language: " + language));
    }
    const cols = PD.add(PD.el("div", "analysis-cols"), listBlock("Requirements", ev.requirements),
      listBlock("Constraints", ev.constraints));
    if (PD.arr(ev.assumptions).length) {
      const assumed = listBlock("Assumed, not asked for", ev.assumptions);
      assumed.classList.add("analysis-assumptions");
      PD.add(cols, assumed);
    }
    PD.add(run.body, PD.add(card, head, cols));
  };

  PD.renderPhasesPlanned = function (ev) {
    const run = PD.currentRun();
    const phases = PD.arr(ev.phases).filter((p) => p && typeof p === "object");
    const card = PD.el("div", "phases-plan");
    PD.add(card, PD.el("div", "phases-plan-head", "🗺️ " + phases.length +
      (phases.length === 1 ? " phase planned" : " phases planned") +
      (PD.str(ev.execution_strategy) ? " · " + PD.str(ev.execution_strategy) : "")));
    const list = PD.el("ol", "phases-list");
    run.planned = phases;
    for (const p of phases) {
      const item = PD.add(PD.el("li"), PD.el("span", "phases-name", PD.str(p.name)));
      item.dataset.phaseId = String(PD.num(p.id));
      if (PD.str(p.goal)) PD.add(item, PD.el("span", "phases-goal", " — " + PD.str(p.goal)));
      PD.add(list, item);
    }
    PD.add(run.body, PD.add(card, list));
  };

  PD.renderPhaseStarted = function (ev) {
    const run = PD.currentRun();
    const phase = makePhase(run, PD.num(ev.phase_id), ev);
    PD.add(run.body, phase.el);
    run.activePhase = phase;
  };

  PD.renderPhaseFinished = function (ev) {
    const run = PD.currentRun();
    const phase = PD.phaseOf(run, ev.phase_id);
    const status = PD.str(ev.status) || "finished";
    phase.blocked = status === "blocked" || status === "superseded";  // not run
    phase.badge.className = "badge " + (status === "completed" ? "badge-success" :
      phase.blocked ? "badge-muted" : "badge-warning");
    phase.badge.textContent = PD.words(status);
    if (phase.blocked) {
      phase.el.classList.add("blocked");
      const lists = run.body.querySelectorAll(".phases-list");  // the latest plan's
      for (const item of lists.length ? lists[lists.length - 1].children : []) {
        if (item.dataset.phaseId === String(PD.num(ev.phase_id))) item.classList.add("blocked");
      }
    }
    phase.finalCount = [PD.num(ev.tasks_done), PD.num(ev.tasks_total)];
    phase.el.classList.add("finished");
    if (PD.str(ev.summary) && !phase.lines.has(PD.sameText(ev.summary))) {
      PD.add(phase.body, PD.markdown("div", "phase-summary", ev.summary, ev.summary_html));
    }
    phase.refresh();
    if (run.activePhase === phase) run.activePhase = null;
  };

  PD.renderClarification = function (ev) {
    const run = PD.currentRun();
    const card = PD.el("div", "clarify");
    PD.add(card, PD.el("div", "clarify-head", "❓ A few questions before starting"));
    const list = PD.el("ol", "clarify-questions");
    for (const q of PD.arr(ev.questions).map(PD.str).filter(Boolean)) PD.add(list, PD.el("li", "", q));
    const answer = PD.el("textarea", "clarify-answer");
    answer.rows = 3;
    answer.placeholder = "Your answer…";
    const button = PD.el("button", "primary", "Send answer");
    button.type = "button";
    const analysis = ev.analysis && typeof ev.analysis === "object" ? ev.analysis : {};
    button.addEventListener("click", () => {
      const text = answer.value.trim();
      if (!text) return;
      PD.call("submit", { text, previous_analysis: analysis });
      card.classList.add("answered");
    });
    PD.add(run.body, PD.add(card, list, answer, PD.add(PD.el("div", "clarify-actions"), button)));
  };

  /* How a phase still open when its run ends is left (the run's status decides). */
  const PHASE_ENDS = {
    cancelled: ["badge-muted", "stopped"],
    budget_exhausted: ["badge-warning", "budget spent"],
    failed: ["badge-error", "ended by an error"],
    clarification_needed: ["badge-muted", "waiting for your answer"],
    interrupted: ["badge-error", "interrupted"],
  };

  /** Every phase and card of the run in its final state: a phase its run left open says how
      the run ended, and cards still pending or running are marked as cut off. */
  function settlePhases(run, status) {
    const [badgeClass, words] = PHASE_ENDS[status] || ["badge-muted", "ended"];
    const open = Array.from(run.phases.values()).filter((p) => !p.el.classList.contains("finished"));
    if (open.length || status !== "completed") PD.interruptTasks(run, status);
    for (const phase of open) {
      phase.badge.className = "badge " + badgeClass;
      phase.badge.textContent = words;
      phase.el.classList.add("finished", "ended-" + (PHASE_ENDS[status] ? status : "other"));
      phase.refresh();
    }
  }

  PD.finishRun = function (run, status) {
    run.finished = true;
    run.activePhase = null;
    PD.stopTicking();
    PD.endStage();
    if (status !== "running") settlePhases(run, status || "interrupted");  /* running: elsewhere */
    if (status) run.el.dataset.status = status;
  };

  PD.renderRunFinished = function (ev) {
    const run = PD.currentRun();
    const footer = PD.el("div", "run-footer");
    run.live.textContent = "";
    PD.add(footer, PD.outcomeBadge(ev.outcome, ev.verification, ev.verification_line),
      PD.endingNote(ev.status, ev.outcome),
      PD.chip("LLM calls", PD.num(ev.llm_calls).toLocaleString()),
      PD.chip("Prompt tokens", PD.num(ev.prompt_tokens).toLocaleString()),
      PD.chip("Completion tokens", PD.num(ev.completion_tokens).toLocaleString()));
    if (run.cached) {
      PD.add(footer, PD.chip("Uncached prompt tokens",
        Math.max(PD.num(ev.prompt_tokens) - run.cached, 0).toLocaleString()));
    }
    PD.add(footer, PD.chip("Elapsed", PD.secs(ev.elapsed_s)), PD.againButtons(run),
      PD.markToggle(run));
    PD.add(run.el, footer);
    PD.finishRun(run, PD.str(ev.status));
    if (PD.str(ev.outcome)) run.el.dataset.outcome = PD.str(ev.outcome);
  };

  /** The end of a recorded run that never finished (the app was closed or killed mid-run). */
  PD.renderRunEnd = function (ev) {
    const run = PD.currentRun();
    if (PD.str(ev.status) === "interrupted") {
      PD.add(run.body, PD.el("div", "notice interrupted-note",
        "⚠️ Interrupted — PhaseDesk stopped before this run finished. Everything recorded up to then is shown."));
    }
    PD.renderRunFinished(ev);
  };
})(window.PD);
