"""The fault matrix: every fault at every stage of both engines, through the real client.

A ``Cell`` names an engine, a stage and a fault; ``run_cell`` runs it against the fake
server with ``OpenAIModel`` (short timeout, one SDK retry) and returns what happened.
The test module asserts on the result; ``bench/fault_matrix.py`` tabulates it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.events import Event
from core.llm.openai_client import OpenAIModel
from core.engine.build import create_engine
from tests.support.fake_openai import FAULTS, FakeOpenAI, Inject
from tests.support.script import analysis, judge, phases, plan, settings, summary, task, think

API_KEY = "sk-fault-matrix-0123456789abcdefXYZ"
TIMEOUT_S = 1.0
MAX_RETRIES = 1
RETRY_AFTER_S = 1
RUN_LIMIT_S = 60.0
REQUEST = "Please read the README and tell me what it says"
ANSWER = "The README says hello."

PHASE_STAGES = ("request_analyser", "phase_planner", "plan_tool_call", "judge_tasks", "think",
                "summarizer")
CLASSIC_STAGES = ("tool_round", "final_answer", "summarizer")


def phase_replies() -> dict[str, list[dict[str, Any]]]:
    """Each stage's reply; "auto" is the one-shot draft before the first round (an answer in
    words, so the round is planned)."""
    return {"request_analyser": [analysis("Read the README", complexity="complex")],
            "phase_planner": [phases((1, "Read", [], 1))],
            "auto": [{"text": ANSWER}],
            "plan_tool_call": [plan(task(1, "read_file", path="README.md"))],
            "judge_tasks": [judge([1], summary="Read the README; it says hello.")],
            "think": [think(True, False, "nothing left to do")],
            "summarizer": [summary("## Done\n\nThe README says hello.")]}


def classic_replies() -> dict[str, list[dict[str, Any]]]:
    """The loop's analysis first, then its "auto" calls: a read, the answer."""
    return {"request_analyser": [analysis("Read the README")],
            "auto": [{"tool_calls": [{"tool": "read_file", "arguments": {"path": "README.md"}}]},
                     {"text": ANSWER}],
            "summarizer": [summary("## Read\n\nThe README was read.")]}


@dataclass(frozen=True)
class Cell:
    engine: str  # "phase" | "classic"
    stage: str
    fault: str

    @property
    def name(self) -> str:
        return f"{self.engine}-{self.stage}-{self.fault}"

    def inject(self) -> Inject:
        if self.engine == "classic" and self.stage != "summarizer":
            return Inject("auto", self.fault, at=1 if self.stage == "tool_round" else 2)
        return Inject(self.stage, self.fault)

    def settings_values(self) -> dict[str, Any]:
        if self.engine == "phase":
            return {"think_stage": "always"}
        values: dict[str, Any] = {"use_phase_task": False}
        if self.stage == "summarizer":
            values["max_iterations"] = 1  # the tool round spends the budget: summarizer next
        return values


def matrix() -> list[Cell]:
    return [Cell(engine, stage, fault)
            for engine, stages in (("phase", PHASE_STAGES), ("classic", CLASSIC_STAGES))
            for stage in stages for fault in FAULTS]


@dataclass
class CellResult:
    cell: Cell
    events: list[Event] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    crash: str = ""
    to_summary_s: float | None = None
    elapsed_s: float = 0.0

    @property
    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    @property
    def summarised(self) -> bool:
        kinds = self.kinds
        return (not self.crash and kinds[-2:] == ["summary", "run_finished"]
                and kinds.count("summary") == 1 and kinds.count("run_finished") == 1)

    def texts(self) -> str:
        """Everything the run said to the person about what happened."""
        said: list[str] = []
        for event in self.events:
            for name in ("message", "error", "final_summary", "user_summary"):
                value = getattr(event, name, "")
                if isinstance(value, str) and value:
                    said.append(value)
        return "\n".join(said)


def make_workspace(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text("# hello\n", encoding="utf-8")
    return folder


async def drive(base_url: str, workspace: Path, request: str, values: dict[str, Any],
                result: CellResult) -> None:
    """Run one request on the real client; fill ``result`` (a crash is recorded, not raised)."""
    model = OpenAIModel(base_url, "fake-model", API_KEY, timeout_s=TIMEOUT_S,
                        max_retries=MAX_RETRIES)
    started = time.monotonic()
    try:
        engine = create_engine(settings(**values), workspace, model=model)

        async def consume() -> None:
            async for event in engine.run(request):
                result.events.append(event)
                if event.kind == "summary" and result.to_summary_s is None:
                    result.to_summary_s = time.monotonic() - started

        await asyncio.wait_for(consume(), RUN_LIMIT_S)
    except (Exception, asyncio.CancelledError) as exc:  # the point: record what escapes
        result.crash = f"{type(exc).__name__}: {exc}"
    finally:
        result.elapsed_s = time.monotonic() - started
        await model.aclose()


def run_scenario(cell: Cell, stages: dict[str, list[dict[str, Any]]], workspace: Path, *,
                 request: str = REQUEST, values: dict[str, Any] | None = None,
                 inject: tuple[Inject, ...] = (),
                 on_request: Callable[[str, int], None] | None = None,
                 base_url: str = "") -> CellResult:
    """One run against a fresh fake server (or ``base_url``, e.g. a refused port)."""
    result = CellResult(cell)
    with FakeOpenAI(stages=stages, inject=inject, hang_s=TIMEOUT_S * 4,
                    retry_after=RETRY_AFTER_S, on_request=on_request) as server:
        asyncio.run(drive(base_url or server.base_url, workspace, request,
                          cell.settings_values() if values is None else values, result))
        result.requests = list(server.requests)
    return result


def run_cell(cell: Cell, workspace: Path) -> CellResult:
    stages = phase_replies() if cell.engine == "phase" else classic_replies()
    return run_scenario(cell, stages, make_workspace(workspace), inject=(cell.inject(),))
