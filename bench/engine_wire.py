"""The bench's request characters checked against what goes over the wire.

The two-file scenario runs once more on each engine (phase, classic batched) with the full
model, this time through the real ``openai`` client against the local OpenAI-compatible
server of the tests (``tests/support/fake_openai.py``), which answers each stage with the
replies the scripted run used. Printed per engine: the bytes of the request bodies as
sent, the part of them that is messages and tools (what the bench counts), and the bench's
own count of the same run; the rest of a body is the envelope (model, tool_choice, stream,
max_tokens, temperature).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from bench.bench_model import request_chars
from bench.engine_runs import bench_settings, run_one
from bench.engine_scenarios import Scenario, scenarios
from core.engine.build import create_engine
from core.llm.openai_client import OpenAIModel
from tests.support.fake_openai import FakeOpenAI

SCENARIO = "read 2 files + report"


async def _over_the_wire(s: Scenario, engine: str, replies: dict[str, list[dict]]
                         ) -> tuple[int, int, int]:
    """(requests, body bytes, characters of messages and tools) of one run."""
    with tempfile.TemporaryDirectory() as folder, FakeOpenAI(stages=replies) as server:
        s.workspace(Path(folder))
        model = OpenAIModel(server.base_url, "fake-strict", "k", timeout_s=30, max_retries=0,
                            forcing="named")
        runner = create_engine(bench_settings(engine != "phase"), Path(folder), model=model)
        events = [event async for event in runner.run(s.request)]
        await model.aclose()
        if next(e.generated_by for e in events if e.kind == "summary") != "model":
            raise RuntimeError(f"{s.name} ({engine}) over the wire: no model-written summary")
        bodies = [r for r in server.requests if r["path"].endswith("/chat/completions")]
        sent = sum(int(r["headers"].get("Content-Length", 0)) for r in bodies)
        counted = sum(request_chars(r["body"]["messages"], r["body"].get("tools") or [])
                      for r in bodies)
        return len(bodies), sent, counted


def wire_report() -> str:
    s = next(x for x in scenarios() if x.name == SCENARIO)
    lines = [f"Over the wire ({SCENARIO}, full model, real openai client, local server):",
             f"{'engine':16} {'requests':>8} {'body bytes':>10} {'messages+tools':>14} "
             f"{'bench chars':>11}"]
    sent_by: dict[str, int] = {}
    for engine in ("phase", "batched"):
        run = run_one(s, engine, True)
        requests, sent, counted = asyncio.run(_over_the_wire(s, engine, run.model.given))
        sent_by[engine] = sent
        lines.append(f"{'phase' if engine == 'phase' else 'classic batched':16} {requests:>8} "
                     f"{sent:>10,} {counted:>14,} {int(run.figures['chars']):>11,}")
    lines.append(f"phase / classic batched, body bytes: {sent_by['phase'] / sent_by['batched']:.2f}")
    return "\n".join(lines)
