"""Property tests: stage parsers, ``coerce`` and the scheduler never fail but as documented.

Values come both as arbitrary JSON and as "almost valid" JSON drawn from the schema with
random damage at any depth, so the deep paths of the validators are exercised too.
"""

from __future__ import annotations

import dataclasses

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.engine.stages import schemas as stages
from core.engine.stages.reading_schema import READING
from core.engine.execution.scheduler import find_cycle, order_phases, schedule
from core.schema import SchemaError, coerce
from core.shapes.stage_results import Analysis
from core.tools import default_registry
from tests.support.script import analysis, judge, phases, plan, task

REGISTRY = default_registry()
NAMES = REGISTRY.names()
PROFILE = settings(max_examples=80, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-10**20, 10**20),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
                    st.sampled_from(["", " ", "²", "٣", "-7", " 12 ", "9" * 5000, "1e3"]))
any_json = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=12), inner, max_size=6)),
    max_leaves=25)


def shaped(schema: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Values mostly shaped like ``schema``; one node in ten (half at the top) is any JSON."""
    kind = schema.get("type")
    if "enum" in schema:
        good: st.SearchStrategy[Any] = st.sampled_from(schema["enum"])
    elif kind == "object":
        required = set(schema.get("required", []))
        fields = {name: shaped(sub, depth + 1)
                  for name, sub in schema.get("properties", {}).items()}
        optional = {n: s for n, s in fields.items() if n not in required}
        good = st.fixed_dictionaries({n: s for n, s in fields.items() if n in required},
                                     optional={**optional, "surplus": any_json})
    elif kind == "array":
        good = st.lists(shaped(schema.get("items", {}), depth + 1),
                        min_size=schema.get("minItems", 0),
                        max_size=schema.get("maxItems", 4) + 1)
    elif kind == "integer":
        low, high = schema.get("minimum", -5), schema.get("maximum", 50)
        good = st.one_of(st.integers(low, high), st.integers(low, high), st.integers(),
                         st.sampled_from([10**15, -1, "7", " 12 ", "²", "9" * 5000, 2.6]))
    elif kind == "number":
        good = st.one_of(st.floats(0, 10), st.floats(allow_nan=True, allow_infinity=True))
    elif kind == "string":
        least, most = schema.get("minLength", 0), schema.get("maxLength", 20)
        good = st.one_of(st.text(min_size=least, max_size=min(most, 30)).filter(
            lambda text: len(text.strip()) >= least), st.just("long " * (most // 5 + 1)))
    elif kind == "boolean":
        good = st.booleans()
    else:
        good = any_json
    return st.one_of(*[good] * 9, any_json) if depth else st.one_of(good, any_json)


def planned_task(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """A plan task whose arguments are shaped by the parameters of the tool it names."""
    task = stages.plan_schema(NAMES)["properties"]["tasks"]["items"]
    fields = {n: shaped(sub, 1) for n, sub in task["properties"].items()}
    fields.update(tool=st.just(name), arguments=shaped(REGISTRY.parameters(name), 1))
    return st.fixed_dictionaries(fields)


plans = st.one_of(
    st.fixed_dictionaries({"reasoning": st.text(max_size=20), "tasks": st.lists(
        st.sampled_from(NAMES).flatmap(planned_task), min_size=1, max_size=9)}),
    shaped(stages.plan_schema(NAMES)))


def check_arguments(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return coerce(arguments, REGISTRY.parameters(tool))


PLAN = stages.plan_schema(NAMES, 8)
PARSERS: dict[str, tuple[dict[str, Any], Callable[[Any], Any]]] = {
    "request_analyser": (stages.REQUEST_ANALYSER, stages.parse_analysis),
    "phase_planner": (stages.PHASE_PLANNER, stages.parse_phases),
    "plan_tool_call": (PLAN, lambda a: stages.parse_plan(a, NAMES, 8, check_arguments)),
    "judge_tasks": (stages.judge_schema(NAMES, 8),
                    lambda a: stages.parse_judge(a, NAMES, 8, check_arguments)),
    "think": (stages.THINK, stages.parse_think),
    "summarizer": (stages.SUMMARIZER, stages.parse_summary),
}


# What a parsed result must fit, where it is not the schema the reply is drawn from: an
# analysis's reading fields are optional (without them the kind is unknown) and kept apart.
RESULT_SCHEMAS = {"request_analyser": stages.ANALYSIS_WITHOUT_READING}


def reading_fits(value: Any) -> None:
    """An analysis's reading: each field it gave fits that field's schema exactly."""
    if isinstance(value, Analysis):
        assert set(value.reading) <= set(READING)
        for key, field in value.reading.items():
            assert coerce(field, READING[key]) == field


def as_dict(value: Any) -> dict[str, Any]:
    """A typed stage result as the JSON its schema describes (repair notes left out; an
    analysis keeps each requirement and its quote apart, one list each, which go back
    together here, pair by pair, and its reading apart: ``reading_fits``)."""
    def plain(item: Any) -> Any:
        if isinstance(item, dict):
            return {k: plain(v) for k, v in item.items() if k != "notes"}
        if isinstance(item, (list, tuple)):
            return [plain(v) for v in item]
        return item
    data: dict[str, Any] = plain(dataclasses.asdict(value))
    if isinstance(value, Analysis):
        del data["reading"]
        data["requirements"] = [{"requirement": r, "quote": q} for r, q in
                                zip(value.requirements, data.pop("quotes"), strict=True)]
    return data


@pytest.mark.parametrize("stage", list(PARSERS))
@PROFILE
@given(data=st.data())
def test_a_stage_parser_returns_a_valid_object_or_a_schema_error(stage: str,
                                                                 data: st.DataObject) -> None:
    schema, parse = PARSERS[stage]
    value = data.draw(plans if stage == "plan_tool_call" else shaped(schema), label="arguments")
    try:
        parsed = parse(value)
    except SchemaError as exc:
        assert str(exc).startswith("$"), str(exc)
        return
    result = as_dict(parsed)
    schema = RESULT_SCHEMAS.get(stage, schema)
    assert coerce(result, schema) == result  # the result fits its schema exactly
    reading_fits(parsed)
    if stage == "phase_planner":
        ids = [p["id"] for p in result["phases"]]
        order = order_phases({p["id"]: p["dependencies"] for p in result["phases"]}, ids)
        assert sorted(order) == sorted(ids) and len(set(ids)) == len(ids)
    if stage == "plan_tool_call":
        assert 1 <= len(result["tasks"]) <= 8
        assert len({t["id"] for t in result["tasks"]}) == len(result["tasks"])
        refused = schedule({t["id"]: t["dependencies"] for t in result["tasks"]}).refused
        assert refused == {}  # unknown ids and cycles are repaired before anything runs
        for entry in result["tasks"]:
            assert coerce(entry["arguments"], REGISTRY.parameters(entry["tool"])) == \
                entry["arguments"]


def with_value(reply: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    arguments = reply["arguments"]
    target = arguments
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return arguments


HOSTILE = [  # what the random search found once, kept as fixed cases
    ("request_analyser", with_value(analysis(), ("surplus",), {"extra": True}), "parses"),
    ("request_analyser", with_value(analysis(), ("estimated_phases",), "²"), "refused"),
    ("request_analyser", with_value(analysis(), ("requirements",), [
        {"requirement": "Port 8080", "quote": "move the port"}, "plain words too"]), "parses"),
    ("phase_planner", with_value(phases((1, "A", [])), ("phases", 0, "estimated_rounds"),
                                 "9" * 5000), "refused"),
    ("plan_tool_call", with_value(plan(task(1, "list_files")), ("tasks", 0, "priority"), "--5"),
     "refused"),
    ("judge_tasks", with_value(judge([], [1]), ("task_evaluation", 0, "task_id"), "٣"), "parses"),
]


@pytest.mark.parametrize("stage, arguments, outcome", HOSTILE,
                         ids=[f"{stage}-{outcome}-{i}" for i, (stage, _, outcome)
                              in enumerate(HOSTILE)])
def test_hostile_arguments_found_before_parse_or_get_a_schema_error(
        stage: str, arguments: dict[str, Any], outcome: str) -> None:
    schema, parse = PARSERS[stage]
    if outcome == "refused":
        with pytest.raises(SchemaError, match=r"^\$\..*expected an integer"):
            parse(arguments)
    else:
        parsed = parse(arguments)
        result = as_dict(parsed)
        assert coerce(result, RESULT_SCHEMAS.get(stage, schema)) == result
        reading_fits(parsed)


SCHEMAS = [schema for schema, _ in PARSERS.values()] + [
    REGISTRY.parameters(name) for name in NAMES]


@PROFILE
@given(data=st.data(), index=st.integers(0, len(SCHEMAS) - 1))
def test_coerce_returns_a_fixed_point_or_a_schema_error(data: st.DataObject, index: int) -> None:
    schema = SCHEMAS[index]
    value = data.draw(st.one_of(shaped(schema), any_json), label="value")
    try:
        result = coerce(value, schema)
    except SchemaError as exc:
        assert str(exc).startswith("$") and ": " in str(exc)
        return
    assert coerce(result, schema) == result


ids = st.integers(1, 12)
graphs = st.dictionaries(ids, st.lists(st.integers(0, 14), max_size=4), max_size=10)


def placeable(graph: dict[int, list[int]]) -> set[int]:
    """The nodes Kahn's algorithm places: every dependency known, placed, and acyclic."""
    placed: set[int] = set()
    while True:
        ready = {n for n, deps in graph.items()
                 if n not in placed and all(d in graph and d in placed for d in deps)}
        if not ready:
            return placed
        placed |= ready


@PROFILE
@given(graph=graphs, priority=st.dictionaries(ids, st.integers(-5, 5)))
def test_schedule_orders_every_sound_node_and_refuses_the_rest(
        graph: dict[int, list[int]], priority: dict[int, int]) -> None:
    plan = schedule(graph, priority)
    order = [node for level in plan.levels for node in level]
    assert len(order) == len(set(order)) and not set(order) & set(plan.refused)
    assert set(order) | set(plan.refused) == set(graph)
    assert set(order) == placeable(graph)
    level_of = {node: i for i, level in enumerate(plan.levels) for node in level}
    for node in order:
        assert all(level_of[d] < level_of[node] for d in graph[node])
    assert all(reason for reason in plan.refused.values())


@PROFILE
@given(graph=graphs)
def test_find_cycle_reports_a_real_cycle_exactly_when_there_is_one(
        graph: dict[int, list[int]]) -> None:
    cycle = find_cycle(graph)
    known = {n: [d for d in deps if d in graph] for n, deps in graph.items()}
    assert (cycle == []) == (placeable(known) == set(known))
    if cycle:
        assert cycle[0] == cycle[-1] and len(cycle) >= 2
        assert all(b in known[a] for a, b in zip(cycle, cycle[1:]))


@PROFILE
@given(graph=graphs)
def test_order_phases_gives_a_dependency_order_or_refuses(graph: dict[int, list[int]]) -> None:
    try:
        order = order_phases(graph, list(graph))
    except ValueError as exc:
        assert "cycle or an unknown id" in str(exc)
        assert placeable(graph) != set(graph)
        return
    assert sorted(order) == sorted(graph)
    assert all(order.index(d) < order.index(n) for n in order for d in graph[n])
