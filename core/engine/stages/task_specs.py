"""Planned tasks as the model writes them: their schema, and the repair of imperfect plans.

A task's ``arguments`` are constrained by its ``tool`` when the tools' parameter schemas
are known: the task schema becomes an ``anyOf`` with one branch per tool, so that a
grammar-constrained model writes the right argument names for the tool it picked. The
branches are compact (no descriptions: the tool catalogue in the system prompt has them).

A plan written by a small model is kept as far as it is usable: a task that does not fit
is dropped, an unknown extra argument is dropped, duplicate ids are renumbered, exact
repeats of a task are dropped, unknown dependencies and dependency cycles are removed. Each repair is a note the engine shows
as a Notice; only a plan with no usable task at all is an error.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Callable, Mapping

from core.engine.execution.scheduler import find_cycle
from core.shapes.stage_results import TaskSpec, from_fields
from core.schema import SchemaError, coerce

MAX_TASKS = 8
Check = Callable[[str, dict[str, Any]], Any]
KEEP = ("type", "enum", "items", "properties", "required", "additionalProperties")


def _int(low: int, high: int, description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer", "minimum": low, "maximum": high}
    if description:
        schema["description"] = description
    return schema


def _text(most: int, description: str) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "maxLength": most}
    if description:
        schema["description"] = description
    return schema


def _task_fields(tool: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {
        "id": _int(1, 99, "Unique in the plan; default: its position (1, 2, ...)."),
        "tool": tool,
        "arguments": arguments,
        "title": _text(60, "Short title; default: tool and first argument."),
        "description": _text(200, "Why, if not obvious."),
        "priority": _int(1, 10, "10 = most important; default 5."),
        "dependencies": _ids("Ids of tasks of this plan to finish first; an argument \"$N\" "
                             "is task N's whole result text."),
    }, "required": ["tool", "arguments"]}


def _ids(description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "array", "maxItems": MAX_TASKS, "items": _int(1, 99)}
    if description:
        schema["description"] = description
    return schema


def _branch(name: str, parameters: dict[str, Any]) -> dict[str, Any]:
    """One tool's task, only what a task needs: the id is its position, and title,
    description and priority have defaults (repeated in every branch they would cost each
    plan call)."""
    return {"type": "object", "properties": {
        "tool": {"enum": [name]}, "arguments": arguments_schema(parameters),
        "dependencies": {"type": "array", "items": {"type": "integer"}},
    }, "required": ["tool", "arguments"]}


def generic_task_schema(tool_names: list[str]) -> dict[str, Any]:
    """One planned task with ``tool`` an enum of the tools and free-form arguments."""
    return _task_fields({"type": "string", "enum": list(tool_names)},
                        {"type": "object", "maxProperties": 6,
                         "description": "The tool's arguments."})


def lean_task_schema(tool_names: list[str]) -> dict[str, Any]:
    """A task as the judge's next tasks and the phase planner's first tasks offer it: the
    tool, its arguments and dependencies; id, title, description and priority have
    defaults, so they are not offered (their descriptions would cost every such call)."""
    return {"type": "object", "description": "A task; its id is its position. "
            "dependencies: ids to finish first; an argument \"$N\" is task N's whole result "
            "text.",
            "properties": {"tool": {"type": "string", "enum": list(tool_names)},
                           "arguments": {"type": "object", "maxProperties": 6},
                           "dependencies": _ids()},
            "required": ["tool", "arguments"]}


def compact(schema: dict[str, Any]) -> dict[str, Any]:
    """A parameter schema without descriptions, defaults or anything a decoder needs not."""
    out: dict[str, Any] = {k: copy.deepcopy(v) for k, v in schema.items()
                           if k in KEEP and k not in ("items", "properties") and v != []}
    if isinstance(schema.get("items"), dict):
        out["items"] = compact(schema["items"])
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {name: compact(sub) if isinstance(sub, dict) else {}
                             for name, sub in schema["properties"].items()}
    return out


def arguments_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """A tool's parameters as the plan schema offers them; a schema this engine cannot
    express compactly (references, alternatives) is offered as any object."""
    text = repr(parameters)
    if any(word in text for word in ("$ref", "anyOf", "oneOf", "allOf")):
        return {"type": "object"}
    schema = compact(parameters)
    schema["type"] = "object"
    schema.setdefault("properties", {})
    return schema


def task_schema(tool_names: list[str],
                parameters: Mapping[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """One planned task: with ``parameters``, an ``anyOf`` keyed by tool whose branch
    constrains ``arguments`` to that tool's parameters; otherwise the generic task."""
    if not parameters:
        return lean_task_schema(tool_names)
    return {"description": "A task; its id is its position. dependencies: ids to finish "
                           "first; an argument \"$N\" is task N's result.",
            "anyOf": [_branch(name, parameters[name]) for name in tool_names
                      if name in parameters]}


def checked_tasks(tasks: Any, where: str, tool_names: list[str], check: Check,
                  notes: list[str], allow_empty: bool = True) -> tuple[TaskSpec, ...]:
    """The usable tasks with defaults filled in; every repair is appended to ``notes``.

    Raises ``SchemaError`` only when tasks were given and none of them is usable.
    """
    if not isinstance(tasks, list):
        raise SchemaError(f"{where}: expected an array, got {type(tasks).__name__}")
    kept: list[dict[str, Any]] = []
    first_error = ""
    schema = generic_task_schema(tool_names)
    for i, raw in enumerate(tasks):
        try:
            task = coerce(raw, schema, f"{where}[{i}]")
            task.setdefault("id", i + 1)
            task["arguments"] = _arguments(task, check, f"{where}[{i}]", notes)
        except SchemaError as exc:
            first_error = first_error or str(exc)
            notes.append(f"dropped task {i + 1} of the plan: {exc}")
            continue
        kept.append(task)
    if tasks and not kept:
        raise SchemaError(first_error)
    if not tasks and not allow_empty:
        raise SchemaError(f"{where}: at least 1 items required, got 0")
    _unique_ids(kept, notes)
    kept = _merged_writes(_without_duplicates(kept, notes), notes)
    for task in kept:
        task.setdefault("title", default_title(task["tool"], task["arguments"]))
        task.setdefault("description", "")
        task.setdefault("priority", 5)
        task.setdefault("dependencies", [])
    repair_dependencies({t["id"]: t["dependencies"] for t in kept}, "task", notes)
    return tuple(from_fields(TaskSpec, task) for task in kept)


def _arguments(task: dict[str, Any], check: Check, where: str, notes: list[str]
               ) -> dict[str, Any]:
    tool, arguments = task["tool"], task["arguments"]
    try:
        result = check(tool, arguments)
    except SchemaError as exc:
        unknown = _unknown_field(str(exc))
        if not unknown or unknown not in arguments:
            raise SchemaError(f"{where} ({tool}): {exc}") from None
        notes.append(f"task {task['id']} ({tool}): dropped the unknown argument "
                     f"'{unknown}'")
        trimmed = {k: v for k, v in arguments.items() if k != unknown}
        return _arguments({**task, "arguments": trimmed}, check, where, notes)
    return result if isinstance(result, dict) else arguments


def _unknown_field(message: str) -> str:
    marker = "unknown field '"
    if marker not in message:
        return ""
    return message.split(marker, 1)[1].split("'", 1)[0]


def _unique_ids(tasks: list[dict[str, Any]], notes: list[str]) -> None:
    seen: set[int] = set()
    for task in tasks:
        if task["id"] in seen:
            new = max(seen | {t["id"] for t in tasks}) + 1
            notes.append(f"task id {task['id']} was used twice; the second is task {new}")
            task["id"] = new
        seen.add(task["id"])


def _without_duplicates(tasks: list[dict[str, Any]], notes: list[str]) -> list[dict[str, Any]]:
    """The tasks with exact repeats (same tool, same arguments) dropped; whatever waited for
    a repeat waits for the task it repeats."""
    first: dict[str, int] = {}
    same: dict[int, int] = {}
    kept = []
    for task in tasks:
        key = json.dumps([task["tool"], task["arguments"]], sort_keys=True, default=str)
        if key in first:
            same[task["id"]] = first[key]
            notes.append(f"task {task['id']} repeats task {first[key]} exactly; dropped")
            continue
        first[key] = task["id"]
        kept.append(task)
    for task in kept:
        deps = task.get("dependencies", [])
        task["dependencies"] = list(dict.fromkeys(same.get(d, d) for d in deps))
    return kept


def _merged_writes(tasks: list[dict[str, Any]], notes: list[str]) -> list[dict[str, Any]]:
    """Writes of one file by instruction become one write holding every instruction: each
    authored write rewrites the whole file, so two would cost two calls and the second would
    only redo the first; whatever waited for a merged task waits for the one it joined."""
    first: dict[str, dict[str, Any]] = {}
    same: dict[int, int] = {}
    kept = []
    for task in tasks:
        arguments = task["arguments"]
        authored = task["tool"] == "write_file" and "instruction" in arguments \
            and "content" not in arguments
        path = str(arguments.get("path", "")).strip().lstrip("./") if authored else ""
        if path and path in first:
            joined = first[path]
            joined["arguments"]["instruction"] += "\n" + str(arguments["instruction"])
            same[task["id"]] = joined["id"]
            joined.setdefault("dependencies", []).extend(task.get("dependencies", []))
            notes.append(f"tasks {joined['id']} and {task['id']} both write {path}: merged "
                         f"into task {joined['id']}")
            continue
        if path:
            first[path] = task
        kept.append(task)
    for task in kept:
        deps = [same.get(d, d) for d in task.get("dependencies", [])]
        task["dependencies"] = [d for d in dict.fromkeys(deps) if d != task["id"]]
    return kept


def repair_dependencies(graph: dict[int, list[int]], noun: str, notes: list[str]) -> None:
    """Remove unknown ids, self-references and cycles from ``graph`` in place."""
    for node, deps in graph.items():
        bad = [d for d in deps if d not in graph or d == node]
        if bad:
            notes.append(f"{noun} {node}: removed unknown dependency id(s) {bad}")
            deps[:] = [d for d in deps if d in graph and d != node]
    while True:
        cycle = find_cycle(graph)
        if not cycle:
            return
        order = list(graph)
        edges = list(zip(cycle, cycle[1:]))  # (a, b): a waits for b
        waiter, awaited = next(((a, b) for a, b in edges if order.index(b) > order.index(a)),
                               edges[-1])  # prefer the edge that waits for a later one
        graph[waiter].remove(awaited)
        notes.append(f"{noun} dependency cycle {' → '.join(map(str, cycle))}: {noun} {waiter} "
                     f"no longer waits for {noun} {awaited}")


def default_title(tool: str, arguments: dict[str, Any]) -> str:
    first = next((str(v) for v in arguments.values() if isinstance(v, (str, int, float))), "")
    first = " ".join(first.split())
    return f"{tool} {first}"[:60].strip()
