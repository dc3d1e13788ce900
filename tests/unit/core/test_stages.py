"""Stage schemas are bounded and their parsers validate, clamp and explain."""

from __future__ import annotations

from typing import Any

import pytest

from core.schema import SchemaError, coerce
from core.engine.stages.schemas import (PHASE_PLANNER, REQUEST_ANALYSER, SUMMARIZER, THINK, judge_schema,
                         parse_analysis, parse_judge, parse_phases, parse_plan, plan_schema)
from tests.support.script import analysis, phases, plan, task


def bounded(schema: dict[str, Any], path: str = "$") -> list[str]:
    """Paths in a schema that a grammar could grow without limit."""
    problems = []
    kind = schema.get("type")
    if kind == "string" and "enum" not in schema and "maxLength" not in schema:
        problems.append(path)
    if kind == "array":
        if "maxItems" not in schema:
            problems.append(path)
        problems += bounded(schema.get("items", {}), path + "[]")
    if kind == "integer" and ("minimum" not in schema or "maximum" not in schema):
        problems.append(path)
    if kind == "object":
        if "properties" not in schema and "maxProperties" not in schema:
            problems.append(path)
        for name, sub in schema.get("properties", {}).items():
            problems += bounded(sub, f"{path}.{name}")
    return problems


JUDGE = judge_schema(["list_files", "read_file"])


@pytest.mark.parametrize("schema", [REQUEST_ANALYSER, PHASE_PLANNER, JUDGE, THINK,
                                    SUMMARIZER, plan_schema(["list_files", "read_file"])])
def test_every_stage_schema_is_bounded(schema: dict[str, Any]) -> None:
    assert bounded(schema) == []
    assert set(schema["required"]) <= set(schema["properties"])


def test_stages_require_only_what_the_engine_cannot_default() -> None:
    assert PHASE_PLANNER["required"] == ["phases"]
    assert PHASE_PLANNER["properties"]["phases"]["items"]["required"] == [
        "name", "goal", "estimated_rounds"]
    assert plan_schema(["read_file"])["required"] == ["tasks"]
    assert plan_schema(["read_file"])["properties"]["tasks"]["items"]["required"] == [
        "tool", "arguments"]
    assert JUDGE["required"] == ["user_summary", "phase_completed"]
    # the reading's kind, files and examples are asked of the model every time (an empty list
    # is an answer); a reply without them is still taken, with no reading
    assert REQUEST_ANALYSER["required"] == ["core_goal", "requirements", "complexity",
                                            "estimated_phases", "kind", "files", "examples"]
    assert "completed_tasks" not in JUDGE["properties"]  # the engine knows what ran
    assert JUDGE["properties"]["user_summary"]["maxLength"] <= 300
    assert THINK["required"] == ["user_summary", "phase_completed", "continue_phase"]


def test_defaults_fill_what_a_model_left_out() -> None:
    phase_plan = parse_phases({"phases": [{"name": "A", "goal": "do a", "estimated_rounds": 1},
                                          {"name": "B", "goal": "do b", "estimated_rounds": 2}]})
    assert [(p.id, p.dependencies) for p in phase_plan.phases] == [(1, ()), (2, (1,))]
    assert phase_plan.execution_strategy == "sequential"
    tasks = parse_plan({"tasks": [{"tool": "read_file", "arguments": {"path": "a.py"}},
                                  {"tool": "list_files", "arguments": {}, "dependencies": [1]}]},
                       ["read_file", "list_files"], 8, lambda _tool, args: args).tasks
    assert [(t.id, t.title, t.priority, t.dependencies) for t in tasks] == [
        (1, "read_file a.py", 5, []), (2, "list_files", 5, [1])]
    verdict = parse_judge({"user_summary": "Read the file fully.", "phase_completed": True},
                          ["read_file"], 8, lambda _tool, args: args)
    assert (verdict.next_action, verdict.quality_score, verdict.next_tasks) == (
        "end_phase", 8.0, ())
    more = parse_judge({"user_summary": "Read the first file.", "phase_completed": False,
                        "next_tasks": [{"tool": "read_file", "arguments": {"path": "b.py"}}]},
                       ["read_file"], 8, lambda _tool, args: args)
    assert more.next_action == "continue_phase"
    silent = parse_judge({"user_summary": "Nothing said about what comes next.",
                          "phase_completed": False}, ["read_file"], 8, lambda _tool, args: args)
    assert silent.next_action == "continue_phase"
    assert parse_analysis({"core_goal": "Do it", "requirements": [], "complexity": "simple",
                           "estimated_phases": 1}).clarification_needed is False


def test_judge_has_problem_level() -> None:
    assert JUDGE["properties"]["problem_level"]["enum"] == ["execution", "planning",
                                                            "comprehension"]


def test_integers_are_clamped() -> None:
    args = phases((1, "A", []))["arguments"]
    args["phases"][0]["estimated_rounds"] = 10 ** 15
    assert parse_phases(args).phases[0].estimated_rounds == 5
    data = analysis(phases=1)["arguments"]
    data["estimated_phases"] = -3
    assert parse_analysis(data).estimated_phases == 1


def test_phase_cycles_and_unknown_ids_are_repaired_duplicates_are_invalid() -> None:
    cyclic = parse_phases(phases((1, "A", [2]), (2, "B", [1]))["arguments"])
    assert [p.dependencies for p in cyclic.phases] == [(), (1,)]
    assert any("cycle 1 → 2 → 1" in note for note in cyclic.notes)
    unknown = parse_phases(phases((1, "A", [7]))["arguments"])
    assert unknown.phases[0].dependencies == ()
    assert unknown.notes == ("phase 1: removed unknown dependency id(s) [7]",)
    with pytest.raises(SchemaError, match="unique"):
        parse_phases(phases((1, "A", []), (1, "B", []))["arguments"])


def check(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    if tool == "read_file" and "path" not in arguments:
        raise SchemaError("$: missing required field 'path'")
    return arguments


def test_plan_limits_tools_and_arguments() -> None:
    names = ["list_files", "read_file"]
    ok = parse_plan(plan(task(1, "read_file", path="a"))["arguments"], names, 8, check)
    assert ok.tasks[0].arguments == {"path": "a"}
    with pytest.raises(SchemaError, match="at most 8 tasks"):
        parse_plan(plan(*[task(i, "list_files") for i in range(1, 10)])["arguments"], names, 8,
                   check)
    with pytest.raises(SchemaError, match="not one of"):
        parse_plan(plan(task(1, "rm_rf"))["arguments"], names, 8, check)
    with pytest.raises(SchemaError, match=r"tasks\[0\] \(read_file\).*path"):
        parse_plan(plan(task(1, "read_file"))["arguments"], names, 8, check)


def test_a_plan_keeps_its_valid_tasks_and_repairs_ids_and_dependencies() -> None:
    names = ["list_files", "read_file"]
    mixed = parse_plan(plan(task(1, "rm_rf"), task(2, "read_file", [1, 9], path="a"),
                            task(3, "read_file"), task(2, "list_files", [4], path="x"),
                            task(4, "list_files", [2], path="y"))["arguments"], names, 8, check)
    assert [(t.id, t.tool, t.dependencies) for t in mixed.tasks] == [
        (2, "read_file", []), (5, "list_files", [4]), (4, "list_files", [2])]
    notes = " | ".join(mixed.notes)
    assert "dropped task 1" in notes and "rm_rf" in notes and "dropped task 3" in notes
    assert "task id 2 was used twice; the second is task 5" in notes
    assert "removed unknown dependency id(s) [1, 9]" in notes


def test_an_unknown_extra_argument_is_dropped_not_the_plan() -> None:
    from core.tools import default_registry

    registry = default_registry()

    def strict(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return coerce(arguments, registry.parameters(tool))

    parsed = parse_plan(plan(task(1, "read_file", path="a.py", overwrite=True,
                                  encoding="utf-8"))["arguments"],
                        registry.names(), 8, strict)
    assert parsed.tasks[0].arguments == {"path": "a.py"}
    assert sorted(parsed.notes) == [
        "task 1 (read_file): dropped the unknown argument 'encoding'",
        "task 1 (read_file): dropped the unknown argument 'overwrite'"]


def test_the_plan_schema_constrains_arguments_by_tool() -> None:
    from core.tools import default_registry

    registry = default_registry()
    parameters = {name: registry.parameters(name) for name in registry.names()}
    items = plan_schema(registry.names(), 8, parameters)["properties"]["tasks"]["items"]
    branches = {b["properties"]["tool"]["enum"][0]: b for b in items["anyOf"]}
    assert set(branches) == set(registry.names())
    write = branches["write_file"]["properties"]["arguments"]
    assert write["additionalProperties"] is False
    assert set(write["properties"]) == {"path", "content", "overwrite"}
    assert set(write["required"]) == {"path", "content"}
    assert "description" not in write["properties"]["path"]


def test_a_clarification_without_a_concrete_question_is_ignored() -> None:
    data = analysis()["arguments"]
    data["clarification_needed"] = True
    assert parse_analysis(data).clarification_needed is False
    data["clarification_questions"] = ["N/A", "none"]
    assert parse_analysis(data).clarification_needed is False
    data["clarification_questions"] = ["Which file?", "none"]
    parsed = parse_analysis(data)
    assert parsed.clarification_needed and parsed.clarification_questions == ["Which file?"]


def test_long_strings_are_cut_not_refused() -> None:
    data = analysis(goal="x" * 1000)["arguments"]
    assert len(parse_analysis(data).core_goal) == 300


def test_a_summary_without_words_is_invalid() -> None:
    from core.engine.stages.schemas import parse_summary
    from tests.support.script import summary

    with pytest.raises(SchemaError, match="in words"):
        parse_summary(summary("{ { 0 }} ({1})")["arguments"])
    assert parse_summary(summary("Read two files and changed the port.")["arguments"])


def test_exact_repeats_in_one_plan_are_dropped() -> None:
    names = ["list_files", "read_file"]
    parsed = parse_plan(plan(task(1, "read_file", path="a"), task(2, "read_file", path="a"),
                             task(3, "read_file", [2], path="b"))["arguments"], names, 8, check)
    assert [(t.id, t.dependencies) for t in parsed.tasks] == [(1, []), (3, [1])]
    assert parsed.notes == ("task 2 repeats task 1 exactly; dropped",)


def test_writes_of_one_file_by_instruction_are_merged_into_one() -> None:
    names = ["read_file", "write_file", "run_command"]

    def accept(_tool: str, arguments: dict) -> dict:
        return arguments

    parsed = parse_plan(plan(task(1, "write_file", path="naming.py", instruction="add a"),
                             task(2, "write_file", path="./naming.py", instruction="add b"),
                             task(3, "run_command", [2], command="python3 naming.py"),
                             task(4, "write_file", path="other.py", instruction="add c")
                             )["arguments"], names, 8, accept)
    assert [(t.id, t.arguments.get("instruction"), t.dependencies) for t in parsed.tasks] == [
        (1, "add a\nadd b", []), (3, None, [1]), (4, "add c", [])]
    assert parsed.notes == ("tasks 1 and 2 both write naming.py: merged into task 1",)
