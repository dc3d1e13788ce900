"""What the command sandbox costs: run_command's wall time per command, sandboxed and not.

Prints one table: the median and 90th percentile over ``RUNS`` runs of three commands
(``true``; a Python start; ``ls`` of the workspace) through the real tool, with
``command_sandbox`` off, on without network, and on with network.

Run: .venv/bin/python bench/bench_sandbox.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)

from core.tools import default_registry  # noqa: E402
from core.tools.base import RunState, ToolContext  # noqa: E402
from core.tools.sandbox import availability  # noqa: E402

RUNS = 40
COMMANDS = {"true": "true", "python -c pass": f"{sys.executable} -c pass", "ls": "ls -la"}
MODES = {"off": ("off", False), "sandboxed": ("auto", False), "sandboxed + net": ("auto", True)}


async def _approve(*_: object, **__: object) -> bool:
    return True


async def timings(command: str, mode: str, network: bool, workspace: Path) -> list[float]:
    registry = default_registry()
    run = RunState(workspace=workspace, run_id="bench", command_sandbox=mode,
                   command_network=network)
    ctx = ToolContext(run=run, emit=lambda event: None, approve=_approve)
    seconds = []
    for _ in range(RUNS):
        started = time.perf_counter()
        result = await registry.execute("run_command", {"command": command}, ctx)
        seconds.append(time.perf_counter() - started)
        assert result.ok, result.error
    return seconds


def main() -> None:
    found = availability()
    print(found.describe())
    if not found.active:
        return
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        print(f"\n{'command':<16}" + "".join(f"{name:>22}" for name in MODES))
        print(f"{'':<16}" + "".join(f"{'median / p90 (ms)':>22}" for _ in MODES))
        for label, command in COMMANDS.items():
            cells = []
            for mode, network in MODES.values():
                values = sorted(asyncio.run(timings(command, mode, network, workspace)))
                median = statistics.median(values) * 1000
                p90 = values[int(len(values) * 0.9) - 1] * 1000
                cells.append(f"{median:.1f} / {p90:.1f}")
            print(f"{label:<16}" + "".join(f"{cell:>22}" for cell in cells))


if __name__ == "__main__":
    main()
