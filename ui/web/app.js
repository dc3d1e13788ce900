/* The page's main loop: queue incoming events, apply them in animation frames, auto-scroll. */
"use strict";

(function (PD) {
  const timeline = document.getElementById("timeline");
  const input = document.getElementById("input");
  const send = document.getElementById("send");
  const stop = document.getElementById("stop");
  const status = document.getElementById("status");
  const jump = document.getElementById("jump");
  const inputNote = document.getElementById("input-note");
  const FRAME_BUDGET_MS = 12;
  const queue = [];
  let scheduled = false;
  let scrollPending = false;
  let autoTop = 0;
  let lastInput = -1e9;
  let stick = true;
  let state = "idle";
  let sent = null;  // the input's text while the window has not answered it
  const BUSY_NOTE = "A run is working: send your next request when its summary is shown, or press Stop first.";

  PD.timeline = () => timeline;
  PD.onApplied = null;

  const HANDLERS = {
    run_started: PD.renderRunStarted,
    llm_call: PD.renderLlmCall,
    stage_started: PD.renderStageStarted,
    stage_delta: PD.renderStageDelta,
    request_analysed: PD.renderRequestAnalysed,
    clarification: PD.renderClarification,
    phases_planned: PD.renderPhasesPlanned,
    phase_started: PD.renderPhaseStarted,
    tasks_planned: PD.renderTasksPlanned,
    task_started: PD.renderTaskStarted,
    task_finished: PD.renderTaskFinished,
    judged: PD.renderJudged,
    thought: PD.renderThought,
    phase_finished: PD.renderPhaseFinished,
    approval_requested: PD.renderApprovalRequested,
    approval_resolved: PD.renderApprovalResolved,
    file_changed: PD.renderFileChanged,
    context_compacted: PD.renderContextCompacted,
    notice: PD.renderNotice,
    mcp_server: PD.renderMcpServer,
    summary: PD.renderSummary,
    run_finished: PD.renderRunFinished,
    ui_run_end: PD.renderRunEnd,
    ui_message: PD.renderUiMessage,
    ui_undo: PD.renderUndo,
    ui_mark: PD.renderMark,
    ui_state: setState,
    ui_context: setContext,
    ui_clear: clear,
    ui_submitted: submitted,
    ui_command: command,
  };

  function apply(ev) {
    const handler = HANDLERS[ev.kind];
    if (!handler) {
      console.warn("unknown event kind", String(ev.kind).slice(0, 40));
      return;
    }
    if (ev.kind !== "ui_state" && ev.kind !== "ui_context" && ev.kind !== "ui_command") {
      document.getElementById("empty").hidden = true;
    }
    try {
      handler(ev);
    } catch (err) {
      console.error("could not render", ev.kind, err && err.stack ? err.stack : err);
    }
    if (PD.onApplied) PD.onApplied(ev);
  }

  /* Events are applied in short tasks (a time budget each, then yield so the page can paint);
     the layout-forcing auto-scroll runs once per animation frame. */
  function flush() {
    scheduled = false;
    const started = performance.now();
    let done = 0;
    while (done < queue.length && performance.now() - started < FRAME_BUDGET_MS) apply(queue[done++]);
    queue.splice(0, done);
    if (queue.length) schedule();
    if (done) scheduleScroll();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setTimeout(flush, 0);
  }

  function scroll() {
    if (!scrollPending) return;
    scrollPending = false;
    if (stick) {
      timeline.scrollTop = timeline.scrollHeight;
      autoTop = timeline.scrollTop;
    } else {
      jump.hidden = false;
    }
  }

  function scheduleScroll() {
    if (scrollPending) return;
    scrollPending = true;
    requestAnimationFrame(scroll);
    setTimeout(scroll, 100);
  }

  /** Keep following the timeline after content grew outside an event (streamed text). */
  PD.followContent = scheduleScroll;

  PD.enqueue = function (ev) {
    queue.push(ev);
    schedule();
  };

  /* Only the person scrolling up (wheel, keys, scrollbar, touch) stops the following; content
     growing or off-screen phases changing size under a programmatic scroll does not. */
  for (const type of ["wheel", "pointerdown", "keydown", "touchstart"]) {
    timeline.addEventListener(type, () => { lastInput = performance.now(); }, { passive: true });
  }
  timeline.addEventListener("scroll", () => {
    if (timeline.scrollTop + timeline.clientHeight >= timeline.scrollHeight - 48) {
      stick = true;
      jump.hidden = true;
    } else if (performance.now() - lastInput < 1000 && timeline.scrollTop < autoTop - 4) {
      stick = false;
    }
  });
  jump.addEventListener("click", () => {
    stick = true;
    jump.hidden = true;
    timeline.scrollTop = timeline.scrollHeight;
    autoTop = timeline.scrollTop;
  });

  function setState(ev) {
    state = PD.str(ev.state);
    document.body.dataset.state = state;
    stop.hidden = state === "idle";
    stop.textContent = state === "stopping" ? "Skip model summary" : "Stop";
    stop.title = state === "stopping" ? "Compose the summary without the model, now" : "Stop the run (Esc)";
    status.textContent = { running: "Working…", stopping: "Stopping…" }[state] || "";
    send.disabled = state !== "idle";
    send.title = state === "idle" ? "Send the request (Ctrl+Enter)" : BUSY_NOTE;
    if (state === "stopping") PD.renderStopping();
  }

  function setContext(ev) {
    const engine = PD.str(ev.engine) === "classic" ? "Classic loop" : "Phase engine";
    document.getElementById("ctx-engine").textContent = engine;
    const provider = PD.str(ev.provider);
    const offline = PD.str(ev.model) || "Offline model";
    PD.offlineDemo = ev.demo === true;
    const main = provider === "embedded" ? (PD.offlineDemo ? "Offline demo model" : offline + " · offline")
      : provider + (PD.str(ev.model) ? " · " + PD.str(ev.model) : "");
    const thinking = PD.str(ev.thinking);
    document.getElementById("ctx-model").textContent = main + (thinking ? " · thinking: " + thinking : "");
    const workspace = PD.str(ev.workspace);
    const path = document.getElementById("ctx-workspace");
    const missing = workspace && ev.workspace_missing === true;
    path.textContent = !workspace ? "No workspace chosen" :
      missing ? "⚠ Folder missing: " + workspace : "📁 " + workspace;
    path.title = missing ? workspace + " no longer exists: click to choose a folder" : workspace;
    path.classList.toggle("missing", Boolean(missing));
    PD.showBanner(provider === "embedded" && PD.offlineDemo);
  }

  PD.showBanner = function (on) {
    document.getElementById("banner").hidden = !on;
  };

  function clear() {
    for (const run of Array.from(timeline.querySelectorAll(".run, .ui-message"))) run.remove();
    document.getElementById("empty").hidden = false;
    PD.endStage();
    PD.resetRuns();
    PD.resetNotes();
    stick = true;
    autoTop = 0;
  }

  /** A short line under the input about what just happened to it ("" hides it). */
  PD.inputNote = function (text) {
    inputNote.textContent = text;
    inputNote.hidden = !text;
  };

  /** Send the input; it stays in the box until the window says its run started. While a run
      works nothing is sent (Send is disabled) and the text stays in the box. */
  function submitInput() {
    if (state !== "idle") {
      PD.inputNote(BUSY_NOTE);
      return;
    }
    const text = input.value.trim();
    if (!text) {
      PD.inputNote("Nothing was sent: the request is empty. Describe what you want done, then press Send.");
      input.focus();
      return;
    }
    PD.inputNote("");
    sent = text;
    PD.call("submit", { text });
  }

  function submitted(ev) {
    const text = PD.str(ev.text);
    if (ev.accepted === true) {
      if (text === sent && input.value.trim() === text) input.value = "";
    } else if (text && text === sent) {
      PD.inputNote("Not sent (the reason is above): your request is still here to send again.");
    }
    if (text === sent) sent = null;
    PD.requestAnswered(ev.accepted === true, text);
  }

  /** Put a request back in the input to change it before sending it again. */
  PD.editRequest = function (text) {
    input.value = PD.str(text);
    PD.inputNote("");
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  };

  function command(ev) {
    if (PD.str(ev.command) === "send") submitInput();
  }

  send.addEventListener("click", submitInput);
  input.addEventListener("input", () => PD.inputNote(""));
  stop.addEventListener("click", () => PD.call("cancel", { force: state === "stopping" }));
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submitInput();
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && state === "running") PD.call("cancel", {});
  });
  document.getElementById("settings-btn").addEventListener("click", () => PD.call("open_settings", {}));
  document.getElementById("banner-settings").addEventListener("click", () => PD.call("open_settings", {}));
  document.getElementById("ctx-workspace").addEventListener("click", () => PD.call("pick_workspace", {}));
  PD.connectBridge();
})(window.PD);
