"""What the person's language costs in prompt text: characters sent per stage call.

One scripted run of each engine (the phase engine: analysis, phase planner, a read round
with Plan / Judge / Think — the request names config.py, which the run has not written, so
the one-shot draft is asked after that round —, a write round that takes the draft's file
and whose clean write the engine settles itself, the summary; the classic loop: a read, a
write drafted by the one-shot call, an answer), for an English and a Chinese request. The
characters are those of every message and of the tool schemas offered, summed per call:
what a small local model reads. An English run carries no language text beyond the
analysis schema's optional ``language`` field.

Run: .venv/bin/python bench/bench_prompt_language.py
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)

from core.engine.build import create_engine  # noqa: E402
from core.llm.scripted import ScriptedModel  # noqa: E402
from tests.support.script import (analysis, authored, judge, phases, plan, settings,  # noqa: E402
                                  summary, task, think)

REQUESTS = {"English": "Change the port in config.py to 8080",
            "Chinese": "把 config.py 里的端口改成 8080"}


def phase_replies() -> list[dict[str, Any]]:
    return [analysis("Set the port", phases=2),
            phases((1, "Read", [], 1), (2, "Change", [1], 1)),
            plan(task(1, "read_file", path="config.py")),
            authored("PORT = 8080\nDEBUG = True\n"), judge([1]), think(True, False),
            plan(task(1, "write_file", path="config.py", instruction="set PORT to 8080")),
            summary()]


def classic_replies() -> list[dict[str, Any]]:
    write = {"path": "config.py", "instruction": "set PORT to 8080"}
    return [{"tool_calls": [{"tool": "read_file", "arguments": {"path": "config.py"}}]},
            {"tool_calls": [{"tool": "write_file", "arguments": write}]},
            authored("PORT = 8080\nDEBUG = True\n"), {"text": "PORT is now 8080."}]


async def measure(replies: list[dict[str, Any]], request: str, **values: Any
                  ) -> list[tuple[str, int]]:
    """(stage, prompt characters) of every call of one run."""
    workspace = Path(tempfile.mkdtemp())
    (workspace / "config.py").write_text("PORT = 8000\nDEBUG = True\n", encoding="utf-8")
    model = ScriptedModel(replies)
    engine = create_engine(settings(think_stage="always", **values), workspace, model=model)
    try:
        events = [event async for event in engine.run(request)]
    finally:
        shutil.rmtree(workspace)
    calls = [e for e in events if e.kind == "llm_call"]
    if model.remaining or not all(c.ok for c in calls):
        raise SystemExit(f"the scripted run went off script: {[c.error for c in calls]}")
    sizes = [sum(len(m.get("content") or "") for m in r["messages"])
             + len(json.dumps(r["tools"] or [], ensure_ascii=False)) for r in model.requests]
    return [(c.stage, size) for c, size in zip(calls, sizes)]


def main() -> None:
    for engine, replies, values in (("phase", phase_replies, {}),
                                    ("classic", classic_replies, {"use_phase_task": False})):
        runs = {name: asyncio.run(measure(replies(), request, **values))
                for name, request in REQUESTS.items()}
        english, chinese = runs["English"], runs["Chinese"]
        print(f"\n{engine} engine: prompt characters per call")
        print(f"{'stage':<18}{'English':>9}{'Chinese':>9}{'extra':>7}")
        for (stage, en), (_, zh) in zip(english, chinese):
            print(f"{stage:<18}{en:>9}{zh:>9}{zh - en:>+7}")
        en_total, zh_total = sum(n for _, n in english), sum(n for _, n in chinese)
        print(f"{'total':<18}{en_total:>9}{zh_total:>9}{zh_total - en_total:>+7}"
              f"  ({(zh_total - en_total) / en_total:+.1%})")


if __name__ == "__main__":
    main()
