/* "Keep in memory" in a finished run's footer: ask the window, show the state it stored. */
"use strict";

(function (PD) {
  const KEEP = "☆ Keep in memory";
  const KEPT = "★ Kept in memory";
  const TIP = "Later requests in this conversation will see this run's summary, " +
    "even once it is no longer among the most recent runs";

  function show(button, marked) {
    button.dataset.marked = marked ? "true" : "false";
    button.setAttribute("aria-pressed", marked ? "true" : "false");
    button.classList.toggle("kept", marked);
    button.textContent = marked ? KEPT : KEEP;
    button.disabled = false;
  }

  /** The toggle for a finished run's footer; none while the run's id is unknown. */
  PD.markToggle = function (run) {
    const runId = PD.str(run.el.dataset.runId);
    if (!runId) return null;
    const button = PD.el("button", "ghost mark-btn");
    button.type = "button";
    button.title = TIP;
    show(button, false);
    button.addEventListener("click", () => {
      const marked = button.dataset.marked !== "true";
      button.disabled = true;
      PD.call("mark_run", { run_id: runId, marked });
    });
    return button;
  };

  function runEl(runId) {
    for (const run of PD.timeline().querySelectorAll(".run")) {
      if (run.dataset.runId === runId) return run;
    }
    return null;
  }

  /** The window's answer to a toggle (or, on replay, that the run is kept in memory). */
  PD.renderMark = function (ev) {
    const status = PD.str(ev.status);
    const run = runEl(PD.str(ev.run_id));
    const button = run && run.querySelector(".run-footer .mark-btn");
    if (!button) {
      if (status === "refused") PD.renderUiMessage({ level: "warning", message: ev.message });
      return;
    }
    const old = run.querySelector(".mark-note");
    if (old) old.remove();
    if (status !== "refused") {
      show(button, ev.marked === true);
      return;
    }
    show(button, button.dataset.marked === "true");
    PD.add(run, PD.add(PD.el("div", "notice notice-warning mark-note"), PD.el("span", "notice-icon", "⚠️"),
      PD.el("span", "notice-text", PD.str(ev.message))));
  };
})(window.PD);
