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
    from core.llm.factory import make_model

    model = make_model(dataclasses.replace(settings, forcing="auto"))
    try:
        result = await probe(model)
    except ModelError as exc:
        print(redact(f"error: the endpoint could not be probed: {exc.message}"))
        return 1
    finally:
        await model.aclose()
    if result.answered:
        store(settings.base_url, model.name, result)
    for line in report(settings.base_url, model.name, result, settings.forcing):
        print(redact(line))
    return 0 if result.answered else 1


def report(endpoint: str, model: str, result: ProbeResult, setting: str) -> list[str]:
    lines = [f"Probed {endpoint} · {model}:"]
    for strategy in STRATEGIES:
        honoured = result.honoured.get(strategy)
        mark = "–" if honoured is None else "✓" if honoured else "✗"
        lines.append(f"  {strategy:<12} {mark}  {result.detail.get(strategy, 'not tried')}")
    lines.append(f"  tools        {'accepted' if result.tools else 'refused by the server'}")
    if setting == "auto":
        lines.append(f"Stage calls will use: {result.chosen}")
    else:
        lines.append(f"Stage calls will use: {setting} (the 'forcing' setting; the probe "
                     f"would choose {result.chosen})")
    return lines
