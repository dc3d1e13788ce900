"""The stall guard, placeholders and the facts for the judge, on their own."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from core.engine.phase.judge_facts import file_facts, round_facts
from core.tools.snapshots import snapshot
from core.engine.execution.placeholders import add_dependencies, references, resolve
from core.engine.phase.stall import StallGuard, action_key
from core.engine.stages.task_specs import arguments_schema
from core.shapes.stage_results import TaskSpec
from core.shapes.task import Task


def ran(tid: int, tool: str, ok: bool, text: str, **arguments: object) -> Task:
    task = Task(id=tid, title="", description="", tool=tool, arguments=dict(arguments), round=1)
    task.move("running")
    task.finish(ok, text if ok else "", "" if ok else text)
    return task


def guard(phase: int = 1) -> StallGuard:
    return StallGuard(lambda tool, _: tool in ("edit_file", "write_file"), phase)


def test_a_succeeded_write_is_a_repeat_whatever_changed_since() -> None:
    memory = guard()
    edit = ran(1, "edit_file", True, "edited", path="a", old_text="port", new_text="listen_port")
    memory.record([(action_key(edit.tool, edit.arguments), edit)], 1, 1, changes_before=0)
    done = memory.repeat_of("edit_file", dict(edit.arguments), changes=5)
    assert done is not None and done.ok and done.where == "phase 1, round 1"
    later_phase = StallGuard(memory.writes, 2, memory.actions)
    assert later_phase.repeat_of("edit_file", dict(edit.arguments), changes=9) is done


def test_a_read_is_a_repeat_only_in_its_phase_on_an_unchanged_workspace() -> None:
    memory = guard()
    read = ran(1, "read_file", True, "text", path="a")
    memory.record([(action_key(read.tool, read.arguments), read)], 1, 1, changes_before=2)
    assert memory.repeat_of("read_file", {"path": "a"}, changes=2) is not None
    assert memory.repeat_of("read_file", {"path": "a"}, changes=3) is None
    assert StallGuard(memory.writes, 2, memory.actions).repeat_of(
        "read_file", {"path": "a"}, changes=2) is None


def test_a_plan_is_stale_when_everything_repeats_or_waits_for_a_repeated_failure() -> None:
    memory = guard()
    failed = ran(1, "read_file", False, "file not found: x", path="x")
    memory.record([(action_key(failed.tool, failed.arguments), failed)], 1, 1, changes_before=0)
    spec = TaskSpec(id=1, tool="read_file", arguments={"path": "x"})
    waiting = TaskSpec(id=2, tool="write_file", arguments={"path": "y", "content": "1"},
                       dependencies=[1])
    evidence = memory.stale([spec, waiting], changes=0)
    assert 'read_file {"path": "x"}: failed in phase 1, round 1: file not found: x' in evidence
    assert "would be blocked again" in evidence
    fresh = replace(waiting, dependencies=[])
    assert memory.stale([spec, fresh], changes=0) == ""
    assert memory.stale([spec], changes=1) == ""  # a file changed: it may succeed now


def test_placeholders_are_whole_values_of_known_ids() -> None:
    specs = [TaskSpec(id=1, tool="list_files", arguments={}),
             TaskSpec(id=2, tool="write_file",
                      arguments={"content": " $1 ", "note": "costs $1 and $2"}),
             TaskSpec(id=3, tool="write_file", arguments={"content": "$7"})]
    add_dependencies(specs)
    assert [s.dependencies for s in specs] == [[], [1], []]
    assert references({"a": "$1", "b": "$2"}, {1}) == [1]
    assert resolve({"content": "$1", "n": 3, "x": "$2"}, {1: "found\n"}) == {
        "content": "found", "n": 3, "x": "$2"}


def test_the_facts_show_changes_and_flag_a_stub(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n" * 30)
    before = snapshot(tmp_path, {"a.py", "new.txt", "gone.txt"})
    (tmp_path / "a.py").write_text("pass\n")
    (tmp_path / "new.txt").write_text("hello")
    after = snapshot(tmp_path, {"a.py", "new.txt", "gone.txt"})
    lines = file_facts(before, after)
    assert lines[0] == "- a.py: modified (180 → 5 characters)"
    assert "    … 25 more changed line(s)" in lines
    assert "- new.txt: created (5 characters)" in lines
    assert lines[-2:] == ["- a.py parses", "- WARNING: a.py was replaced by much less content "
                          "(180 → 5 characters); check that nothing it needed was lost"]
    blocked = Task(id=4, title="", description="", tool="read_file", arguments={})
    blocked.move("blocked")
    assert round_facts([blocked], {}, {}) == ("Facts recorded by the engine (check your verdict "
                                              "against them):\n- blocked: task 4")
    assert round_facts([ran(1, "list_files", True, "ok")], before, before) == ""


def test_a_tool_schema_with_references_is_offered_as_any_object() -> None:
    assert arguments_schema({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}) == {
        "type": "object"}
    compacted = arguments_schema({"properties": {"q": {"type": "string", "description": "d",
                                                       "default": "x"}}, "required": ["q"]})
    assert compacted == {"type": "object", "required": ["q"],
                         "properties": {"q": {"type": "string"}}}


def test_a_failed_write_by_instruction_may_run_once_more() -> None:
    """Its authoring call is told what went wrong and sampled; the second failure stands."""
    memory = guard()
    arguments = {"path": "report.txt", "instruction": "name and size of the largest file"}
    key = action_key("write_file", arguments)
    spec = TaskSpec(id=1, tool="write_file", arguments=arguments)
    first = ran(1, "write_file", False, "the reply ended inside the code block", **arguments)
    memory.record([(key, first)], 1, 1, changes_before=0)
    assert memory.repeat_of("write_file", arguments, changes=0) is None
    assert memory.stale([spec], changes=0) == ""
    second = ran(1, "write_file", False, "the reply ended inside the code block", **arguments)
    memory.record([(key, second)], 1, 2, changes_before=0)
    assert memory.repeat_of("write_file", arguments, changes=0) is not None
    assert "failed in phase 1, round 2" in memory.stale([spec], changes=0)
    content = {"path": "report.txt", "content": "x"}
    given = ran(1, "write_file", False, "permission denied", **content)
    memory.record([(action_key("write_file", content), given)], 1, 1, changes_before=0)
    assert memory.repeat_of("write_file", content, changes=0) is not None
