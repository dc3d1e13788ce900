/* The versions a write weighed (TaskFinished.candidates): when a file's first version failed a
   check, the engine sampled candidates and kept the one that passes the most checks. The
   write's card says so in one line ("4 candidates tried: 1 passes 3 of 3 checks (kept), draft
   1 of 3") and lists each version, its diff one click away. The diff HTML was rendered and
   sanitised in Python (ui/render.py, ui/diff_html.py); everything else goes in as text. */
"use strict";

(function (PD) {
  /** How the first version is named in the line, by its source (the draft keeps its name). */
  const FIRST_NAMES = { authored: "first version" };

  function checks(version) {
    return PD.num(version.passed) + " of " + PD.num(version.total);
  }

  /** "4 candidates tried: 1 passes 3 of 3 checks (kept), draft 1 of 3". */
  function line(versions) {
    const first = versions[0];
    const tried = versions.length - 1;
    const kept = versions.find((v) => v.kept === true);
    const best = kept && kept !== first
      ? PD.str(kept.source).replace(/^candidate /, "") + " passes " + checks(kept) + " checks (kept)"
      : "none passes more checks";
    const source = PD.str(first.source);
    return tried + (tried === 1 ? " candidate" : " candidates") + " tried: " + best + ", " +
      (FIRST_NAMES[source] || source) + " " + checks(first) + (kept === first ? " (kept)" : "");
  }

  /** One version: its line (what the checks found), its diff inside. */
  function version(entry) {
    const item = PD.el("details", "candidate" + (entry.kept === true ? " kept" : ""));
    item.dataset.source = PD.str(entry.source);
    PD.add(item, PD.el("summary", "candidate-line", PD.str(entry.line) || PD.str(entry.source)));
    if (typeof entry.diff_html === "string" && entry.diff_html) {
      PD.add(item, PD.diffBlock(entry.diff_html));
    } else if (PD.str(entry.diff)) {
      PD.add(item, PD.el("pre", "detail-text", PD.str(entry.diff)));
    } else {
      PD.add(item, PD.el("div", "candidate-empty", "No file to show."));
    }
    return item;
  }

  /** The card's candidates block, before its details (replaces one shown before). */
  PD.showCandidates = function (card, candidates) {
    const old = card.el.querySelector(".task-candidates");
    if (old) old.remove();
    const versions = PD.arr(candidates).filter((c) => c && typeof c === "object");
    if (versions.length < 2) return;
    const box = PD.add(PD.el("div", "task-candidates"), PD.el("div", "candidates-line", line(versions)));
    for (const entry of versions) PD.add(box, version(entry));
    card.el.insertBefore(box, card.details);
  };
})(window.PD);
