"""Which forcing strategies an endpoint and model honour, found with a few small calls.

Each strategy gets one tiny stage call ("Record the color blue" with a tool of one enum
argument). It is honoured when the reply comes the way the strategy asks — a call of the
forced tool, or for ``json_schema`` and ``prompted`` a JSON object — and its arguments fit
the probe's schema: that is the protocol the run relies on. Whether the model named the
right color is reported apart (``answered``) and never lowers the strategy: a weak model
that calls the tool properly with another color still shows that the endpoint enforces the
call. The first honoured strategy, strongest first, is chosen; when none is, the run starts
on the strongest the server can take (``named``, or ``json_schema`` when it refuses tools)
and the mid-run step-down decides. The result is stored per base URL and model, with when
it was probed, in ``<data dir>/endpoint_probes.json``, so an endpoint is probed once: by
Settings' "Test connection", by ``--probe``, or before the first run against it; a run that
has to step down from a stored result probes again (``recheck``). Probe calls are not part
of any run (no budget, no events).
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
from core.llm.forcing import STRATEGIES, Forcing, Notify, StageRead
from core.llm.text_calls import rejects_tools
from core.schema import coerce

PROBE_TOOL = "phasedesk_probe"
PROBE_ANSWER = {"color": "blue"}
PROBE_SCHEMA = {"type": "object", "properties": {
    "color": {"type": "string", "enum": ["red", "green", "blue"]}}, "required": ["color"]}
PROBE_DEFINITION = {"type": "function", "function": {
    "name": PROBE_TOOL, "description": "Record the color named in the message.",
    "parameters": PROBE_SCHEMA}}
PROBE_MESSAGES = [{"role": "system", "content": "You are a connection test. Do as asked."},
                  {"role": "user", "content": "Record the color blue."}]
FATAL_STATUSES = {0, 401, 403, 404}


def _mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def first_strategy(tools: bool) -> str:
    """Where a run starts when no strategy held in the probe: the strongest the server takes."""
    return "named" if tools else "json_schema"


@dataclass(frozen=True)
class ProbeResult:
    """What the probe found: per strategy tried (in order) whether it was ``honoured`` and,
    where its reply held a value, whether it ``answered`` the color asked for; whether the server takes ``tools``
    at all, the chosen strategy, one line per strategy for a person, and when it was probed
    (UTC, ISO 8601; empty until stored)."""

    chosen: str
    tools: bool = True
    honoured: dict[str, bool] = field(default_factory=dict)
    answered: dict[str, bool] = field(default_factory=dict)
    detail: dict[str, str] = field(default_factory=dict)
    replied: bool = True  # at least one call got a reply (else nothing is stored)
    probed_at: str = ""

    def describe(self) -> str:
        honoured = ", ".join(f"{name} {_mark(ok)}" for name, ok in self.honoured.items())
        answered = ", ".join(f"{name} {_mark(ok)}" for name, ok in self.answered.items())
        text = f"stage calls use '{self.chosen}' (honoured: {honoured}"
        text += f"; answered right: {answered})" if answered else ")"
        if not any(self.honoured.values()):
            text += "; no strategy held in the probe, so runs start there and step down " \
                    "when the replies ignore it"
        return text + ("" if self.tools else "; the server takes no tools")

    def when(self) -> str:
        """When it was probed, for a person ("2025-06-01 14:02 UTC"; "" when not known)."""
        try:
            at = datetime.datetime.fromisoformat(self.probed_at)
        except ValueError:
            return ""
        return at.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


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
                       answered=dict(entry.get("answered", {})),
                       detail=dict(entry.get("detail", {})),
                       probed_at=str(entry.get("probed_at", "")))


def store(endpoint: str, model: str, result: ProbeResult) -> ProbeResult:
    """Keep ``result`` stamped with the time (written atomically: runs started in parallel
    may store at once); returns it as stored."""
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    result = ProbeResult(**{**asdict(result), "probed_at": now})
    data = _load_all()
    entry = asdict(result)
    entry.pop("replied")
    data[_key(endpoint, model)] = entry
    path = probes_path()
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)
    return result


def judge_reply(read: StageRead) -> tuple[bool, bool | None, str]:
    """(honoured, answered, detail) for one probe reply as the strategy read it; answered
    is None when the reply holds no value to judge."""
    if read.call is None:
        return False, None, read.problem
    try:
        value = coerce(json.loads(read.call.arguments or "{}"), PROBE_SCHEMA)
    except ValueError as exc:  # not JSON, or not fitting the schema
        return False, None, f"the arguments do not fit the schema ({exc})"
    answered = value["color"] == PROBE_ANSWER["color"]
    if not read.honoured:
        return False, answered, "the call came as text: not enforced"
    return True, answered, "honoured" if answered else \
        f"honoured (it recorded {value['color']!r} instead of 'blue')"


async def probe(model: ChatModel, *, every: bool = True) -> ProbeResult:
    """Try the strategies strongest first (all of them, or up to the first honoured one when
    ``every`` is false). Raises ``ModelError`` when the endpoint cannot be reached or refuses
    the key or model."""
    honoured: dict[str, bool] = {}
    answered: dict[str, bool] = {}
    detail: dict[str, str] = {}
    tools, replied = True, False
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
        replied = True
        honoured[strategy], right, detail[strategy] = judge_reply(
            forcing.read_stage(reply, PROBE_TOOL))
        if right is not None:
            answered[strategy] = right
        if honoured[strategy] and not every:
            break
    chosen = next((s for s in STRATEGIES if honoured.get(s)), first_strategy(tools))
    return ProbeResult(chosen=chosen, tools=tools, honoured=honoured, answered=answered,
                       detail=detail, replied=replied)


async def forcing_for(model: ChatModel, notify: Notify) -> Forcing:
    """The forcing a run on ``model`` starts with: what the model declares, else what a
    stored probe of its endpoint found, else what a probe finds now (announced, and stored
    when the endpoint answered). An endpoint that cannot be probed starts on ``named``.
    ``Forcing.source`` says which (``declared``, ``stored``, ``probed``, ``default``)."""
    capabilities = model.capabilities
    if capabilities.forcing is not None:
        return Forcing(capabilities.forcing, notify=notify, source="declared")
    endpoint = capabilities.endpoint
    found = stored(endpoint, model.name)
    if found is not None:
        return Forcing(found.chosen, tools=found.tools, notify=notify, source="stored")
    try:
        found = await probe(model, every=False)
    except ModelError as exc:
        notify("warning", f"The endpoint could not be probed ({exc.message}); stage calls "
                          "name their tool.")
        return Forcing("named", notify=notify, source="default")
    if not found.replied:
        notify("warning", "The endpoint answered no probe call; stage calls name their tool.")
        return Forcing("named", notify=notify, source="default")
    store(endpoint, model.name, found)
    notify("info", f"Probed {endpoint or 'the endpoint'} · {model.name}: {found.describe()}.")
    return Forcing(found.chosen, tools=found.tools, notify=notify, source="probed")


async def recheck(model: ChatModel, forcing: Forcing) -> None:
    """After a run stepped down from a stored probe result: probe ``model``'s endpoint again
    and store what it finds (once a run). The run goes on with the weaker of the strategy
    it stepped down to and the one the new probe chose."""
    if forcing.source != "stored":
        return
    forcing.source = "rechecked"
    endpoint = model.capabilities.endpoint
    try:
        found = await probe_stored(model)
    except ModelError as exc:
        forcing.notify("warning", f"The stored probe of {endpoint or 'the endpoint'} could not "
                                  f"be checked again ({exc.message}); it stays as it was.")
        return
    said = f"Probed {endpoint or 'the endpoint'} · {model.name} again, as its stored " \
           f"result did not hold: {found.describe()}."
    forcing.tools = forcing.tools and found.tools
    if STRATEGIES.index(found.chosen) > STRATEGIES.index(forcing.strategy):
        forcing.strategy = found.chosen
        said += f" Using '{found.chosen}' for the rest of the run."
    forcing.notify("info", said)


async def probe_stored(model: ChatModel, *, every: bool = False) -> ProbeResult:
    """Probe ``model``'s endpoint and store what it found (when the endpoint answered)."""
    result = await probe(model, every=every)
    if result.replied:
        result = store(model.capabilities.endpoint, model.name, result)
    return result
