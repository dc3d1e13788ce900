/* The model call under way: "Judge · round 2 · 7 s" on the current card with a live timer,
   and the reply as it is written (summary, the judge's and Think's line, a text answer).
   The call's llm_call ends it; the stage's own result (judged, thought, summary) replaces
   the streamed text. Model text only ever goes in as text. */
"use strict";

(function (PD) {
  /* The page's copy of core/shapes/wording.py's STAGE_LABELS; tests/unit/ui/test_page_messages.py
     keeps the two equal. */
  const LABELS = {
    request_analyser: "Reading the request",
    phase_planner: "Planning the phases",
    plan: "Plan",
    judge: "Judge",
    think: "Think",
    summarizer: "Summary",
    classic: "Model",
    author: "Writing",
    checks: "Writing checks for",
  };
  const TICK_MS = 250;
  const TEXT_MS = 50; /* streamed text is written at most this often */
  const MAX_TEXT = 20000;
  let live = null;

  function elapsed(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    return s < 60 ? s + " s" : Math.floor(s / 60) + " min " + (s % 60) + " s";
  }

  function tick() {
    if (!live) return;
    const shown = elapsed(Date.now() - live.started);
    if (live.time.textContent !== shown) live.time.textContent = shown;
  }

  function writeText() {
    if (!live) return;
    live.flush = 0;
    live.text.textContent = live.pending;
    live.text.hidden = !live.pending;
    if (PD.followContent) PD.followContent();
  }

  /** End the call shown (its reply arrived, the run ended or the page was cleared). */
  PD.endStage = function () {
    if (!live) return;
    clearInterval(live.ticker);
    clearTimeout(live.flush);
    live.el.remove();
    live = null;
  };

  PD.renderStageStarted = function (ev) {
    const run = PD.currentRun();
    PD.endStage();
    const stage = PD.str(ev.stage);
    const round = PD.num(ev.round);
    const el = PD.el("div", "stage-live");
    el.dataset.stage = stage;
    const detail = PD.str(ev.detail).slice(0, 200);
    const label = (LABELS[stage] || PD.words(stage) || "Model") + (detail ? " " + detail : "") +
      (round ? " · round " + round : "");
    const time = PD.el("span", "stage-time", "0 s");
    const head = PD.add(PD.el("div", "stage-head"), PD.el("span", "stage-dot"),
      PD.el("span", "stage-label", label), " · ", time);
    if (PD.str(ev.model)) head.title = "Waiting for " + PD.str(ev.model);
    const text = PD.el("div", "stage-text stage-text-" + (LABELS[stage] ? stage : "other"));
    text.hidden = true;
    PD.add(PD.sink(run), PD.add(el, head, text));
    live = { el, time, text, stage, started: Date.now(), pending: "", flush: 0, ticker: 0 };
    live.ticker = setInterval(tick, TICK_MS);
  };

  PD.renderStageDelta = function (ev) {
    if (!live || PD.str(ev.stage) !== live.stage) return;
    live.pending = PD.str(ev.text).slice(0, MAX_TEXT);
    live.text.dataset.field = PD.str(ev.field);
    if (!live.flush) live.flush = setTimeout(writeText, TEXT_MS);
  };
})(window.PD);
