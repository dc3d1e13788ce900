"""Candidates: when a file's first version fails a check the engine can run, more samples of the
same prompt, and the one the checks prefer (scripted model; a local OpenAI-compatible server for
the concurrency and Stop)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from core.engine.build import create_engine
from core.llm.openai_client import OpenAIModel
from tests.support.fake_openai import FakeOpenAI
from tests.support.script import analysis, authored, files_workspace, of, reading, run, \
    settings, summary

STUB = "def sign(n):\n    raise NotImplementedError\n"
ASK = "Implement sign(n) in signs.py: sign(5) gives 1, sign(-3) gives -1, sign(0) gives 0."
EXAMPLES = ("sign(5) == 1", "sign(-3) == -1", "sign(0) == 0")
RIGHT = "def sign(n):\n    return (n > 0) - (n < 0)\n"
POSITIVE_ONLY = "def sign(n):\n    return 1\n"  # passes sign(5) only
NEGATIVE_ONLY = "def sign(n):\n    return -1\n"  # passes sign(-3) only
ZERO_ONLY = "def sign(n):\n    return 0\n"  # passes sign(0) only
TWO_OF_THREE = "def sign(n):\n    return 1 if n >= 0 else -1\n"  # fails sign(0) only


def read() -> dict:  # type: ignore[type-arg]
    return analysis("Implement sign", **reading("change", change=("signs.py",),
                                                examples=EXAMPLES))


def versions(events: list) -> list[tuple[str, int, bool]]:  # type: ignore[type-arg]
    write = [t for t in of(events, "task_finished") if t.tool == "write_file"][0]
    return [(c["source"], c["passed"], c["kept"]) for c in write.candidates]


def test_no_candidate_is_asked_when_the_draft_passes_its_checks(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"signs.py": STUB})
    events, model = run([read(), authored(RIGHT, "signs.py"), summary("signs.py now has sign.")], ws,
                        request=ASK, candidates=4)
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author",
                                                        "summarizer"]
    assert versions(events) == [] and (ws / "signs.py").read_text() == RIGHT
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_the_candidate_that_passes_the_most_checks_is_kept(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"signs.py": STUB})
    events, model = run([
        read(), authored(POSITIVE_ONLY, "signs.py"),  # the draft: 1 of 3
        authored(TWO_OF_THREE, "signs.py"), authored(RIGHT, "signs.py"),
        authored(POSITIVE_ONLY, "signs.py"),
        summary("signs.py now has sign."),
    ], ws, request=ASK, candidates=3)
    assert (ws / "signs.py").read_text() == RIGHT
    assert versions(events) == [("draft", 1, False), ("candidate 1", 2, False),
                                ("candidate 2", 3, True), ("candidate 3", 1, False)]
    candidates = [r for r in model.requests if r["messages"] == model.requests[1]["messages"]]
    assert len(candidates) == 4  # the draft's prompt, asked again three times
    assert [r.get("temperature") for r in model.requests[2:5]] == [0.8, 0.8, 0.8]
    write = [t for t in of(events, "task_finished") if t.tool == "write_file"][0]
    assert "3 candidates tried: candidate 1: passes 2 of 3 checks; candidate 2: passes 3 of " \
           "3 checks (kept)" in write.result
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_the_draft_wins_a_tie(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"signs.py": STUB})
    events, _ = run([read(), authored(TWO_OF_THREE, "signs.py"),
                     authored(TWO_OF_THREE.replace("n >= 0", "0 <= n"), "signs.py"),
                     summary("signs.py now has sign.")], ws, request=ASK, candidates=1)
    assert (ws / "signs.py").read_text() == TWO_OF_THREE
    assert versions(events) == [("draft", 2, True), ("candidate 1", 2, False)]


def test_a_candidate_that_breaks_a_check_the_draft_passed_is_never_kept(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"signs.py": STUB})
    breaks = "def sign(n):\n    return -1 if n < 0 else 0\n"  # 2 of 3, but fails sign(5)
    events, _ = run([read(), authored(POSITIVE_ONLY, "signs.py"), authored(breaks, "signs.py"),
                     summary("signs.py now has sign.")], ws, request=ASK, candidates=1)
    assert (ws / "signs.py").read_text() == POSITIVE_ONLY
    assert versions(events) == [("draft", 1, True), ("candidate 1", 2, False)]
    write = [t for t in of(events, "task_finished") if t.tool == "write_file"][0]
    assert write.candidates[1]["line"] == ("candidate 1: passes 2 of 3 checks, fails one the "
                                           "first version passed")
    assert of(events, "run_finished")[0].outcome == "partial"


def _server(on_request) -> FakeOpenAI:  # type: ignore[no-untyped-def]
    return FakeOpenAI(stages={
        "request_analyser": [read()],
        "auto": [authored(POSITIVE_ONLY, "signs.py"), authored(RIGHT, "signs.py")],
        "summarizer": [summary("signs.py now has sign.")]}, on_request=on_request, hang_s=30)


async def _run(server: FakeOpenAI, workspace: Path) -> list:  # type: ignore[type-arg]
    model = OpenAIModel(server.base_url, "fake-model", "sk-test-123", timeout_s=60,
                        max_retries=0)
    engine = create_engine(settings(candidates=4, parallel_calls=4), workspace, model=model)
    try:
        return [event async for event in engine.run(ASK)]
    finally:
        await model.aclose()


def test_candidates_go_out_together_up_to_the_endpoints_capacity(tmp_path: Path) -> None:
    together = threading.Barrier(4)  # passes only when four candidates are out at once
    broken: list[bool] = []

    def on_request(stage: str, number: int) -> None:
        if stage == "auto" and number >= 2:  # the candidates (the draft is the first)
            try:
                together.wait(timeout=30)
            except threading.BrokenBarrierError:
                broken.append(True)

    with _server(on_request) as server:
        events = asyncio.run(_run(server, files_workspace(tmp_path, {"signs.py": STUB})))
    assert not broken
    assert sum(r["stage"] == "auto" for r in server.requests) == 5
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_stop_cancels_the_candidates_still_out(tmp_path: Path) -> None:
    release = threading.Event()
    out = threading.Event()
    seen: list[int] = []

    def on_request(stage: str, number: int) -> None:
        if stage == "auto" and number >= 2:
            seen.append(number)
            if len(seen) == 4:
                out.set()
            release.wait(timeout=30)  # the candidates hang until the test ends

    ws = files_workspace(tmp_path, {"signs.py": STUB})

    async def go() -> list:  # type: ignore[type-arg]
        model = OpenAIModel(server.base_url, "fake-model", "sk-test-123", timeout_s=60,
                            max_retries=0)
        engine = create_engine(settings(candidates=4, parallel_calls=4), ws, model=model)
        events = []

        async def stop_once_out() -> None:
            while not out.is_set():
                await asyncio.sleep(0.05)
            engine.cancel()

        stopper = asyncio.create_task(stop_once_out())
        try:
            async for event in engine.run(ASK):
                events.append(event)
        finally:
            stopper.cancel()
            await model.aclose()
        return events

    with _server(on_request) as server:
        events = asyncio.run(go())
        release.set()
    finished = of(events, "run_finished")[0]
    assert finished.status == "cancelled"
    assert (ws / "signs.py").read_text() == STUB  # nothing written after the Stop
    assert of(events, "summary")  # the summary still comes
    assert sorted(seen) == [2, 3, 4, 5]


def test_a_draft_that_does_not_parse_gets_candidates_and_one_that_parses_is_kept(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"signs.py": STUB})
    broken = "def sign(n):\n    return (n > 0) - (n < 0\n"
    events, _ = run([read(), authored(broken, "signs.py"), authored(broken, "signs.py"),
                     authored(TWO_OF_THREE, "signs.py"), summary("signs.py now has sign.")],
                    ws, request=ASK, candidates=2)
    assert (ws / "signs.py").read_text() == TWO_OF_THREE
    assert versions(events) == [("draft", 0, False), ("candidate 1", 0, False),
                                ("candidate 2", 2, True)]
