"""The analysis stage, for both engines: the model reads the request (its goal, requirements,
and the reading of what it asks), the engine checks the reading and takes it.

The analysis sees the request, the text of the files it names (their docstrings may state
examples) and the names of the agent's tools. It runs in a throwaway context, outside the
budget.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any, Protocol

from core.engine.execution.offered import OfferedTools
from core.engine.language import decide, detect
from core.engine.reading import named_texts
from core.engine.stages.caller import StageCaller
from core.engine.stages.instructions import ANALYSER_SYSTEM, analyser_user, language_ask
from core.engine.stages.schemas import REQUEST_ANALYSER, parse_analysis
from core.llm.base import Message
from core.shapes.mcp_server import SEPARATOR
from core.shapes.reading import Reading
from core.shapes.stage_results import Analysis
from core.tools.base import RunState


class Reader(Protocol):
    caller: StageCaller
    tools: OfferedTools
    run_state: RunState

    async def read_request(self, raw: dict[str, Any], requirements: list[tuple[str, str]]
                           ) -> Reading: ...

    def apply_reading(self, reading: Reading) -> None: ...


async def analyse_request(engine: Reader, request: str, previous: dict | None, prior: str,
                          again: str = "") -> Analysis:
    """The analysis of ``request`` (``previous``: the analysis a clarification answer
    continues; ``prior``: its language; ``again``: the user turn of a re-analysis), its
    reading checked and applied to ``engine``; without a usable reply, the request as its
    goal (and only what the engine finds in it by itself)."""
    seen = detect(request) or prior
    files = await asyncio.to_thread(named_texts, engine.run_state.gate, request)
    needed = [name for name in engine.tools.offered_names()
              if SEPARATOR in name or name == "run_command"]  # the workspace tools never are
    user = again or analyser_user(request, previous, files, needed)
    messages: list[Message] = [
        {"role": "system", "content": ANALYSER_SYSTEM},
        {"role": "user", "content": user + language_ask(seen, "request_analyser")}]
    result = await engine.caller.call("request_analyser", messages, "request_analyser",
                                      REQUEST_ANALYSER, parse_analysis, counted=False)
    if result.value is not None:
        analysis = replace(result.value, language=decide(request, result.value.language, prior))
    else:
        goal = " ".join(request.split())[:300] or "(empty request)"
        analysis = Analysis(core_goal=goal, requirements=[], constraints=[],
                            complexity="medium", estimated_phases=1,
                            language=decide(request, "", prior))
    quotes = [*analysis.quotes, *[""] * len(analysis.requirements)]
    pairs = list(zip(analysis.requirements, quotes))
    engine.apply_reading(await engine.read_request(analysis.reading, pairs))
    return analysis
