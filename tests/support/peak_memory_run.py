"""Runs that look at every file of a workspace, in a process of their own; prints the process's
peak resident memory in KiB (``ru_maxrss``) when they are done.

``python -m tests.support.peak_memory_run WORKSPACE``: a change request on the phase engine
(its draft shows the workspace's files), a question whose plan reads, searches and lists
everything, and the classic loop doing the same, all on a model answering by stage.
"""

from __future__ import annotations

import asyncio
import resource
import sys
from pathlib import Path
from typing import Any

from core.engine.build import create_engine
from tests.support.script import authored, judge, plan, settings, task
from tests.support.staged_model import StagedModel

LOOK = (("read_file", {"path": "data/huge.txt"}), ("read_file", {"path": "data/huge.txt",
                                                                  "start_line": 3}),
        ("search_code", {"pattern": "line"}), ("list_files", {"recursive": True}))


async def one(workspace: Path, request: str, replies: dict[str, list[dict[str, Any]]],
              **values: Any) -> None:
    engine = create_engine(settings(**values), workspace, model=StagedModel(replies))
    async for _ in engine.run(request):
        pass


async def main(workspace: Path) -> None:
    await one(workspace, "Change app.py so main() returns 2",
              {"text": [authored("def main():\n    return 2\n", "app.py")]})
    await one(workspace, "How many lines does each file hold?", {
        "text": [{"text": "A few."}],
        "plan_tool_call": [plan(*[task(n, name, **args)
                                  for n, (name, args) in enumerate(LOOK, start=1)])],
        "judge_tasks": [judge([1, 2, 3, 4])]})
    await one(workspace, "How many lines does each file hold?", {
        "free": [{"tool_calls": [{"tool": name, "arguments": args} for name, args in LOOK]},
                 {"text": "A few."}]}, use_phase_task=False)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
