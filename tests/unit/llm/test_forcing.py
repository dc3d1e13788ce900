"""What each forcing strategy sends and how it reads a reply back (core/llm/forcing.py,
forcing_text.py, text_calls.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.llm.base import ModelError, Reply, ToolCall
from core.llm.forcing import Forcing, stage_max_tokens
from core.llm.text_calls import (broken_call, calls_in_text, rejects_tools, repaired_call,
                                 stage_arguments)

PARAMETERS = {"type": "object", "properties": {"goal": {"type": "string", "maxLength": 50}},
              "required": ["goal"]}
DEFINITION = {"type": "function", "function": {"name": "analyse", "description": "Analyse.",
                                               "parameters": PARAMETERS}}
HISTORY: list[dict[str, Any]] = [
    {"role": "system", "content": "You are an agent."},
    {"role": "user", "content": "Do it."},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": "earlier", "arguments": '{"a": 1}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "Recorded."},
]
CALL = '{"name": "analyse", "arguments": {"goal": "ship it"}}'


@pytest.mark.parametrize("text", [
    f"```json\n{CALL}\n```", f"<tool_call>\n{CALL}\n</tool_call>", "{" + CALL + "}", CALL,
    f"Sure, here it is: {CALL} — done.",
    '{"function": {"name": "analyse", "arguments": "{\\"goal\\": \\"ship it\\"}"}}',
])
def test_every_written_form_of_a_call_is_read(text: str) -> None:
    assert calls_in_text(text, {"analyse"}) == (
        ToolCall(id="text_call_0", name="analyse", arguments='{"goal": "ship it"}'),)
    assert stage_arguments(text, "analyse") == {"goal": "ship it"}


def test_text_without_a_call_of_a_known_tool_gives_none() -> None:
    assert calls_in_text("I think {this} is fine.", {"analyse"}) == ()
    assert calls_in_text('{"name": "rm_rf", "arguments": {}}', {"analyse"}) == ()
    assert stage_arguments('{"name": "other", "arguments": {}}', "analyse") is None
    assert stage_arguments('Plain {"goal": "x"}', "analyse") == {"goal": "x"}


def test_named_and_required_offer_the_one_tool_with_a_bound() -> None:
    named = Forcing("named").stage_request(HISTORY, DEFINITION)
    assert named.tools == [DEFINITION] and named.messages == HISTORY
    assert named.tool_choice == {"type": "function", "function": {"name": "analyse"}}
    assert named.options.max_tokens == stage_max_tokens(PARAMETERS) == 512
    required = Forcing("required").stage_request(HISTORY, DEFINITION)
    assert required.tool_choice == "required" and required.tools == [DEFINITION]


@pytest.mark.parametrize("strategy", ["json_schema", "prompted"])
def test_no_tools_strategies_send_a_history_without_tool_turns(strategy: str) -> None:
    out = Forcing(strategy).stage_request(HISTORY, DEFINITION)
    assert out.tools == [] and out.tool_choice is None
    assert [m["role"] for m in out.messages] == ["system", "user", "assistant", "user"]
    assert all(set(m) == {"role", "content"} for m in out.messages)
    assert json.loads(out.messages[2]["content"]) == {"name": "earlier", "arguments": {"a": 1}}
    assert out.messages[3]["content"].startswith("Result of earlier:\nRecorded.")
    assert "`analyse`" in out.messages[3]["content"]
    form = out.options.response_format
    if strategy == "json_schema":
        assert form == {"type": "json_schema",
                        "json_schema": {"name": "analyse", "schema": PARAMETERS}}
    else:
        assert form is None


def test_json_schema_reads_the_content_as_the_arguments() -> None:
    read = Forcing("json_schema").read_stage(Reply(text='{"goal": "x"}'), "analyse")
    assert read.call is not None and read.call.arguments == '{"goal": "x"}' and read.honoured


def test_a_reply_cut_at_its_token_limit_is_invalid() -> None:
    cut = Reply(text=CALL + "\n" * 50, finish_reason="length")
    read = Forcing("named").read_stage(cut, "analyse")
    assert read.call is None and "cut off" in read.problem and not read.honoured


def test_two_ignored_replies_in_a_row_step_down_once() -> None:
    said: list[tuple[str, str]] = []
    forcing = Forcing("named", notify=lambda level, message: said.append((level, message)))
    text = Reply(text=CALL)
    first = forcing.read_stage(text, "analyse")
    assert first.call is not None and not first.honoured and forcing.strategy == "named"
    forcing.read_stage(Reply(text=None, tool_calls=(ToolCall("c", "analyse", "{}"),)), "analyse")
    forcing.read_stage(text, "analyse")
    assert forcing.strategy == "named"
    forcing.read_stage(text, "analyse")
    assert forcing.strategy == "required" and len(said) == 1 and said[0][0] == "warning"
    for _ in range(6):
        forcing.read_stage(Reply(text="no call here"), "analyse")
    assert forcing.strategy == "prompted" and len(said) == 3


def test_a_server_refusing_tools_gets_free_calls_described_in_words() -> None:
    forcing = Forcing("named")
    assert not forcing.refused(ModelError("HTTP 500: upstream crashed", status=500))
    assert forcing.refused(ModelError("Unsupported param: tools", status=400))
    assert forcing.strategy == "json_schema"
    tools = [DEFINITION]
    out = forcing.auto_request(HISTORY, tools)
    assert out.tools == [] and "You can call these functions" in out.messages[0]["content"]
    reply = forcing.read_auto(Reply(text=f"```json\n{CALL}\n```"), tools)
    assert [c.name for c in reply.tool_calls] == ["analyse"] and reply.text is None


def test_tools_refusals_are_told_from_other_errors() -> None:
    assert rejects_tools(400, "Unsupported param: tools")
    assert rejects_tools(500, "model llama3 does not support tools")
    assert not rejects_tools(400, "messages with role 'tool' must answer tool_calls")
    assert not rejects_tools(None, "tools")


SEARCH = {"type": "function", "function": {"name": "search_code", "parameters": {
    "type": "object", "properties": {"pattern": {"type": "string"}, "glob": {"type": "string"}},
    "required": ["pattern"]}}}
READ = {"type": "function", "function": {"name": "read_file", "parameters": {
    "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}


def test_a_call_written_as_prose_is_read_when_it_is_unambiguous() -> None:
    """The 1.5B Qwen on llama-server, asked to make the call its reply only named."""
    said = ('To use the search_code function, call it with the arguments '
            '{"pattern": "negative amount", "glob": "*.py"}.')
    reply = Forcing("named").read_auto(Reply(text=said), [SEARCH, READ])
    assert reply.text is None and [(c.name, json.loads(c.arguments)) for c in
                                   reply.tool_calls] == [
        ("search_code", {"pattern": "negative amount", "glob": "*.py"})]
    for text in ['search_code or read_file with {"pattern": "x"}',  # two tools named
                 'search_code with {"pattern": "x", "path": "."}',  # a key it does not take
                 'search_code with {"glob": "*.py"}',  # its required key missing
                 'search_code with {"pattern": "x"} and {"pattern": "y"}',  # two objects
                 'The config holds {"pattern": "x"}.']:  # no tool named
        assert Forcing("named").read_auto(Reply(text=text), [SEARCH, READ]).tool_calls == (), \
            text


def test_a_call_written_as_json_that_cannot_be_read_is_told_apart() -> None:
    unescaped = ('```json\n{"name": "write_file", "arguments": {"path": "a.py", '
                 '"instruction": "split at delimiter=",""}}\n```')
    assert broken_call(unescaped, ["write_file"]) == (
        "write_file", "Expecting ':' delimiter: line 2 column 93 (char 100)")
    assert broken_call(unescaped, ["read_file"]) is None  # not an offered tool
    valid = '{"name": "write_file", "arguments": {"path": "a.py", "instruction": "x"}}'
    assert broken_call(valid, ["write_file"]) is None  # read as a call instead
    assert broken_call("I will use write_file now.", ["write_file"]) is None
    assert broken_call(unescaped + "\n" + valid, ["write_file"]) is None


WRITE_TOOL = {"type": "function", "function": {"name": "write_file", "parameters": {
    "type": "object", "properties": {"path": {"type": "string"}, "instruction": {"type": "string"}},
    "required": ["path", "instruction"]}}}


def test_a_call_broken_by_an_inner_quote_is_read_only_when_it_stays_a_call_of_that_tool(
        ) -> None:
    inner = ('```json\n{"name": "write_file", "arguments": {"path": "csvline.py", '
             '"instruction": "split at delimiter=",") in csvline.py"}}\n```')
    call = repaired_call(inner, [WRITE_TOOL], "c1")
    assert call is not None and call.name == "write_file" and call.id == "c1"
    assert json.loads(call.arguments)["path"] == "csvline.py"
    many = ('{"name": "write_file", "arguments": {"path": "p.py", "instruction": "raise it '
            'as in E(["too short", "no digit"]). Its message is \'weak: too short\'. Check: 1. '
            '"too short" - fewer."}}')  # read with keys write_file does not take
    assert broken_call(many, ["write_file"]) is not None and \
        repaired_call(many, [WRITE_TOOL]) is None
    no_path = '{"name": "write_file", "arguments": {"instruction": "a "b" c"}}'
    assert repaired_call(no_path, [WRITE_TOOL]) is None  # a required parameter is missing
    valid = '{"name": "write_file", "arguments": {"path": "a.py", "instruction": "x"}}'
    assert repaired_call(valid, [WRITE_TOOL]) is None  # nothing to repair: read as it is
