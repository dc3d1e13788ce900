"""Every setting, declared once: name, type, default, bounds or choices, description.

The settings dialog, the config file and the ``--headless`` flags are all derived
from ``Settings``' fields. Adding a setting is one field here.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core import secrets
from core.appdirs import config_path
from core.shapes.mcp_server import McpServer, servers_value

def setting(default: Any, description: str, *, label: str, low: float | None = None,
            high: float | None = None, choices: tuple[str, ...] = (), secret: bool = False,
            group: str = "General", file_filter: str = "", flag: str = "",
            placeholder: str = "", offers_models: bool = False) -> Any:
    """A dataclass field carrying the metadata the dialog, file and flags need.

    ``file_filter`` (e.g. ``"GGUF models (*.gguf)"``) marks a file path the dialog lets the
    person pick. ``flag`` names the headless flag when it is not the field's name; a
    tuple-valued setting (the MCP servers) gets a repeatable flag that adds one entry
    each time. ``placeholder`` is what an empty text field shows (what empty means). A
    ``secret`` is kept in the secret store under the field's name, never in the file.
    ``offers_models``: the dialog's field is a drop-down of the models the endpoint lists
    (after "Test connection"), still free text.
    """
    meta = {"description": description, "label": label, "low": low, "high": high,
            "choices": choices, "secret": secret, "group": group, "file_filter": file_filter,
            "flag": flag, "placeholder": placeholder, "offers_models": offers_models}
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class Settings:
    provider: str = setting(
        "auto", "Which model runs the agent: 'auto' uses the OpenAI-compatible endpoint when a "
        "base URL is set and the embedded offline model otherwise.",
        label="Provider", choices=("auto", "embedded", "openai"), group="Model")
    base_url: str = setting(
        "", "Base URL of an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1.",
        label="Base URL", group="Model")
    model: str = setting("", "Model name sent to the endpoint.", label="Model", group="Model",
                         offers_models=True)
    api_key: str = setting(
        "", "API key of the endpoint. Stored in the system keyring when one is available, "
        "else in a file only you can read.", label="API key", secret=True, group="Model")
    request_timeout_s: float = setting(
        120.0, "Seconds to wait for one model reply before giving up.",
        label="Request timeout (s)", low=1, high=3600, group="Model")
    max_retries: int = setting(
        2, "How often the client retries a failed request (429/5xx/timeouts).",
        label="Retries", low=0, high=10, group="Model")
    forcing: str = setting(
        "auto", "How stage calls make an OpenAI-compatible model call the stage's tool: 'auto' "
        "probes the endpoint once and uses what it honours; 'named' and 'required' force the "
        "tool (OpenAI, vLLM); 'json_schema' asks for the arguments as JSON (llama.cpp's "
        "server, Ollama); 'prompted' only asks in words (servers without tools).",
        label="Stage call forcing", choices=("auto", "named", "required", "json_schema",
                                             "prompted"), group="Model")
    temperature: float = setting(
        0.0, "Sampling temperature of the endpoint's calls (stage replies, the classic loop; "
        "code is always asked at 0, a retry a little higher). 0: the most likely reply, what "
        "structured answers and small models want; servers otherwise sample at their own "
        "default (llama-server 0.8, OpenAI 1). A model that takes no temperature (OpenAI's "
        "reasoning models) is asked without one.",
        label="Temperature", low=0, high=2, group="Model")
    context_window: int = setting(
        32768, "The model's context window in tokens (for the offline model: at most this, "
        "else what its file was trained for).",
        label="Context window", low=2048, high=2_000_000, group="Model")
    gguf: str = setting(
        "", "The offline model's GGUF file: a path, or the name of a model installed with "
        "scripts/setup.sh --model NAME (e.g. qwen2.5-coder-1.5b). Empty: the file "
        "$PHASEDESK_GGUF names, else Qwen2.5-Coder-1.5B when it is installed "
        "(scripts/run-app.sh installs it), else the small SmolLM2-135M demo model that comes "
        "with the app.", label="Offline model file", group="Model",
        file_filter="GGUF models (*.gguf)")
    thinking_base_url: str = setting(
        "", "Base URL of a separate endpoint for the thinking stages (request analysis, phase "
        "planning, judge, summary); Plan, Think and the classic loop keep the main model. "
        "Empty: the main model's endpoint.", label="Thinking base URL", group="Thinking model",
        placeholder="same as the main model")
    thinking_model: str = setting(
        "", "Model name for the thinking stages. Empty: the main model's name. With both "
        "thinking fields empty every stage uses the main model.", label="Thinking model",
        group="Thinking model", placeholder="same as the main model")
    thinking_api_key: str = setting(
        "", "API key of the thinking endpoint, stored like the main key. Empty: the main key "
        "when the endpoint is the main one, else none.", label="Thinking API key",
        secret=True, group="Thinking model",
        placeholder="the main key if the endpoint is the same")
    use_phase_task: bool = setting(
        True, "Run the phase engine (analyse, plan phases, Plan/Execute/Judge/Think). "
        "Off: the classic reasoning loop.", label="Use phase engine", group="Engine")
    max_iterations: int = setting(
        30, "LLM calls a run may spend (the final summary is never counted).",
        label="Iteration budget", low=1, high=500, group="Engine")
    max_rounds_per_phase: int = setting(
        5, "Upper bound of Plan/Execute/Judge rounds in one phase.",
        label="Max rounds per phase", low=1, high=10, group="Engine")
    max_tasks_per_round: int = setting(
        8, "Upper bound of tasks one plan may contain.",
        label="Max tasks per round", low=1, high=8, group="Engine")
    max_parallel_tasks: int = setting(
        4, "How many independent tasks run at the same time.",
        label="Parallel tasks", low=1, high=16, group="Engine")
    think_stage: str = setting(
        "auto", "Run the Think stage after every Judge ('always'), never, or only when the "
        "Judge's verdict is ambiguous ('auto').",
        label="Think stage", choices=("auto", "always", "never"), group="Engine")
    author_files: bool = setting(
        True, "Write files through a separate authoring call: a plan (or the classic loop) names "
        "the file and what must change, and the model writes the new content as plain code. "
        "Off: the content goes inside the tool call as JSON, and edits give the exact text to "
        "replace.", label="Write files as code", group="Engine")
    assists_off: str = setting(
        "", "Model-specific helpers to switch off, comma-separated: "
        "computed_files, write_reminder (docs/evaluation.md says what each "
        "adds). "
        "Empty: all on.", label="Helpers switched off", group="Engine",
        placeholder="none: every helper is on")
    test_command: str = setting(
        "", "The command that runs the workspace's tests (e.g. 'make test'), run in the "
        "command sandbox on each candidate and on the final files. Empty: pytest for "
        "pytest-style tests (the workspace's own .venv or venv when it has pytest), unittest "
        "otherwise.", label="Test command", group="Engine",
        placeholder="pytest or unittest, by the tests' style")
    candidates: int = setting(
        4, "When a file's draft fails a check the engine can run (the workspace's tests, the "
        "request's examples, the test command), ask for this many more candidates and keep "
        "the one that passes the most checks. 0: no candidates.",
        label="Candidates on a failed check", low=0, high=16, group="Engine")
    candidate_temperature: float = setting(
        0.8, "The sampling temperature of those candidates (the draft itself is asked at "
        "temperature 0: the model's most likely file).", label="Candidate temperature", low=0.0, high=2.0,
        group="Engine")
    parallel_calls: int = setting(
        4, "How many model calls may go to an OpenAI-compatible endpoint at once (candidates "
        "go out together up to this). The offline model runs one at a time.",
        label="Parallel model calls", low=1, high=32, group="Engine")
    compaction_threshold: float = setting(
        0.6, "Compact a phase's messages when they exceed this share of the context window.",
        label="Compaction threshold", low=0.1, high=0.95, group="Engine")
    history_runs: int = setting(
        3, "How many earlier runs of a conversation a follow-up request sees (summaries only).",
        label="Conversation memory (runs)", low=0, high=20, group="Engine")
    command_approval: str = setting(
        "ask", "Shell commands: ask every time, run allow-listed ones without asking, or run all.",
        label="Command approval", choices=("ask", "allowlist", "auto"), group="Safety")
    command_allowlist: str = setting(
        "ls,cat,head,tail,wc,grep,rg,find,git,python,python3,pytest,echo,pwd",
        "Comma-separated first words of commands that run without asking in 'allowlist' mode.",
        label="Allowed commands", group="Safety")
    command_sandbox: str = setting(
        "auto", "Run shell commands in a bubblewrap sandbox: the workspace is writable, /tmp "
        "is private, the rest of the machine is read-only, API keys are not in the "
        "environment. 'auto': wherever it works (Linux with bwrap); 'off': with your full "
        "rights.", label="Command sandbox", choices=("auto", "off"), group="Safety")
    command_network: bool = setting(
        False, "Let sandboxed commands use the network (e.g. pip install). Off: they have "
        "none, not even this machine's own services.",
        label="Commands may use the network", group="Safety")
    write_approval: str = setting(
        "auto", "File writes and edits: ask every time or allow them (they can be undone).",
        label="Write approval", choices=("ask", "auto"), group="Safety")
    honour_gitignore: bool = setting(
        True, "Keep what the workspace's .gitignore files exclude out of the agent's view: "
        "never listed, read, searched or sent to the model (a .phasedeskignore file always "
        "applies). Off: only .phasedeskignore does.",
        label="Honour .gitignore", group="Safety")
    ask_before_sending: bool = setting(
        True, "Before the first run on a workspace with a model on another machine (not this "
        "computer, not the offline model), show which of its files may be sent and ask, once "
        "per workspace and endpoint. Off: never ask.",
        label="Ask before sending files", group="Safety")
    mcp_servers: tuple[McpServer, ...] = setting(
        (), "MCP servers whose tools the agent may use (started with each run, stopped after "
        "it). Headless: --mcp NAME=COMMAND, repeatable.",
        label="MCP servers", group="Tools", flag="mcp")
    mcp_start_timeout_s: float = setting(
        20.0, "Seconds an MCP server may take to start and list its tools.",
        label="MCP start timeout (s)", low=1, high=600, group="Tools")
    mcp_call_timeout_s: float = setting(
        120.0, "Seconds one MCP tool call may take before its task fails.",
        label="MCP call timeout (s)", low=1, high=3600, group="Tools")
    workspace: str = setting("", "The folder the agent works in.", label="Workspace",
                             group="General")

    def validated(self) -> "Settings":
        """Return self if every value fits its declaration, else raise ``ValueError``."""
        for f in dataclasses.fields(self):
            check_value(f, getattr(self, f.name))
        return self

    def effective_provider(self) -> str:
        if self.provider != "auto":
            return self.provider
        return "openai" if self.base_url else "embedded"


def check_value(f: dataclasses.Field[Any], value: Any) -> None:
    """Raise ``ValueError`` naming the setting when ``value`` breaks its declaration."""
    meta = f.metadata
    kind = type(f.default)
    if kind is tuple:
        servers_value(value)
        return
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{meta['label']}: expected {kind.__name__}, got {value!r}")
    if meta["choices"] and value not in meta["choices"]:
        raise ValueError(f"{meta['label']}: must be one of {', '.join(meta['choices'])}")
    if meta["low"] is not None and value < meta["low"]:
        raise ValueError(f"{meta['label']}: must be at least {meta['low']:g}")
    if meta["high"] is not None and value > meta["high"]:
        raise ValueError(f"{meta['label']}: must be at most {meta['high']:g}")
    if f.name.endswith("base_url") and value and not value.startswith(("http://", "https://")):
        raise ValueError(f"{meta['label']}: must start with http:// or https://")
    if meta["file_filter"] and any(c in value for c in "\n\r\0"):
        raise ValueError(f"{meta['label']}: a file path cannot hold line breaks")


def plain(value: Any) -> Any:
    """A setting's value as the config file writes it."""
    if isinstance(value, tuple):
        return [item.to_plain() for item in value]
    return value


def fields() -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(Settings)


def from_mapping(values: dict[str, Any], base: Settings | None = None) -> Settings:
    """Settings from a dict, ignoring unknown names; invalid values raise ``ValueError``."""
    known = {f.name: f for f in fields()}
    updates: dict[str, Any] = {}
    for name, value in values.items():
        if name in known:
            if isinstance(known[name].default, float) and isinstance(value, int):
                value = float(value)
            if isinstance(known[name].default, tuple):
                value = servers_value(value)
            check_value(known[name], value)
            updates[name] = value
    return dataclasses.replace(base or Settings(), **updates)


def load(path: Path | None = None) -> tuple[Settings, list[str]]:
    """Settings from the config file (secrets from the secret store) and any problems found.

    A damaged file or a bad value never stops the app: the bad part is dropped,
    the default stays, and the problem is returned so the UI can say so.
    """
    path = path or config_path()
    problems: list[str] = []
    values: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(loaded, dict):
                raise ValueError("not a JSON object")
            values = loaded
        except (OSError, ValueError) as exc:
            problems.append(f"{path}: could not be read ({exc}); defaults used")
    settings = Settings()
    for name, value in values.items():
        try:
            settings = from_mapping({name: value}, settings)
        except ValueError as exc:
            problems.append(f"{path}: {exc}; default kept")
    keys = {f.name: secrets.load_api_key(f.name) for f in fields() if f.metadata["secret"]}
    return dataclasses.replace(settings, **{name: key for name, key in keys.items() if key}), \
        problems


def save(settings: Settings, path: Path | None = None) -> str:
    """Write settings (the API keys go to the secret store); returns where the main key went."""
    settings.validated()
    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {f.name: plain(getattr(settings, f.name)) for f in fields()
            if not f.metadata["secret"]}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.replace(tmp, path)
    places = {f.name: secrets.store_api_key(getattr(settings, f.name), f.name)
              for f in fields() if f.metadata["secret"]}
    return places["api_key"]
