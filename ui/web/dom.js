/* Small DOM helpers shared by every renderer. Model text only ever goes in as text. */
"use strict";
window.PD = window.PD || {};

(function (PD) {
  /** An element with a class and (optional) text content — never HTML. */
  PD.el = function (tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null && text !== "") node.textContent = String(text);
    return node;
  };

  /** Append children (nodes or strings, strings become text nodes); returns the parent. */
  PD.add = function (parent, ...children) {
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return parent;
  };

  /** A string from an untrusted value: strings and numbers only. */
  PD.str = function (value) {
    if (typeof value === "string") return value;
    if (typeof value === "number" && isFinite(value)) return String(value);
    return "";
  };

  PD.num = function (value, fallback) {
    const n = typeof value === "number" ? value : Number(value);
    return isFinite(n) ? n : (fallback === undefined ? 0 : fallback);
  };

  PD.arr = function (value) {
    return Array.isArray(value) ? value : [];
  };

  PD.clip = function (text, max) {
    const s = PD.str(text);
    if (s.length <= max) return s;
    return s.slice(0, max) + "\n… (" + (s.length - max).toLocaleString() + " more characters)";
  };

  PD.pct = function (rate) {
    return Math.round(Math.max(0, Math.min(1, PD.num(rate))) * 100) + "%";
  };

  PD.secs = function (s) {
    const v = PD.num(s);
    if (v < 60) return v.toFixed(v < 10 ? 1 : 0) + " s";
    return Math.floor(v / 60) + " min " + Math.round(v % 60) + " s";
  };

  PD.bytes = function (n) {
    const v = PD.num(n);
    if (v < 1024) return v + " B";
    if (v < 1024 * 1024) return (v / 1024).toFixed(1) + " KB";
    return (v / 1024 / 1024).toFixed(1) + " MB";
  };

  /** ``text`` as compared for "the same words": whitespace collapsed, ends trimmed. */
  PD.sameText = function (text) {
    return PD.str(text).replace(/\s+/g, " ").trim();
  };

  PD.words = function (snake) {
    return PD.str(snake).replace(/_/g, " ");
  };

  /** A labelled chip: <span class="chip cls"><b>label</b> value</span>. */
  PD.chip = function (label, value, cls) {
    const chip = PD.el("span", "chip" + (cls ? " " + cls : ""));
    if (label) PD.add(chip, PD.el("span", "chip-label", label));
    PD.add(chip, PD.el("span", "chip-value", value));
    return chip;
  };

  /** Nodes of HTML rendered and sanitised in Python (Markdown, diffs), cleaned once more here:
      no scripts, styles, frames, forms or images, no event handlers, no unsafe links. */
  PD.html = function (html) {
    const doc = new DOMParser().parseFromString("<body>" + PD.str(html) + "</body>", "text/html");
    for (const bad of doc.body.querySelectorAll("script, style, iframe, object, embed, link, form, img")) {
      bad.remove();
    }
    for (const node of doc.body.querySelectorAll("*")) {
      for (const attr of Array.from(node.attributes)) {
        const unsafeLink = attr.name === "href" && !/^(https?:|mailto:)/i.test(attr.value.trim());
        if (attr.name.startsWith("on") || attr.name === "style" || unsafeLink) node.removeAttribute(attr.name);
      }
    }
    const fragment = document.createDocumentFragment();
    for (const node of Array.from(doc.body.childNodes)) fragment.appendChild(document.adoptNode(node));
    return fragment;
  };

  /** A block of model text: its Markdown HTML when Python sent one, else the plain text. */
  PD.markdown = function (tag, cls, text, html) {
    const node = PD.el(tag, cls + (typeof html === "string" ? " md" : ""));
    if (typeof html === "string") node.appendChild(PD.html(html));
    else node.textContent = PD.str(text);
    return node;
  };

  /** Pretty JSON of untrusted arguments, as text. */
  PD.json = function (value) {
    try {
      return JSON.stringify(value, null, 2);
    } catch (err) {
      return "";
    }
  };
})(window.PD);
