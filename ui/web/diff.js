/* Diffs of the files a run writes: on each writing task's card, and in the run's Changes
   section (each file once, in path order, with the run's whole diff of it, +/− counts and
   undo for that file alone; the run's own undo stays in the section's head). The diff HTML was rendered
   and sanitised in Python (ui/diff_html.py). */
"use strict";

(function (PD) {
  const COLLAPSE_LINES = 16;
  const CHANGE_TEXT = { created: "new file", modified: "modified", deleted: "deleted" };

  function counts(added, removed) {
    return PD.add(PD.el("span", "diff-counts"), PD.el("span", "diff-added", "+" + PD.num(added)),
      " ", PD.el("span", "diff-removed", "−" + PD.num(removed)));
  }

  function changeBadge(change) {
    const key = CHANGE_TEXT[change] ? change : "modified";
    const badge = PD.el("span", "file-change change-" + key, CHANGE_TEXT[key]);
    badge.dataset.change = key;
    return badge;
  }

  /** A diff from Python's HTML; a long one is collapsed behind "Show all N lines". */
  PD.diffBlock = function (html) {
    const box = PD.el("div", "diff-box");
    box.appendChild(PD.html(html));
    const lines = box.querySelectorAll(".diff-line:not(.diff-hunk)").length;
    if (lines > COLLAPSE_LINES) {
      const more = "Show all " + lines.toLocaleString() + " lines ▾";
      box.classList.add("collapsible", "collapsed");
      const button = PD.el("button", "ghost diff-toggle", more);
      button.type = "button";
      button.addEventListener("click", (e) => {
        e.stopPropagation();
        const collapsed = box.classList.toggle("collapsed");
        button.textContent = collapsed ? more : "Show fewer lines ▴";
      });
      PD.add(box, button);
    }
    return box;
  };

  /** The write's diff on the card of the task that made it. */
  function cardDiff(run, ev) {
    const card = typeof ev.diff_html === "string" ? PD.taskCard(run, ev.phase_id, ev.task_id) : null;
    if (!card) return;
    let box = card.el.querySelector(".task-diffs");
    if (!box) {
      box = PD.el("div", "task-diffs");
      card.el.insertBefore(box, card.details);
    }
    const head = PD.add(PD.el("div", "task-diff-head"), changeBadge(PD.str(ev.change)),
      PD.el("span", "file-path", PD.str(ev.path)), counts(ev.added, ev.removed));
    const entry = PD.add(PD.el("div", "task-diff"), head, PD.diffBlock(ev.diff_html));
    entry.dataset.path = PD.str(ev.path);
    PD.add(box, entry);
  }

  /** The run's Changes section, after its body (so after the summary, before the footer). */
  function changes(run) {
    if (run.files) return run.files;
    const box = PD.el("section", "files changes");
    const title = PD.el("span", "files-title");
    const totals = PD.el("span", "files-totals");
    const list = PD.el("ul", "files-list");
    PD.add(box, PD.add(PD.el("div", "files-head"), title, totals, PD.undoButton(run)), list);
    run.el.insertBefore(box, run.body.nextSibling);
    run.files = { box, title, totals, list, rows: new Map() };
    return run.files;
  }

  function fileRow(files, path, ev) {
    let entry = files.rows.get(path);
    if (entry) return entry;
    const row = PD.el("li", "file");
    row.dataset.path = path;
    entry = { row, head: PD.el("div", "file-head"), body: PD.el("div", "file-body"),
      change: PD.str(ev.change), diff: false, added: 0, removed: 0 };
    PD.add(row, entry.head, entry.body);
    const after = Array.from(files.rows.keys()).filter((p) => p > path).sort()[0];
    files.list.insertBefore(row, after === undefined ? null : files.rows.get(after).row);
    files.rows.set(path, entry);
    return entry;
  }

  /** The file's row shows the run's change: the last write's run diff, else its diff. */
  function showFile(run, entry, path, ev) {
    const whole = PD.str(ev.run_diff) !== "";
    const html = whole ? ev.run_diff_html : ev.diff_html;
    entry.diff = whole || PD.str(ev.diff) !== "";
    entry.added = PD.num(whole ? ev.run_added : ev.added);
    entry.removed = PD.num(whole ? ev.run_removed : ev.removed);
    if (PD.str(ev.change) === "deleted") entry.change = "deleted";
    entry.row.dataset.change = entry.change;
    const byCommand = PD.str(ev.source) === "command";
    if (!byCommand) entry.undoable = true;
    entry.head.replaceChildren(changeBadge(entry.change), PD.el("span", "file-path", path),
      entry.diff ? counts(entry.added, entry.removed) : PD.el("span", "file-bytes", PD.bytes(ev.bytes)),
      entry.undoable ? PD.fileUndoButton(run, path)
        : PD.el("span", "file-by-command", "changed by a command · no diff, no undo"));
    entry.body.replaceChildren();
    if (typeof html === "string") PD.add(entry.body, PD.diffBlock(html));
  }

  PD.renderFileChanged = function (ev) {
    const run = PD.currentRun();
    cardDiff(run, ev);
    const files = changes(run);
    const path = PD.str(ev.path);
    showFile(run, fileRow(files, path, ev), path, ev);
    const rows = Array.from(files.rows.values());
    files.title.textContent = "📝 Changes · " + rows.length + (rows.length === 1 ? " file" : " files");
    const diffed = rows.filter((r) => r.diff);
    files.totals.replaceChildren();
    if (diffed.length) {
      PD.add(files.totals, counts(diffed.reduce((n, r) => n + r.added, 0),
        diffed.reduce((n, r) => n + r.removed, 0)));
    }
  };
})(window.PD);
