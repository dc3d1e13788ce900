/* Retry and Edit in a finished run's footer: its request again as a new run of the same
   conversation (through the window, which knows the run), or back in the input to change. */
"use strict";

(function (PD) {
  const RETRY = "↻ Retry";

  function button(cls, text, title) {
    const b = PD.el("button", "ghost " + cls, text);
    b.type = "button";
    b.title = title;
    return b;
  }

  /** The footer's Retry and Edit for a finished run; none without its id or its request.
      Hidden while a run is going (style.css, body[data-state]). */
  PD.againButtons = function (run) {
    const runId = PD.str(run.el.dataset.runId);
    const request = PD.str(run.request);
    if (!runId || !request) return null;
    const retry = button("retry-btn", RETRY, "Run this request again: a new run in this conversation");
    retry.addEventListener("click", () => {
      for (const b of PD.timeline().querySelectorAll(".retry-btn")) b.disabled = true;
      retry.textContent = "Starting…";
      PD.call("retry_run", { run_id: runId });
    });
    const edit = button("edit-btn", "✎ Edit", "Put this request back in the input to change it and send it again");
    edit.addEventListener("click", () => PD.editRequest(request));
    return PD.add(PD.el("div", "run-again"), retry, edit);
  };

  /** The window answered a request the page sent: Retry works again; a refused answer to a
      question can be sent again from its card. */
  PD.requestAnswered = function (accepted, text) {
    for (const b of PD.timeline().querySelectorAll(".retry-btn")) {
      b.disabled = false;
      b.textContent = RETRY;
    }
    if (accepted) return;
    for (const card of PD.timeline().querySelectorAll(".clarify.answered")) {
      const answer = card.querySelector(".clarify-answer");
      if (answer && answer.value.trim() === text) card.classList.remove("answered");
    }
  };
})(window.PD);
