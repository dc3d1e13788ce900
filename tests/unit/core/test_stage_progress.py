"""The reply as it is written: the shown field read from unfinished JSON, coalesced deltas,
and the scripted model's streamed replies."""

from __future__ import annotations

import asyncio
import json

import pytest

from core.engine.stages.progress import DeltaRelay, partial_string
from core.events import Event, StageDelta, from_dict, to_dict
from core.llm.base import CallOptions
from core.llm.scripted import ScriptedModel, ScriptError

SUMMARY = 'Line one\nsaid "hi" \\ caf\u00e9 \u2713'


def test_the_field_is_read_from_every_prefix_of_the_arguments() -> None:
    text = json.dumps({"verdicts": [{"comment": "user_summary is not this"}],
                       "user_summary": SUMMARY, "phase_completed": True})
    start = text.index('"user_summary"')
    seen = [partial_string(text[:end], "user_summary") for end in range(len(text) + 1)]
    assert all(value is None for value in seen[:start + len('"user_summary": "')])
    values = [v for v in seen if v is not None]
    assert values[-1] == SUMMARY
    assert all(SUMMARY.startswith(v) for v in values)  # never a broken escape shown
    assert all(len(a) <= len(b) for a, b in zip(values, values[1:]))


def test_a_quoted_field_name_inside_a_string_is_not_taken_for_the_field() -> None:
    text = json.dumps({"comment": 'he wrote "final_summary": "fake"', "final_summary": "real"})
    assert partial_string(text, "final_summary") == "real"
    assert partial_string('{"final_summary": 12', "final_summary") is None


def relay_run(stage: str, pieces: list[tuple[str, str]], pause_s: float) -> list[Event]:
    events: list[Event] = []

    async def go() -> None:
        relay = DeltaRelay(stage, events.append)
        for kind, piece in pieces:
            relay.feed(kind, piece)
            await asyncio.sleep(pause_s)
        await asyncio.sleep(0.1)
        relay.close()
        relay.feed("arguments", "ignored after close")

    asyncio.run(go())
    return events


def test_slow_pieces_are_each_shown_and_fast_ones_coalesced() -> None:
    text = json.dumps({"final_summary": "The report is written to notes.md and checked."})
    pieces = [("arguments", text[i:i + 4]) for i in range(0, len(text), 4)]
    slow = relay_run("summarizer", pieces, 0.07)
    fast = relay_run("summarizer", pieces, 0.0)
    shown = [e.text for e in slow if isinstance(e, StageDelta)]
    assert shown[-1] == "The report is written to notes.md and checked."
    assert len(shown) >= 10 and all(b.startswith(a) and a != b for a, b in zip(shown, shown[1:]))
    assert 1 <= len(fast) <= 2  # a burst: the first piece, then at most one more
    assert {e.field for e in slow} == {"final_summary"}


def test_a_text_answer_is_shown_and_unshown_stages_send_nothing_from_arguments() -> None:
    answer = relay_run("classic", [("text", "The answer "), ("text", "is 42.")], 0.06)
    assert [(e.field, e.text) for e in answer] == [("text", "The answer "),
                                                   ("text", "The answer is 42.")]
    assert relay_run("classic", [("arguments", '{"path": "a.md"}')], 0.06) == []


def test_progress_events_round_trip() -> None:
    event = StageDelta(stage="judge", field="user_summary", text="half of it")
    assert from_dict(to_dict(event)) == event


def test_a_scripted_reply_streams_its_text_and_arguments_in_pieces() -> None:
    replies = [{"tool": "judge_tasks", "arguments": {"user_summary": "All good."},
                "text": "ok", "stream": {"piece": 3}}, {"text": "whole"}]
    model = ScriptedModel(replies)
    assert model.capabilities.streams and not ScriptedModel([{"text": "x"}]).capabilities.streams
    pieces: list[tuple[str, str]] = []

    async def go() -> None:
        options = CallOptions(on_delta=lambda kind, piece: pieces.append((kind, piece)))
        first = await model.complete([], [], None, options)
        assert first.tool_calls[0].arguments == json.dumps({"user_summary": "All good."})
        await model.complete([], [], None, options)

    asyncio.run(go())
    assert pieces[0] == ("text", "ok")
    assert "".join(p for k, p in pieces if k == "arguments") == '{"user_summary": "All good."}'
    assert all(len(p) <= 3 for _, p in pieces)


@pytest.mark.parametrize("stream", ["yes", {"piece": 0}, {"chunk": 4}])
def test_a_bad_stream_option_is_refused(stream: object) -> None:
    with pytest.raises(ScriptError, match="stream"):
        ScriptedModel([{"text": "x", "stream": stream}])
