/* MCP servers of a run: started / failed / stopped lines, and which server a tool is from. */
"use strict";

(function (PD) {
  const ICONS = { started: "🔌", stopped: "🔌", failed: "⛔" };
  const LEVELS = { started: "info", stopped: "muted", failed: "error" };

  /** The server a tool of the current run belongs to ("" for workspace tools). */
  PD.mcpServerOfTool = function (tool) {
    const run = PD.currentRun();
    return (run.mcpTools && run.mcpTools.get(PD.str(tool))) || "";
  };

  PD.renderMcpServer = function (ev) {
    const run = PD.currentRun();
    const name = PD.str(ev.name);
    const status = ICONS[PD.str(ev.status)] ? PD.str(ev.status) : "failed";
    const tools = PD.arr(ev.tools).map(PD.str).filter(Boolean);
    if (status === "started") {
      if (!run.mcpTools) run.mcpTools = new Map();
      for (const tool of tools) run.mcpTools.set(tool, name);
    }
    let text = PD.str(ev.error) || "MCP server " + name + " failed";
    if (status === "started") {
      const own = tools.map((tool) => tool.slice(name.length + 2));
      text = "MCP server " + name + " started · " + own.length + (own.length === 1 ? " tool: " : " tools: ") +
        own.join(", ");
    } else if (status === "stopped") {
      text = "MCP server " + name + " stopped";
    }
    const line = PD.el("div", "notice mcp-server notice-" + LEVELS[status]);
    line.dataset.server = name;
    line.dataset.status = status;
    PD.add(line, PD.el("span", "notice-icon", ICONS[status]), PD.el("span", "notice-text", text));
    if (PD.str(ev.stderr)) {
      const details = PD.el("details", "mcp-stderr");
      PD.add(details, PD.el("summary", "", "stderr"), PD.el("pre", "", PD.clip(ev.stderr, 4000)));
      PD.add(line, details);
    }
    PD.add(PD.sink(run), line);
  };
})(window.PD);
