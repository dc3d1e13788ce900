"""Which forcing strategies an endpoint and model honour, found with a few small calls.

Each strategy gets one tiny stage call (a tool with one enum argument) and counts as
honoured when the reply comes the way the strategy asks and holds the right argument.
The first honoured one, strongest first, is chosen (``prompted`` when none is). The
result is stored per base URL and model in ``<data dir>/endpoint_probes.json``, so an
endpoint is probed once: by Settings' "Test connection", by ``--probe``, or before the
first run against it. Probe calls are not part of any run (no budget, no events).
"""

from __future__ import annotations

import datetime
import json
import os
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path

from core.appdirs import data_dir
from core.llm.base import ChatModel, ModelError
from core.llm.forcing import STRATEGIES, Forcing, Notify
from core.llm.text_calls import rejects_tools

PROBE_TOOL = "phasedesk_probe"
PROBE_ANSWER = {"color": "blue"}
PROBE_DEFINITION = {"type": "function", "function": {
    "name": PROBE_TOOL, "description": "Record the color named in the message.",
    "parameters": {"type": "object", "properties": {
        "color": {"type": "string", "enum": ["red", "green", "blue"]}},
        "required": ["color"]}}}
PROBE_MESSAGES = [{"role": "system", "content": "You are a connection test. Do as asked."},
                  {"role": "user", "content": "Record the color blue."}]
FATAL_STATUSES = {0, 401, 403, 404}


@dataclass(frozen=True)
class ProbeResult:
    """What the probe found: ``honoured`` per strategy tried (in order), whether the server
    takes ``tools`` at all, the chosen strategy, and one line per strategy for a person."""

    chosen: str
    tools: bool = True
    honoured: dict[str, bool] = field(default_factory=dict)
    detail: dict[str, str] = field(default_factory=dict)
    answered: bool = True  # at least one call got a reply (else nothing is stored)

    def describe(self) -> str:
        tried = ", ".join(f"{name} {'✓' if ok else '✗'}" for name, ok in self.honoured.items())
        tools = "" if self.tools else "; the server takes no tools"
        return f"stage calls use '{self.chosen}' ({tried}{tools})"


def probes_path() -> Path:
    return data_dir() / "endpoint_probes.json"


def _key(endpoint: str, model: str) -> str:
    return f"{endpoint.rstrip('/')} {model}"


def _load_all() -> dict[str, dict]:
    try:
        data = json.loads(probes_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def stored(endpoint: str, model: str) -> ProbeResult | None:
    entry = _load_all().get(_key(endpoint, model))
    if not isinstance(entry, dict) or entry.get("chosen") not in STRATEGIES:
        return None
    return ProbeResult(chosen=entry["chosen"], tools=bool(entry.get("tools", True)),
                       honoured=dict(entry.get("honoured", {})),
                       detail=dict(entry.get("detail", {})))


def store(endpoint: str, model: str, result: ProbeResult) -> None:
    """Keep ``result`` (written atomically: runs started in parallel may store at once)."""
    data = _load_all()
    entry = asdict(result)
    entry.pop("answered")
    entry["probed_at"] = datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds")
    data[_key(endpoint, model)] = entry
    path = probes_path()
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


async def probe(model: ChatModel, *, every: bool = True) -> ProbeResult:
    """Try the strategies strongest first (all of them, or up to the first honoured one when
    ``every`` is false). Raises ``ModelError`` when the endpoint cannot be reached or refuses
    the key or model."""
    honoured: dict[str, bool] = {}
    detail: dict[str, str] = {}
    tools, answered = True, False
    for strategy in STRATEGIES:
        if strategy in ("named", "required") and not tools:
            honoured[strategy], detail[strategy] = False, "the server takes no tools"
            continue
        forcing = Forcing(strategy)
        out = forcing.stage_request(PROBE_MESSAGES, PROBE_DEFINITION)
        try:
            reply = await model.complete(out.messages, out.tools, out.tool_choice, out.options)
        except ModelError as exc:
            if exc.unreachable or exc.status in FATAL_STATUSES:
                raise
            tools = tools and not (out.tools and rejects_tools(exc.status, exc.message))
            honoured[strategy], detail[strategy] = False, exc.message
            continue
        answered = True
        read = forcing.read_stage(reply, PROBE_TOOL)
        arguments = _arguments(read.call.arguments if read.call else "")
        honoured[strategy] = read.honoured and arguments == PROBE_ANSWER
        detail[strategy] = "honoured" if honoured[strategy] else read.problem or (
            "the call came as text: not enforced" if read.call and not read.honoured
            else "the reply did not hold the right argument")
        if honoured[strategy] and not every:
            break
    chosen = next((s for s in STRATEGIES if honoured.get(s)), "prompted")
    return ProbeResult(chosen=chosen, tools=tools, honoured=honoured, detail=detail,
                       answered=answered)


def _arguments(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return None


async def forcing_for(model: ChatModel, notify: Notify) -> Forcing:
    """The forcing a run on ``model`` starts with: what the model declares, else what a
    stored probe of its endpoint found, else what a probe finds now (announced, and stored
    when the endpoint answered). An endpoint that cannot be probed starts on ``named``."""
    capabilities = model.capabilities
    if capabilities.forcing is not None:
        return Forcing(capabilities.forcing, notify=notify)
    endpoint = capabilities.endpoint
    found = stored(endpoint, model.name)
    if found is None:
        try:
            found = await probe(model, every=False)
        except ModelError as exc:
            notify("warning", f"The endpoint could not be probed ({exc.message}); stage calls "
                              "name their tool.")
            return Forcing("named", notify=notify)
        if not found.answered:
            notify("warning", "The endpoint answered no probe call; stage calls name their "
                              "tool.")
            return Forcing("named", notify=notify)
        store(endpoint, model.name, found)
        notify("info", f"Probed {endpoint or 'the endpoint'} · {model.name}: "
                       f"{found.describe()}.")
    return Forcing(found.chosen, tools=found.tools, notify=notify)


async def probe_stored(model: ChatModel, *, every: bool = False) -> ProbeResult:
    """Probe ``model``'s endpoint and store what it found (when the endpoint answered)."""
    result = await probe(model, every=every)
    if result.answered:
        store(model.capabilities.endpoint, model.name, result)
    return result
