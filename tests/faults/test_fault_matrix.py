"""Every fault × every stage × both engines, through the real ``openai`` client.

The cells run concurrently once per session (most of their time is spent waiting for
timeouts and retry delays); each parametrized test then judges one cell: one summary and
one run_finished at the end, nothing raised, the SDK's retry policy and Retry-After
respected, words a person understands, an intact protocol, and an offline replay of the
recorded replies that ends the same way.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from core.events import to_dict
from core.llm.scripted import ScriptedModel
from core.engine.build import create_engine
from tests.faults.cells import (API_KEY, MAX_RETRIES, RETRY_AFTER_S, TIMEOUT_S, Cell, CellResult,
                                make_workspace, matrix, run_cell)
from tests.integration.test_openai_protocol import assert_pairs_intact
from tests.support.event_order import canonical
from tests.support.script import settings

CELLS = matrix()
SDK_RETRIED = {"http_500", "http_429", "timeout", "reset", "truncated", "truncated_sse"}
NOT_RETRIED = {"not_json", "empty_choices"}  # a 200 reply: the SDK has nothing to retry
BACKOFF_S = 0.5 * 0.75  # the SDK's first retry delay, less its largest jitter
NOTED_LATE_S = 0.15  # the server notes a request when it reads it, after the client's clock
WORDS = {"http_500": "the model server failed (HTTP 500)",
         "http_429": "the endpoint is rate limiting (HTTP 429)",
         "timeout": "the model did not answer in time",
         "reset": "the connection to the model broke off",
         "truncated": "the connection to the model broke off",
         "truncated_sse": "the connection to the model broke off",
         "not_json": "the endpoint sent a reply that could not be read",
         "empty_choices": "the endpoint replied without any choices",
         "down": "the model could not be reached",
         "bad_json_args": "the arguments are not valid JSON",
         "wrong_tool": "it called read_file instead of",
         "no_tool_call": "it answered with text instead of calling",
         "missing_field": "missing required field",
         "oversized": "it answered with text instead of calling"}
CLASSIC_WORDS = {"bad_json_args": "arguments are not JSON",
                 "wrong_tool": "unknown tool 'summarizer'",
                 "missing_field": "missing required field 'path'",
                 "no_tool_call": "I would rather just talk about it",
                 "oversized": "All work and no play"}
MAX_REQUEST_BYTES = 256 * 1024


def is_answer(cell: Cell) -> bool:
    """A classic call answered with text: that text is the answer, nothing failed."""
    return cell.engine == "classic" and cell.stage != "summarizer" and \
        cell.fault in ("no_tool_call", "oversized")


def words(cell: Cell) -> str:
    if cell.engine == "classic" and cell.stage != "summarizer" and cell.fault in CLASSIC_WORDS:
        return CLASSIC_WORDS[cell.fault]
    return WORDS[cell.fault]


@pytest.fixture(scope="module")
def results(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
            ) -> dict[Cell, CellResult]:
    wanted = [item.callspec.params["cell"] for item in request.session.items
              if item.module is request.module and hasattr(item, "callspec")]
    cells = list(dict.fromkeys(wanted))
    root = tmp_path_factory.mktemp("matrix")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PHASEDESK_HOME", str(root / "home"))
        with ThreadPoolExecutor(max_workers=6) as pool:
            done = pool.map(lambda c: run_cell(c, root / c.name), cells)
            return dict(zip(cells, done))


@pytest.mark.parametrize("cell", CELLS, ids=lambda c: c.name)
def test_cell_ends_with_one_summary_and_says_what_failed(
        cell: Cell, results: dict[Cell, CellResult]) -> None:
    result = results[cell]
    assert result.crash == "", result.crash
    assert result.summarised, result.kinds
    summary, finished = result.events[-2], result.events[-1]
    assert words(cell) in result.texts(), result.texts()[:2000]
    if cell.fault == "down":
        assert "could not be reached" in summary.final_summary
        assert summary.generated_by == "fallback"
        if cell.stage != "summarizer":
            assert finished.status == "failed"
    elif cell.stage == "summarizer":
        assert summary.generated_by == "fallback"
        assert "The summary was written without the model: the summarizer failed" in \
            summary.final_summary
    else:  # the stage degraded and the run went on to the model's own summary
        assert summary.generated_by == "model", summary.final_summary
        assert finished.status == "completed"


@pytest.mark.parametrize("cell", CELLS, ids=lambda c: c.name)
def test_cell_retries_follow_the_sdk_policy_and_retry_after(
        cell: Cell, results: dict[Cell, CellResult]) -> None:
    result = results[cell]
    faulted = [r for r in result.requests if r["fault"]]
    failed_calls = [e for e in result.events if e.kind == "llm_call" and not e.ok]
    if cell.fault in SDK_RETRIED:
        assert len(faulted) == MAX_RETRIES + 1  # one engine call, retried by the SDK
        assert len(failed_calls) == 1
        gap = faulted[1]["at"] - faulted[0]["at"]
        least = {"http_429": RETRY_AFTER_S * 0.9, "timeout": TIMEOUT_S + BACKOFF_S}.get(
            cell.fault, BACKOFF_S)
        assert least - NOTED_LATE_S <= gap <= least + 2.5, f"retried after {gap:.2f} s"
    elif cell.fault in NOT_RETRIED:
        assert len(faulted) == len(failed_calls) >= 1
    elif cell.fault == "down":
        assert len(faulted) == 1 and len(failed_calls) == 1
        assert result.requests[-1] is faulted[0]  # nothing reached the server after it
    else:
        assert failed_calls == []
        assert len(faulted) == (1 if is_answer(cell) else 2)  # the call and its one repair


@pytest.mark.parametrize("cell", CELLS, ids=lambda c: c.name)
def test_cell_keeps_the_protocol_and_bounds_what_it_sends(
        cell: Cell, results: dict[Cell, CellResult]) -> None:
    result = results[cell]
    assert result.requests, "the model was never asked"
    for sent in result.requests:
        assert_pairs_intact(sent["body"]["messages"])
        size = len(json.dumps(sent["body"]))
        assert size < MAX_REQUEST_BYTES, f"a {size:,}-byte request to the model"
        headers = {name.lower(): value for name, value in sent["headers"].items()}
        assert headers["authorization"] == f"Bearer {API_KEY}"


def shape(events: list) -> list[tuple]:
    return canonical([to_dict(e) for e in events],
                     lambda d: (d["kind"], d.get("stage") if d["kind"] == "llm_call" else None,
                                d.get("ok"), d.get("status")))


@pytest.mark.parametrize("cell", CELLS, ids=lambda c: c.name)
def test_cell_replays_offline_to_the_same_events(
        cell: Cell, results: dict[Cell, CellResult], tmp_path: Path) -> None:
    live = results[cell].events
    replies = [e.reply for e in live if e.kind == "llm_call"]

    async def replay() -> list:
        engine = create_engine(settings(**cell.settings_values()), make_workspace(tmp_path),
                               model=ScriptedModel(replies))
        return [e async for e in engine.run("Please read the README")]

    again = asyncio.run(replay())
    assert shape(again) == shape(live)
