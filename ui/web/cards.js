/* Task cards (seed 001): one per planned task, live status, expandable details. */
"use strict";

(function (PD) {
  const STATUS = {
    pending: ["○", "Pending"],
    running: ["◐", "Running"],
    done: ["✓", "Done"],
    failed: ["✕", "Failed"],
    blocked: ["⊘", "Blocked"],
    skipped: ["↷", "Skipped"],
    interrupted: ["⏸", "Interrupted"],
    stopped: ["⏹", "Stopped"],
    not_run: ["–", "Not run"],
  };
  const MAX_DETAIL = 4000;
  /** How a shell command ran (TaskFinished.sandbox): label, style, what it means. */
  const SANDBOX = {
    sandboxed: ["🔒 sandboxed", "on", "Ran in a sandbox: only the workspace and a private /tmp " +
      "were writable, and it had no network."],
    sandboxed_network: ["🔒 sandboxed · network", "on", "Ran in a sandbox with network access: " +
      "only the workspace and a private /tmp were writable."],
    unsandboxed: ["⚠ not sandboxed", "off", "Ran with your full rights: it could change files " +
      "outside the workspace and use the network."],
  };
  /** The plan's priority (1–10, 10 the most important; tasks that can run at the same time
      start in priority order) as four levels: [lowest value, label]. The page's copy of
      core/shapes/wording.py's PRIORITY_LEVELS; tests/unit/ui/test_page_messages.py keeps
      them equal. */
  const PRIORITY_LEVELS = [[9, "P1 · highest"], [7, "P2 · high"], [4, "P3 · normal"], [1, "P4 · low"]];
  const running = new Set();
  let ticker = 0;

  function priorityValue(priority) {
    return Math.max(1, Math.min(10, Math.round(PD.num(priority, 5))));
  }

  function priorityMeta(priority) {
    const value = priorityValue(priority);
    const level = PRIORITY_LEVELS.findIndex(([low]) => value >= low);
    const meta = PD.el("span", "meta priority priority-p" + (level + 1), PRIORITY_LEVELS[level][1]);
    meta.dataset.priority = String(value);
    meta.title = "Priority " + value + " of 10 in the plan (10 is the most important): tasks that " +
      "can run at the same time start in priority order.";
    return meta;
  }

  function tick() {
    const now = Date.now();
    for (const card of running) card.time.textContent = PD.secs((now - card.startedAt) / 1000);
    if (!running.size) {
      clearInterval(ticker);
      ticker = 0;
    }
  }

  function setStatus(card, status) {
    const [icon, label] = STATUS[status] || ["•", PD.words(status)];
    card.status = status;
    card.el.className = "task status-" + (STATUS[status] ? status : "other");
    card.el.dataset.status = status;
    card.pill.textContent = icon + " " + label;
    if (status === "running") {
      card.startedAt = Date.now();
      running.add(card);
      if (!ticker) ticker = setInterval(tick, 500);
    } else {
      running.delete(card);
    }
  }

  function detailBlock(label, text, cls) {
    const block = PD.el("div", "detail " + (cls || ""));
    PD.add(block, PD.el("div", "detail-label", label), PD.el("pre", "detail-text", text));
    return block;
  }

  /** The task's title as words, its argument as code (``shown_title`` from ui/render.py:
      [words, code]); the model's title as text where it has none. */
  function titleOf(task) {
    const shown = PD.arr(task.shown_title).map(PD.str);
    const title = PD.el("span", "task-title", shown[0] || PD.str(task.title) || PD.str(task.tool) || "Task");
    if (shown[1]) PD.add(title, " ", PD.el("code", "task-arg", shown[1]));
    return title;
  }

  /** Build one card from an untrusted task dict. */
  function makeCard(task, phaseId, round) {
    const id = PD.num(task.id, 0);
    const el = PD.el("div", "task");
    const head = PD.el("div", "task-head");
    const pill = PD.el("span", "task-pill");
    const time = PD.el("span", "task-time");
    PD.add(head, PD.el("span", "task-num", "Task " + id), titleOf(task), time, pill);
    const meta = PD.el("div", "task-meta");
    const tool = PD.str(task.tool);
    const server = PD.mcpServerOfTool(tool);
    if (server) {
      const badge = PD.el("span", "meta tool mcp", "🔌 " + server + " · " + tool.slice(server.length + 2));
      badge.dataset.server = server;
      PD.add(meta, badge);
    } else if (tool) {
      PD.add(meta, PD.el("span", "meta tool", "🔧 " + tool));
    }
    if (task.priority !== undefined) PD.add(meta, priorityMeta(task.priority));
    const deps = PD.arr(task.dependencies).map(PD.str).filter(Boolean);
    if (deps.length) PD.add(meta, PD.el("span", "meta deps", "↳ after " + deps.join(", ")));
    const details = PD.el("div", "task-details");
    if (task.arguments !== undefined) {
      PD.add(details, detailBlock("Arguments", PD.clip(PD.json(task.arguments), MAX_DETAIL)));
    }
    PD.add(el, head, PD.el("div", "task-desc", PD.str(task.description)), meta, details);
    head.addEventListener("click", () => el.classList.toggle("open"));
    el.dataset.taskId = String(id);
    const card = { el, pill, time, details, id, phaseId, round, status: "", startedAt: 0 };
    setStatus(card, "pending");
    return card;
  }

  function register(run, card) {
    run.tasks.set(card.phaseId + ":" + card.round + ":" + card.id, card);
    run.latestTask.set(card.phaseId + ":" + card.id, card);
  }

  function findCard(run, ev) {
    const phaseId = PD.num(ev.phase_id);
    const exact = run.tasks.get(phaseId + ":" + PD.num(ev.round) + ":" + PD.num(ev.task_id));
    return exact || run.latestTask.get(phaseId + ":" + PD.num(ev.task_id)) || null;
  }

  function adHocCard(run, ev) {
    const phase = PD.phaseOf(run, ev.phase_id);
    const card = makeCard({ id: ev.task_id, title: ev.tool, tool: ev.tool }, PD.num(ev.phase_id),
      PD.num(ev.round));
    register(run, card);
    PD.add(PD.sink(run), PD.add(PD.el("div", "plan"), card.el));
    phase.taskStatus.set(card.id, "pending");
    return card;
  }

  PD.renderTasksPlanned = function (ev) {
    const run = PD.currentRun();
    const phaseId = PD.num(ev.phase_id);
    const round = PD.num(ev.round);
    const phase = PD.phaseOf(run, phaseId);
    phase.setRound(round, PD.num(ev.max_rounds));
    const tasks = PD.arr(ev.tasks).filter((t) => t && typeof t === "object");
    const plan = PD.el("div", "plan");
    plan.dataset.round = String(round);
    const head = PD.el("div", "plan-head");
    const most = PD.num(ev.max_rounds) ? " (at most " + PD.num(ev.max_rounds) + ")" : "";
    PD.add(head, PD.el("span", "plan-title", "📋 Round " + round + most),
      PD.el("span", "plan-count", tasks.length + (tasks.length === 1 ? " task" : " tasks")));
    const mode = PD.str(ev.mode);
    if (mode && mode !== "plan") PD.add(head, PD.el("span", "badge badge-mode", mode));
    PD.add(plan, head);
    const list = PD.el("div", "task-list");
    for (const task of tasks) {
      const card = makeCard(task, phaseId, round);
      register(run, card);
      phase.taskStatus.set(card.id, "pending");
      PD.add(list, card.el);
    }
    PD.add(plan, list);
    if (PD.str(ev.reasoning)) PD.add(plan, PD.el("div", "plan-reasoning", "💡 " + PD.str(ev.reasoning)));
    PD.add(PD.sink(run), plan);
    phase.refresh();
  };

  PD.renderTaskStarted = function (ev) {
    const run = PD.currentRun();
    const card = findCard(run, ev) || adHocCard(run, ev);
    setStatus(card, "running");
    PD.phaseOf(run, ev.phase_id).taskStatus.set(card.id, "running");
  };

  function markSandbox(card, mark) {
    const meta = card.el.querySelector(".task-meta");
    const old = meta.querySelector(".sandbox");
    if (old) old.remove();
    const known = SANDBOX[PD.str(mark)];
    if (!known) return;
    const badge = PD.el("span", "meta sandbox sandbox-" + known[1], known[0]);
    badge.title = known[2];
    PD.add(meta, badge);
  }

  PD.renderTaskFinished = function (ev) {
    const run = PD.currentRun();
    const card = findCard(run, ev) || adHocCard(run, ev);
    const status = PD.str(ev.status) || "done";
    setStatus(card, status);
    card.time.textContent = PD.secs(ev.elapsed_s);
    markSandbox(card, ev.sandbox);
    PD.showCandidates(card, ev.candidates);
    for (const old of card.el.querySelectorAll(".detail.outcome, .task-error")) old.remove();
    if (PD.str(ev.error)) {
      PD.add(card.details, detailBlock("Error", PD.clip(ev.error, MAX_DETAIL), "outcome error"));
      card.el.insertBefore(PD.el("div", "task-error", PD.clip(ev.error, 200)), card.details);
    } else if (PD.str(ev.result)) {
      PD.add(card.details, detailBlock("Result", PD.clip(ev.result, MAX_DETAIL), "outcome"));
    }
    const phase = PD.phaseOf(run, ev.phase_id);
    phase.taskStatus.set(card.id, status);
    phase.refresh();
  };

  /** The latest card of task ``taskId`` in phase ``phaseId`` (null when there is none). */
  PD.taskCard = function (run, phaseId, taskId) {
    return run.latestTask.get(PD.num(phaseId) + ":" + PD.num(taskId)) || null;
  };

  /** Put ``node`` (an approval the task asked for) in the task's card, after what the task is
      and before what came of it, so it reads in order live and replayed; false when the run
      shows no card for that task. */
  PD.addToTaskCard = function (run, phaseId, taskId, node) {
    if (!PD.num(taskId)) return false;
    const card = PD.taskCard(run, phaseId, taskId);
    if (!card) return false;
    card.el.insertBefore(node, card.el.querySelector(".task-error") || card.details);
    return true;
  };

  PD.taskTitle = function (run, phaseId, taskId) {
    const card = run.latestTask.get(PD.num(phaseId) + ":" + PD.num(taskId));
    return card ? card.el.querySelector(".task-title").textContent : "";
  };

  /** Cards of a run that ended while they were pending or running: interrupted (the app
      stopped mid-run), else stopped (running) or not run (pending). */
  PD.interruptTasks = function (run, status) {
    for (const card of run.tasks.values()) {
      if (card.status !== "pending" && card.status !== "running") continue;
      const final = status === "interrupted" ? "interrupted" : card.status === "running" ? "stopped" : "not_run";
      setStatus(card, final);
      const phase = run.phases.get(card.phaseId);
      if (phase) phase.taskStatus.set(card.id, final);
    }
  };

  PD.stopTicking = function () {
    running.clear();
    tick();
  };
})(window.PD);
