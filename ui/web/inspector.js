/* The context inspector (seed 003 §9.9): per run, a collapsed list of its LLM calls, each with
   its stage, the model that served it and the workspace files whose content it carried (and
   those held back as secrets); opening a call shows the files in full and the messages it
   sent — role, size, estimated tokens and a truncated preview, all as text. Calls are kept as
   data until the list is opened, so long runs stay cheap. */
"use strict";

(function (PD) {
  const ROLES = new Set(["system", "user", "assistant", "tool"]);

  function messageRow(message) {
    const m = message && typeof message === "object" ? message : {};
    const role = PD.str(m.role) || "?";
    const row = PD.el("li", "msg role-" + (ROLES.has(role) ? role : "other"));
    const head = PD.el("div", "msg-head");
    PD.add(head, PD.el("span", "msg-role", role),
      PD.el("span", "msg-size", PD.num(m.chars).toLocaleString() + " chars"),
      PD.el("span", "msg-tokens", "~" + PD.num(m.tokens).toLocaleString() + " tokens"));
    return PD.add(row, head, PD.el("pre", "msg-preview", PD.str(m.preview) || "(empty)"));
  }

  const FILES_IN_HEAD = 3;

  /** "a.py, b.py, c.py +2": the first names of ``names``, and how many more. */
  function shortList(names) {
    const more = names.length - FILES_IN_HEAD;
    return names.slice(0, FILES_IN_HEAD).join(", ") + (more > 0 ? " +" + more : "");
  }

  /** The files a call carried (and held back), as lines under its stage in the row. */
  function filesLine(call) {
    const files = PD.arr(call.files).map(PD.str);
    const held = PD.arr(call.held_back).map(PD.str);
    const lines = [];
    if (files.length) {
      const line = PD.el("span", "call-files", "📄 " + shortList(files));
      line.title = "sent the content of " + files.join(", ");
      lines.push(line);
    }
    if (held.length) {
      const names = held.map((note) => note.split(" (held back")[0]);
      const line = PD.el("span", "call-held", "🔒 held back: " + shortList(names));
      line.title = held.join("\n");
      lines.push(line);
    }
    return lines;
  }

  function fillFiles(body, call) {
    const files = PD.arr(call.files).map(PD.str);
    const held = PD.arr(call.held_back).map(PD.str);
    if (!files.length && !held.length) return;
    const box = PD.el("div", "call-sent");
    PD.add(box, PD.el("div", "call-sent-head", files.length ?
      "Files whose content this call sent (" + files.length + "):" : "No file's content was sent."));
    if (files.length) {
      const list = PD.el("ul", "call-sent-files");
      for (const name of files) PD.add(list, PD.el("li", "", name));
      PD.add(box, list);
    }
    if (held.length) {
      PD.add(box, PD.el("div", "call-sent-head", "Held back:"));
      const list = PD.el("ul", "call-held-files");
      for (const note of held) PD.add(list, PD.el("li", "", note));
      PD.add(box, list);
    }
    PD.add(body, box);
  }

  function fillCall(body, call) {
    if (PD.str(call.error)) PD.add(body, PD.el("div", "call-error", "Error: " + PD.str(call.error)));
    fillFiles(body, call);
    const messages = PD.arr(call.context);
    if (!messages.length) {
      PD.add(body, PD.el("div", "call-empty", "No messages were recorded for this call."));
      return;
    }
    const total = messages.reduce((sum, m) => sum + PD.num(m && m.tokens), 0);
    PD.add(body, PD.el("div", "call-summary", messages.length + " messages sent · ~" +
      total.toLocaleString() + " tokens (previews cut at 240 characters)"));
    const list = PD.el("ol", "msgs");
    for (const message of messages) PD.add(list, messageRow(message));
    PD.add(body, list);
  }

  function callRow(call, number) {
    const item = PD.el("li", "call" + (call.ok === false ? " call-failed" : ""));
    const head = PD.el("button", "call-head");
    head.type = "button";
    const counted = call.counted_in_budget === true;
    const tokens = PD.num(call.prompt_tokens).toLocaleString() + " → " +
      PD.num(call.completion_tokens).toLocaleString() + " tok" + (call.usage_estimated ? " (est.)" : "") +
      (PD.num(call.cached_tokens) ? " (" + PD.num(call.cached_tokens).toLocaleString() + " cached)" : "");
    const what = PD.add(PD.el("span", "call-what"),
      PD.el("span", "call-stage", PD.words(call.stage) || "call"));
    const model = PD.str(call.model);
    if (model) {
      const served = PD.el("span", "call-model", model);
      served.title = "served by " + model;
      PD.add(what, served);
    }
    PD.add(what, ...filesLine(call));
    PD.add(head, PD.el("span", "call-num", "#" + number), what,
      PD.el("span", "call-tokens", tokens),
      PD.el("span", "call-context", PD.num(call.context_tokens).toLocaleString() + " in context"),
      PD.el("span", "badge " + (counted ? "badge-running" : "badge-muted"),
        counted ? "in budget" : "outside budget"));
    if (call.ok === false) PD.add(head, PD.el("span", "badge badge-error", "failed"));
    const body = PD.el("div", "call-body");
    body.hidden = true;
    head.addEventListener("click", () => {
      if (!body.firstChild) fillCall(body, call);
      body.hidden = !body.hidden;
      item.classList.toggle("open", !body.hidden);
    });
    return PD.add(item, head, body);
  }

  function renderPending(inspector) {
    const fragment = document.createDocumentFragment();
    while (inspector.rendered < inspector.calls.length) {
      const call = inspector.calls[inspector.rendered];
      inspector.rendered += 1;
      fragment.appendChild(callRow(call, inspector.rendered));
    }
    inspector.list.appendChild(fragment);
  }

  function setOpen(inspector, open) {
    inspector.open = open;
    inspector.box.classList.toggle("open", open);
    inspector.toggle.setAttribute("aria-expanded", String(open));
    inspector.list.hidden = !open;
    if (open) renderPending(inspector);
  }

  function updateCount(inspector) {
    const n = inspector.calls.length;
    inspector.count.textContent = n + (n === 1 ? " call" : " calls") + " · " +
      inspector.tokens.toLocaleString() + " prompt tokens";
  }

  function ensure(run) {
    if (run.inspector) return run.inspector;
    const box = PD.el("div", "calls");
    const toggle = PD.el("button", "calls-toggle");
    toggle.type = "button";
    toggle.setAttribute("aria-expanded", "false");
    const count = PD.el("span", "calls-count");
    PD.add(toggle, PD.el("span", "calls-caret", "▸"), PD.el("span", "calls-label", "🔍 LLM calls"),
      count, PD.el("span", "calls-hint", "what each call sent to the model"));
    const list = PD.el("ol", "calls-list");
    list.hidden = true;
    PD.add(box, toggle, list);
    run.el.insertBefore(box, run.body.nextSibling);
    const inspector = { box, toggle, count, list, calls: [], rendered: 0, tokens: 0, open: false };
    toggle.addEventListener("click", () => setOpen(inspector, !inspector.open));
    run.inspector = inspector;
    return inspector;
  }

  /** Keep one llm_call event of the run; its row is built only when the list is open. */
  PD.inspectCall = function (run, ev) {
    const inspector = ensure(run);
    inspector.calls.push(ev);
    inspector.tokens += PD.num(ev.prompt_tokens);
    updateCount(inspector);
    if (inspector.open) renderPending(inspector);
  };
})(window.PD);
