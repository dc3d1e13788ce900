/* Smaller run items: notices, approvals, context compaction, stop notes. */
"use strict";

(function (PD) {
  const LEVEL_ICONS = { info: "ℹ️", warning: "⚠️", error: "⛔" };
  const DECISION_TEXT = { once: "Approved once", run: "Approved for this run", deny: "Denied" };
  const approvals = new Map();

  function target() {
    const run = PD.currentRun();
    return PD.sink(run);
  }

  PD.renderNotice = function (ev) {
    const level = LEVEL_ICONS[PD.str(ev.level)] ? PD.str(ev.level) : "info";
    const line = PD.el("div", "notice notice-" + level);
    PD.add(line, PD.el("span", "notice-icon", LEVEL_ICONS[level]), PD.el("span", "notice-text", PD.str(ev.message)));
    if (PD.str(ev.stage)) PD.add(line, PD.el("span", "notice-stage", PD.words(ev.stage)));
    PD.add(target(), line);
  };

  /** A message from the window itself (refused submit, settings saved, problems). */
  PD.renderUiMessage = function (ev) {
    const level = LEVEL_ICONS[PD.str(ev.level)] ? PD.str(ev.level) : "info";
    const line = PD.el("div", "notice ui-message notice-" + level);
    PD.add(line, PD.el("span", "notice-icon", LEVEL_ICONS[level]), PD.el("span", "notice-text", PD.str(ev.message)));
    PD.add(PD.timeline(), line);
  };

  PD.renderStopping = function () {
    const run = PD.currentRun();
    if (run.finished || run.el.querySelector(".stopping-note")) return;
    const line = PD.el("div", "notice stopping-note", "⏹ Stopping… the summary follows.");
    PD.add(PD.sink(run), line);
  };

  PD.renderApprovalRequested = function (ev) {
    const id = PD.str(ev.request_id);
    const card = PD.el("div", "approval");
    card.dataset.requestId = id;
    const action = PD.str(ev.action);
    const what = action === "write" ? "write a file" : action === "mcp" ? "call an MCP server's tool" :
      action === "read" ? "send a file that looks like a secret" :
      action === "send" ? "send this workspace's files to a model on another machine" :
      "run a command";
    PD.add(card, PD.el("div", "approval-head", "🔐 The agent wants to " + what),
      PD.el("pre", "approval-detail", PD.clip(ev.detail, 4000)));
    if (action === "write" && typeof ev.diff_html === "string") {
      PD.add(card, PD.el("div", "approval-diff-head", "What will be written:"),
        PD.diffBlock(ev.diff_html));
    }
    const actions = PD.el("div", "approval-actions");
    const buttons = [["once", "Approve", "primary"], ["run", "Approve for this run", "ghost"],
      ["deny", "Deny", "danger"]].map(([decision, label, cls]) => {
      const button = PD.el("button", cls, label);
      button.type = "button";
      button.dataset.decision = decision;
      button.addEventListener("click", () => {
        for (const b of buttons) b.disabled = true;
        PD.call("approve", { request_id: id, decision });
      });
      return button;
    });
    PD.add(actions, ...buttons);
    PD.add(card, actions);
    approvals.set(id, { card, actions });
    const run = PD.currentRun();
    if (!PD.addToTaskCard(run, ev.phase_id, ev.task_id, card)) PD.add(PD.sink(run), card);
  };

  PD.renderApprovalResolved = function (ev) {
    const entry = approvals.get(PD.str(ev.request_id));
    if (!entry) return;
    const decision = PD.str(ev.decision);
    entry.actions.replaceChildren(PD.el("span", "approval-answer decision-" + decision,
      DECISION_TEXT[decision] || PD.words(decision)));
    entry.card.classList.add("resolved");
    approvals.delete(PD.str(ev.request_id));
  };

  PD.renderContextCompacted = function (ev) {
    const line = PD.el("div", "notice notice-muted",
      "🗜 Context compacted for " + PD.words(ev.stage) + ": " + PD.num(ev.before_tokens).toLocaleString() +
      " → " + PD.num(ev.after_tokens).toLocaleString() + " tokens");
    PD.add(target(), line);
  };

  PD.resetNotes = function () {
    approvals.clear();
  };
})(window.PD);
