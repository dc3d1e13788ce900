"""Tools are typed async functions; the registry derives their schemas and runs them safely.

A tool is an ``async def`` whose first parameter is the ``ToolContext`` and whose other
parameters are typed (str, int, float, bool, ``X | None``, ``Literal[...]``, optionally
wrapped in ``Annotated[..., Limit(...)]``) and described in a Google-style docstring::

    @tool(writes="path")
    async def write_file(ctx: ToolContext, path: PathArg, content: str) -> str:
        \"\"\"Write a text file.

        Args:
            path: File to write, relative to the workspace.
            content: The complete new content.
        \"\"\"

The text before ``Args:`` becomes the description. A tool returns its output text (or a
``ToolResult`` when it needs to fail with output) and raises ``ToolError`` for expected
failures. ``ToolRegistry.execute`` turns every failure into a failed ``ToolResult``.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
import types
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints, overload

from core.events import Event
from core.schema import SchemaError, coerce
from core.tools.base import ToolContext, ToolError, ToolResult
from core.tools.paths import path_key

log = logging.getLogger(__name__)

ToolFunction = Callable[..., Awaitable["str | ToolResult"]]


@dataclass(frozen=True)
class Limit:
    """Bounds of one parameter: a range for numbers, a length range for strings."""

    minimum: int | None = None
    maximum: int | None = None
    min_length: int | None = None
    max_length: int | None = None


PathArg = Annotated[str, Limit(min_length=1, max_length=500)]

_SECTION = re.compile(r"^(Args|Arguments|Returns|Raises|Yields|Examples?|Notes?):[ \t]*$",
                      re.MULTILINE)
_SCALARS: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]
    function: ToolFunction
    writes: tuple[str, ...] = ()

    def schema(self) -> dict[str, Any]:
        return {"type": "function", "function": {
            "name": self.name, "description": self.description, "parameters": self.parameters}}

    def __call__(self, ctx: ToolContext, **arguments: Any) -> Awaitable[str | ToolResult]:
        return self.function(ctx, **arguments)


@overload
def tool(function: ToolFunction) -> Tool: ...


@overload
def tool(*, writes: str | tuple[str, ...] = ()) -> Callable[[ToolFunction], Tool]: ...


def tool(function: ToolFunction | None = None, *, writes: str | tuple[str, ...] = ()
         ) -> Tool | Callable[[ToolFunction], Tool]:
    """Declare a tool; ``writes`` names the parameters holding paths the tool writes."""
    written = (writes,) if isinstance(writes, str) else tuple(writes)

    def build(fn: ToolFunction) -> Tool:
        if not inspect.iscoroutinefunction(fn):
            raise TypeError(f"tool {fn.__name__} must be an async function")
        description, parameters = _derive(fn)
        unknown = set(written) - set(parameters["properties"])
        if unknown:
            raise TypeError(f"tool {fn.__name__}: writes names unknown parameters {unknown}")
        return Tool(fn.__name__, description, parameters, fn, written)

    return build(function) if function is not None else build


def _derive(fn: ToolFunction) -> tuple[str, dict[str, Any]]:
    description, documented = _parse_docstring(inspect.getdoc(fn) or "")
    if not description:
        raise TypeError(f"tool {fn.__name__} needs a docstring")
    hints = get_type_hints(fn, include_extras=True)
    signature = inspect.signature(fn)
    names = list(signature.parameters)
    if not names or names[0] != "ctx":
        raise TypeError(f"tool {fn.__name__}: the first parameter must be ctx")
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name in names[1:]:
        parameter = signature.parameters[name]
        if name not in documented:
            raise TypeError(f"tool {fn.__name__}: parameter {name} is not described under Args:")
        derived = _property(hints[name], f"{fn.__name__}.{name}")
        prop = {"type": derived.pop("type"), "description": documented[name], **derived}
        if parameter.default is inspect.Parameter.empty:
            required.append(name)
        elif parameter.default is not None:
            prop["default"] = parameter.default
        properties[name] = prop
    schema = {"type": "object", "properties": properties, "required": required,
              "additionalProperties": False}
    return description, schema


def _property(hint: Any, where: str) -> dict[str, Any]:
    limit = Limit()
    if get_origin(hint) is Annotated:
        hint, *extras = get_args(hint)
        limit = next((extra for extra in extras if isinstance(extra, Limit)), limit)
    if get_origin(hint) in (Union, types.UnionType):
        options = [arg for arg in get_args(hint) if arg is not type(None)]
        if len(options) != 1:
            raise TypeError(f"{where}: only 'X | None' unions are supported")
        return _property(Annotated[options[0], limit], where)
    if get_origin(hint) is Literal:
        values = list(get_args(hint))
        kinds = {_SCALARS.get(type(value)) for value in values}
        if len(kinds) != 1 or None in kinds:
            raise TypeError(f"{where}: Literal values must share one scalar type")
        return {"type": kinds.pop(), "enum": values}
    if hint not in _SCALARS:
        raise TypeError(f"{where}: unsupported parameter type {hint!r}")
    prop: dict[str, Any] = {"type": _SCALARS[hint]}
    bounds = {"minimum": limit.minimum, "maximum": limit.maximum,
              "minLength": limit.min_length, "maxLength": limit.max_length}
    prop.update({key: value for key, value in bounds.items() if value is not None})
    return prop


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """(description, {parameter: description}) from a Google-style docstring."""
    head, *rest = _SECTION.split(doc, maxsplit=1)
    section = rest[-1] if rest and rest[0] in ("Args", "Arguments") else ""
    params: dict[str, str] = {}
    base: int | None = None
    current = ""
    for line in section.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            break
        base = indent if base is None else base
        if indent == base:
            name, _, text = line.strip().partition(":")
            current = name.split("(")[0].strip()
            params[current] = text.strip()
        elif current:
            params[current] = f"{params[current]} {line.strip()}"
    return " ".join(head.split()), params


class ToolRegistry:
    """Implements ``ToolManager`` over a fixed list of ``Tool`` objects."""

    def __init__(self, tools: list[Tool]) -> None:
        self._tools: dict[str, Tool] = {}
        for item in tools:
            if item.name in self._tools:
                raise ValueError(f"duplicate tool name: {item.name}")
            self._tools[item.name] = item

    async def open(self, emit: Callable[[Event], None]) -> None:
        """Nothing to start: these tools live in the process."""

    async def close(self) -> None:
        """Nothing to stop."""

    def names(self) -> list[str]:
        return list(self._tools)

    def schemas(self) -> list[dict[str, Any]]:
        return [item.schema() for item in self._tools.values()]

    def parameters(self, name: str) -> dict[str, Any]:
        if name not in self._tools:
            raise KeyError(self._unknown(name))
        return self._tools[name].parameters

    def written_paths(self, name: str, arguments: dict[str, Any]) -> set[str]:
        """Normalised workspace-relative paths; empty when the call writes nothing known."""
        item = self._tools.get(name)
        if item is None or not isinstance(arguments, dict):
            return set()
        return {key for key in (path_key(arguments.get(p)) for p in item.writes) if key}

    def validate(self, name: str, arguments: Any) -> dict[str, Any]:
        """The arguments checked and coerced; raises ``ToolError`` with a readable message."""
        item = self._tools.get(name)
        if item is None:
            raise ToolError(self._unknown(name))
        if isinstance(arguments, dict):
            for key, value in arguments.items():
                most = item.parameters["properties"].get(key, {}).get("maxLength")
                if isinstance(value, str) and most is not None and len(value) > most:
                    raise ToolError(f"invalid arguments for {name}: '{key}' is too long "
                                    f"({len(value):,} characters; at most {most:,})")
        try:
            checked: dict[str, Any] = coerce(arguments, item.parameters)
        except SchemaError as exc:
            message = re.sub(r"^\$\.?", "", str(exc)).lstrip(": ") or str(exc)
            raise ToolError(f"invalid arguments for {name}: {message}") from None
        return checked

    async def execute(self, name: str, arguments: dict[str, Any], ctx: ToolContext
                      ) -> ToolResult:
        """Run one tool. Never raises but ``asyncio.CancelledError``."""
        try:
            checked = self.validate(name, arguments)
            result = await self._tools[name].function(ctx, **checked)
        except asyncio.CancelledError:
            raise
        except ToolError as exc:
            return ToolResult(ok=False, error=str(exc) or f"{name} failed")
        except Exception as exc:
            log.exception("tool %s raised", name)
            return ToolResult(ok=False, error=f"{name} failed unexpectedly: "
                                              f"{type(exc).__name__}: {exc}")
        if isinstance(result, ToolResult):
            return result
        return ToolResult(ok=True, output=str(result))

    def _unknown(self, name: str) -> str:
        return f"unknown tool '{name}'; available tools: {', '.join(self._tools)}"
