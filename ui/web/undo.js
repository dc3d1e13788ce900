/* Undo on a run's Changes section: "Undo these changes" for the whole run, "Undo file" for one
   file; ask the window, show its answer there. */
"use strict";

(function (PD) {
  const LABEL = "↶ Undo these changes";
  const FILE_LABEL = "↶ Undo file";
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

  /** The undo button of one file in the Changes section; none while the run's id is unknown. */
  PD.fileUndoButton = function (run, path) {
    const runId = PD.str(run.el.dataset.runId);
    if (!runId) return null;
    const button = PD.el("button", "ghost file-undo-btn", FILE_LABEL);
    button.type = "button";
    button.title = "Put " + path + " back the way it was before this run; the run's other files keep their changes";
    button.addEventListener("click", () => {
      button.disabled = true;
      button.textContent = "Undoing…";
      PD.call("undo_file", { run_id: runId, path });
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

  function markFile(row, undone) {
    const button = row.querySelector(".file-undo-btn");
    if (button) {
      button.disabled = undone;
      button.textContent = undone ? UNDONE : FILE_LABEL;
    }
    if (undone) row.classList.add("undone");
  }

  function markRun(card, undone) {
    const button = card.querySelector(".undo-btn");
    if (button) {
      button.disabled = undone;
      button.textContent = undone ? UNDONE : LABEL;
    }
    if (!undone) return;
    card.classList.add("undone");
    for (const row of card.querySelectorAll(".files-list .file")) markFile(row, true);
  }

  /** The answer for one file: its row says it, and the run counts as undone once every file is. */
  function renderFileUndo(card, ev, status) {
    const path = PD.str(ev.path);
    const row = Array.from(card.querySelectorAll(".files-list .file")).find((r) => r.dataset.path === path);
    if (!row) return;
    const undone = status === "done" || status === "undone";
    markFile(row, undone);
    if (status === "cancelled") return;
    const old = row.querySelector(".file-undo-note");
    if (old) old.remove();
    const line = PD.el("div", "file-undo-note " + (undone ? "done" : "refused"),
      (undone ? "↶ " : "⚠️ ") + PD.str(ev.message));
    row.insertBefore(line, row.querySelector(".file-body"));
    if (ev.run_undone === true) markRun(card, true);
  }

  /** The window's answer to an undo request (or, on replay, that the run or a file of it was
      undone since). */
  PD.renderUndo = function (ev) {
    const status = PD.str(ev.status);
    const card = filesCard(PD.str(ev.run_id));
    if (!card) {
      if (PD.str(ev.message)) PD.renderUiMessage({ level: status === "done" ? "info" : "warning", message: ev.message });
      return;
    }
    if (PD.str(ev.path)) {
      renderFileUndo(card, ev, status);
      return;
    }
    const undone = status === "done" || status === "undone";
    markRun(card, undone);
    if (status === "cancelled") return;
    const old = card.querySelector(".undo-note");
    if (old) old.remove();
    PD.add(card, note(status, ev));
  };
})(window.PD);
