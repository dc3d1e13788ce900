"""Runtime × forcing strategy: how stage calls fare on each OpenAI-compatible runtime.

For every fake runtime (tests/support/fake_runtimes.py: OpenAI, vLLM, llama-server,
Ollama, a server without tools) and every strategy (``auto`` probes the endpoint first),
one phase-engine run that writes a file, through the real ``openai`` client (the write
carries its content, which plans may still give: the fakes answer a plain authoring call
with "pong"; the clean write round is the engine's to settle, so no judge is asked). Printed per
cell: stage calls that gave a usable result, model calls made (probe calls included), the
strategy the probe detected (auto) and the one the run ended on, the summary's author and
whether the file was written; then one classic run per runtime with default settings.

Run: .venv/bin/python bench/compat_matrix.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)

from core.engine.build import create_engine  # noqa: E402
from core.llm.openai_client import OpenAIModel  # noqa: E402
from core.llm.probe import PROBE_TOOL, stored  # noqa: E402
from tests.support.fake_runtimes import RUNTIMES, FakeRuntime  # noqa: E402
from tests.support.script import analysis, plan, settings, summary, task  # noqa: E402

STRATEGIES = ("auto", "named", "required", "json_schema", "prompted")
WRITE = {"path": "hello.txt", "content": "hello\n"}


@dataclass
class Cell:
    runtime: str
    strategy: str
    engine: str
    usable: int = 0
    stage_calls: int = 0
    calls: int = 0
    detected: str = "—"
    ended_on: str = ""
    summary: str = ""
    wrote: bool = False


def stages() -> dict[str, list[dict]]:
    return {"request_analyser": [analysis("Write hello.txt")],
            "plan_tool_call": [plan(task(1, "write_file", **WRITE))],
            "summarizer": [summary("Wrote hello.txt.")],
            "auto": [{"tool": "write_file", "arguments": WRITE}, {"text": "Wrote hello.txt."}]}


async def run_cell(cell: Cell, workspace: Path) -> Cell:
    with FakeRuntime(cell.runtime, stages()) as server:
        forcing = None if cell.strategy == "auto" else cell.strategy
        model = OpenAIModel(server.base_url, f"fake-{cell.runtime}", "k", timeout_s=10,
                            max_retries=0, forcing=forcing)
        engine = create_engine(settings(use_phase_task=cell.engine == "phase"), workspace,
                               model=model)
        events = [event async for event in engine.run("Write hello.txt")]
        await model.aclose()
        cell.calls = len(server.requests)
        probes = sum(r["stage"] == PROBE_TOOL for r in server.requests)
        found = stored(server.base_url, model.name)
    cell.stage_calls = sum(e.kind == "llm_call" for e in events)
    cell.usable = engine.accounting.usable
    cell.detected = found.chosen if found and probes else "—"
    cell.ended_on = engine.caller.strategy
    cell.summary = next(e.generated_by for e in events if e.kind == "summary")
    cell.wrote = (workspace / "hello.txt").exists()
    return cell


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="compat-matrix-"))
    cells = [Cell(runtime, strategy, "phase") for runtime in RUNTIMES for strategy in STRATEGIES]
    cells += [Cell(runtime, "auto", "classic") for runtime in RUNTIMES]
    for number, cell in enumerate(cells):
        asyncio.run(run_cell(cell, _folder(root, number)))
    header = ("runtime", "engine", "strategy", "stage calls ok", "calls", "detected",
              "ended on", "summary", "file")
    rows = [(c.runtime, c.engine, c.strategy, f"{c.usable}/{c.stage_calls}", str(c.calls),
             c.detected, c.ended_on, c.summary, "yes" if c.wrote else "no") for c in cells]
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(value).ljust(width) for value, width in zip(row, widths)).rstrip())


def _folder(root: Path, number: int) -> Path:
    folder = root / f"ws{number}"
    folder.mkdir()
    return folder


if __name__ == "__main__":
    main()
