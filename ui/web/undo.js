/* "Undo these changes" on a run's Files changed card: ask the window, show its answer there. */
"use strict";

(function (PD) {
  const LABEL = "↶ Undo these changes";
  const UNDONE = "✓ Undone";
  const MAX_LISTED = 50;

  /** The undo button for a run's Files changed card; none while the run's id is unknown. */
  PD.undoButton = function (run) {
    const runId = PD.str(run.el.dataset.runId);
    if (!runId) return null;
    const button = PD.el("button", "ghost undo-btn", LABEL);
    button.type = "button";
    button.title = "Put the files this run changed back the way they were before it";
    button.addEventListener("click", () => {
      button.disabled = true;
      button.textContent = "Undoing…";
      PD.call("undo_run", { run_id: runId });
    });
    return button;
  };

  function filesCard(runId) {
    for (const run of PD.timeline().querySelectorAll(".run")) {
      if (run.dataset.runId === runId) return run.querySelector(".files");
    }
    return null;
  }

  function fileList(ev) {
    const rows = [];
    for (const change of ["restored", "deleted"]) {
      for (const path of PD.arr(ev[change]).map(PD.str).filter(Boolean)) rows.push([change, path]);
    }
    if (!rows.length) return null;
    const list = PD.el("ul", "undo-files");
    for (const [change, path] of rows.slice(0, MAX_LISTED)) {
      PD.add(list, PD.add(PD.el("li", "file"), PD.el("span", "file-change change-" + change, change),
        PD.el("span", "file-path", path)));
    }
    if (rows.length > MAX_LISTED) PD.add(list, PD.el("li", "file", "… and " + (rows.length - MAX_LISTED) + " more"));
    return list;
  }

  function note(status, ev) {
    if (status === "done") {
      const body = PD.add(PD.el("div", "undo-body"), PD.el("div", "notice-text", PD.str(ev.message)), fileList(ev));
      return PD.add(PD.el("div", "notice undo-note undo-done"), PD.el("span", "notice-icon", "↶"), body);
    }
    if (status === "undone") {
      return PD.add(PD.el("div", "notice notice-muted undo-note"), PD.el("span", "notice-text", PD.str(ev.message)));
    }
    return PD.add(PD.el("div", "notice notice-warning undo-note"), PD.el("span", "notice-icon", "⚠️"),
      PD.el("span", "notice-text", PD.str(ev.message)));
  }

  /** The window's answer to an undo request (or, on replay, that the run was undone since). */
  PD.renderUndo = function (ev) {
    const status = PD.str(ev.status);
    const card = filesCard(PD.str(ev.run_id));
    if (!card) {
      if (PD.str(ev.message)) PD.renderUiMessage({ level: status === "done" ? "info" : "warning", message: ev.message });
      return;
    }
    const undone = status === "done" || status === "undone";
    const button = card.querySelector(".undo-btn");
    if (button) {
      button.disabled = undone;
      button.textContent = undone ? UNDONE : LABEL;
    }
    if (status === "cancelled") return;
    const old = card.querySelector(".undo-note");
    if (old) old.remove();
    if (undone) card.classList.add("undone");
    PD.add(card, note(status, ev));
  };
})(window.PD);
