"""The endpoint probe decides by the protocol (core/llm/probe.py): a forced call whose
arguments fit the schema is honoured whatever value it holds; the value is reported apart."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from core.llm.probe import PROBE_TOOL, ProbeResult, probe, probe_stored, probes_path, stored
from core.llm.scripted import ScriptedModel

PROSE = {"text": "Sure, blue it is!"}


def call(color: str) -> dict[str, Any]:
    return {"tool": PROBE_TOOL, "arguments": {"color": color}}


def run_probe(replies: list[dict[str, Any]], every: bool = True) -> ProbeResult:
    return asyncio.run(probe(ScriptedModel(replies), every=every))


def test_a_forced_call_with_a_wrong_value_honours_the_strategy_and_is_reported_unanswered(
        ) -> None:
    result = run_probe([call("red")] * 2 + [{"text": '{"color": "green"}'},
                                             {"text": json.dumps({"name": PROBE_TOOL,
                                                                  "arguments": {"color": "red"}})}])
    assert result.chosen == "named"
    assert result.honoured == dict.fromkeys(("named", "required", "json_schema", "prompted"), True)
    assert result.answered == dict.fromkeys(("named", "required", "json_schema", "prompted"),
                                            False)
    assert result.detail["named"] == "honoured (it recorded 'red' instead of 'blue')"
    assert "answered right: named ✗" in result.describe()


def test_arguments_outside_the_schema_do_not_honour_it() -> None:
    result = run_probe([call("purple"), {"tool": PROBE_TOOL, "arguments": {"shade": "blue"}},
                        {"text": '{"color": "blue"}'}], every=False)
    assert result.honoured == {"named": False, "required": False, "json_schema": True}
    assert "'purple' is not one of" in result.detail["named"]
    assert "missing required field 'color'" in result.detail["required"]
    assert result.chosen == "json_schema"
    assert result.answered == {"json_schema": True}  # no value to judge in the other two


def test_when_nothing_is_honoured_runs_start_on_named() -> None:
    result = run_probe([PROSE] * 4)
    assert result.honoured == dict.fromkeys(("named", "required", "json_schema", "prompted"),
                                            False)
    assert result.chosen == "named"
    assert "no strategy held in the probe" in result.describe()


def test_when_nothing_is_honoured_on_a_server_without_tools_runs_start_on_json_schema() -> None:
    refused = {"error": {"status": 400, "message": "Unsupported param: tools"}}
    result = run_probe([refused, PROSE, PROSE])
    assert result.tools is False
    assert result.honoured == dict.fromkeys(("named", "required", "json_schema", "prompted"),
                                            False)
    assert result.chosen == "json_schema"


def test_a_stored_result_keeps_the_answers_and_when_it_was_probed(isolated_home: Path) -> None:
    model = ScriptedModel([call("red")])
    found = asyncio.run(probe_stored(model))
    entry = json.loads(probes_path().read_text())[" scripted"]
    assert entry["answered"] == {"named": False} and entry["probed_at"] == found.probed_at
    again = stored("", "scripted")
    assert again is not None and again.chosen == "named" and again.answered == {"named": False}
    assert again.when().endswith(" UTC") and again.when()[:4].isdigit()
