"""``main_qt.py --headless --probe``: which ways of forcing stage calls the endpoint honours.

The probe's result is stored for the endpoint and model (runs then start with it) and
printed one strategy a line. Exit code 0 when the endpoint answered, 1 when it could not
be probed.
"""

from __future__ import annotations

import asyncio
import dataclasses

from core.config import Settings
from core.llm.base import ModelError
from core.llm.forcing import STRATEGIES
from core.llm.probe import ProbeResult, probe, store
from core.secrets import redact


def probe_command(settings: Settings) -> int:
    if settings.effective_provider() != "openai":
        print("The embedded model forces every stage call with its grammar: nothing to probe. "
              "Give --base-url (and --model) to probe an endpoint.")
        return 0
    return asyncio.run(_probe(settings))


async def _probe(settings: Settings) -> int:
    from core.engine.build import endpoint_model

    model = endpoint_model(dataclasses.replace(settings, forcing="auto"))
    try:
        result = await probe(model)
    except ModelError as exc:
        print(redact(f"error: the endpoint could not be probed: {exc.message}"))
        return 1
    finally:
        await model.aclose()
    if result.replied:
        result = store(settings.base_url, model.name, result)
    for line in report(settings.base_url, model.name, result, settings.forcing):
        print(redact(line))
    return 0 if result.replied else 1


def _mark(value: bool | None) -> str:
    return "–" if value is None else "✓" if value else "✗"


def report(endpoint: str, model: str, result: ProbeResult, setting: str) -> list[str]:
    """One line a strategy: honoured (the protocol held: the forced call came, its arguments
    fit the schema), answered (the model recorded the color it was asked for; shown, never
    deciding), and what happened."""
    when = f" ({result.when()})" if result.when() else ""
    lines = [f"Probed {endpoint} · {model}{when}:",
             f"  {'strategy':<12} {'honoured':<9} {'answered':<9} detail"]
    for strategy in STRATEGIES:
        honoured, answered = result.honoured.get(strategy), result.answered.get(strategy)
        lines.append(f"  {strategy:<12} {_mark(honoured):<9} {_mark(answered):<9} "
                     f"{result.detail.get(strategy, 'not tried')}")
    lines.append(f"  tools        {'accepted' if result.tools else 'refused by the server'}")
    if setting == "auto":
        lines.append(f"Stage calls will use: {result.chosen}")
    else:
        lines.append(f"Stage calls will use: {setting} (the 'forcing' setting; the probe "
                     f"would choose {result.chosen})")
    return lines
