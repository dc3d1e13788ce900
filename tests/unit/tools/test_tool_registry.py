"""The registry: derived schemas, argument validation, and failures turned into results."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from tool_harness import Harness

from core.tools import ToolRegistry, default_registry, tool
from core.tools.base import ToolContext, ToolError, ToolResult
from core.tools.registry import Limit
from tests.support.log_guard import ExpectedWarning

SNAPSHOT = Path(__file__).with_name("tool_schemas.snapshot.json")


@tool(writes="target")
async def sample(ctx: ToolContext, target: str, count: Annotated[int, Limit(1, 10)] = 3,
                 mode: Literal["fast", "slow"] = "fast", ratio: float | None = None,
                 loud: bool = False) -> str:
    """Do a sample thing.

    More detail about the sample.

    Args:
        target: Where to do it;
            continued on a second line.
        count (int): How often.
        mode: How quickly.
        ratio: A fraction.
        loud: Whether to shout.

    Returns:
        A description.
    """
    return f"{target} {count} {mode} {ratio} {loud}"


@tool
async def explode(ctx: ToolContext) -> str:
    """Fail in an unexpected way.

    Args:
    """
    raise KeyError("boom")


@tool
async def refuse(ctx: ToolContext) -> str:
    """Fail in an expected way."""
    raise ToolError("not today")


@tool
async def hang(ctx: ToolContext) -> str:
    """Wait forever."""
    await asyncio.sleep(3600)
    return "never"


def _registry() -> ToolRegistry:
    return ToolRegistry([sample, explode, refuse, hang])


def _call(harness: Harness, name: str, arguments: Any) -> ToolResult:
    return asyncio.run(_registry().execute(name, arguments, harness.ctx()))


def test_schema_is_derived_from_hints_and_docstring() -> None:
    assert sample.schema() == {"type": "function", "function": {
        "name": "sample",
        "description": "Do a sample thing. More detail about the sample.",
        "parameters": {
            "type": "object",
            "properties": {
                "target": {"type": "string",
                           "description": "Where to do it; continued on a second line."},
                "count": {"type": "integer", "description": "How often.", "minimum": 1,
                          "maximum": 10, "default": 3},
                "mode": {"type": "string", "description": "How quickly.",
                         "enum": ["fast", "slow"], "default": "fast"},
                "ratio": {"type": "number", "description": "A fraction."},
                "loud": {"type": "boolean", "description": "Whether to shout.",
                         "default": False},
            },
            "required": ["target"],
            "additionalProperties": False,
        }}}


def test_valid_arguments_are_coerced_and_defaults_applied(harness: Harness) -> None:
    result = _call(harness, "sample", {"target": "t", "count": "50", "ratio": None})
    assert result == ToolResult(ok=True, output="t 10 fast None False")


@pytest.mark.parametrize(("arguments", "error"), [
    ({}, "invalid arguments for sample: missing required field 'target'"),
    ({"target": 5}, "invalid arguments for sample: target: expected a string, got a number"),
    ({"target": "t", "mode": "medium"},
     "invalid arguments for sample: mode: 'medium' is not one of 'fast', 'slow'"),
    ({"target": "t", "loud": "yes"},
     "invalid arguments for sample: loud: expected true or false, got a string"),
    ({"target": "t", "colour": "red"}, "invalid arguments for sample: unknown field 'colour'"),
    ("target=t", "invalid arguments for sample: expected an object, got a string"),
])
def test_invalid_arguments_fail_clearly(harness: Harness, arguments: object, error: str
                                        ) -> None:
    assert _call(harness, "sample", arguments) == ToolResult(ok=False, error=error)


def test_too_long_strings_are_refused_not_cut(harness: Harness) -> None:
    result = harness.call("write_file", path="a.txt", content="x" * 200_001)
    assert result.error == ("invalid arguments for write_file: 'content' is too long "
                            "(200,001 characters; at most 200,000)")
    assert not (harness.workspace / "a.txt").exists()


def test_unknown_tool(harness: Harness) -> None:
    result = _call(harness, "delete_everything", {})
    assert result == ToolResult(ok=False, error="unknown tool 'delete_everything'; available "
                                                "tools: sample, explode, refuse, hang")


def test_tool_errors_and_unexpected_exceptions_become_failed_results(
        harness: Harness, expect_warning: Callable[..., ExpectedWarning]) -> None:
    crash = expect_warning("tool explode raised", count=1)
    assert _call(harness, "refuse", {}) == ToolResult(ok=False, error="not today")
    assert crash.records == []
    assert _call(harness, "explode", {}) == ToolResult(
        ok=False, error="explode failed unexpectedly: KeyError: 'boom'")
    assert crash.records[0].exc_info is not None  # the unexpected crash is logged with its trace


def test_cancellation_is_not_swallowed(harness: Harness) -> None:
    async def scenario() -> None:
        task = asyncio.create_task(_registry().execute("hang", {}, harness.ctx()))
        await asyncio.sleep(0.01)
        task.cancel()
        await task

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(scenario())


def test_written_paths() -> None:
    registry = default_registry()
    assert registry.written_paths("write_file", {"path": "./src//a.py", "content": ""}) == {
        "src/a.py"}
    assert registry.written_paths("edit_file", {"path": "b.txt"}) == {"b.txt"}
    assert registry.written_paths("read_file", {"path": "b.txt"}) == set()
    assert registry.written_paths("run_command", {"command": "rm -rf x"}) == set()
    assert registry.written_paths("nope", {"path": "b.txt"}) == set()


def test_parameters_and_names() -> None:
    registry = default_registry()
    assert registry.names() == ["list_files", "read_file", "search_code", "write_file",
                                "edit_file", "run_command"]
    assert registry.parameters("read_file")["required"] == ["path"]
    with pytest.raises(KeyError, match="unknown tool 'nope'"):
        registry.parameters("nope")


def test_declaration_mistakes_are_caught_early() -> None:
    async def no_doc(ctx: ToolContext, x: str) -> str:
        return x

    async def undocumented(ctx: ToolContext, x: str) -> str:
        """Something."""
        return x

    def not_async(ctx: ToolContext) -> str:
        """Something."""
        return ""

    async def listy(ctx: ToolContext, x: list[str]) -> str:
        """Something.

        Args:
            x: Things.
        """
        return ""

    for function, message in [(no_doc, "needs a docstring"),
                              (undocumented, "parameter x is not described"),
                              (not_async, "must be an async function"),
                              (listy, "unsupported parameter type")]:
        with pytest.raises(TypeError, match=message):
            tool(function)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="duplicate tool name"):
        ToolRegistry([sample, sample])


def test_schema_snapshot() -> None:
    current = json.dumps(default_registry().schemas(), indent=2, ensure_ascii=False) + "\n"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(current, encoding="utf-8")
    assert SNAPSHOT.read_text(encoding="utf-8") == current, (
        "tool schemas changed; if intended, rerun with UPDATE_SNAPSHOTS=1 and commit "
        f"{SNAPSHOT.name}")
