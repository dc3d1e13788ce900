"""Compaction keeps protocol pairs, the request and the last two rounds; reports degrade in order."""

from __future__ import annotations

from pathlib import Path

from core.engine.context import compact, digest, rounds_digest
from core.llm.base import estimate_tokens
from core.engine.memory import format_memory
from core.shapes import Phase, Task
from core.shapes.stage_results import TaskVerdict, Verdict
from core.engine.reports import PhaseRecord, degraded_reports, level1, level2, level3
from tests.integration.test_openai_protocol import assert_pairs_intact
from tests.support.script import judge, of, phases, plan, analysis, run, summary, task


def round_messages(n: int, size: int) -> list[dict]:
    call = {"id": f"c{n}", "type": "function",
            "function": {"name": "read_file", "arguments": '{"path": "f%d"}' % n}}
    return [{"role": "user", "content": f"Round {n}: plan"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"c{n}", "content": "x" * size}]


def test_compaction_keeps_head_and_last_two_rounds_verbatim() -> None:
    head = [{"role": "system", "content": "sys"}, {"role": "user", "content": "REQUEST"},
            {"role": "user", "content": "PHASE GOAL"}]
    messages, starts = list(head), []
    for n in range(1, 6):
        starts.append(len(messages))
        messages += round_messages(n, 4000)
    result = compact(messages, len(head), starts, 2, rounds_digest, limit=3000)
    assert result is not None and result.after < result.before
    kept = result.messages
    assert kept[:3] == head
    assert kept[-6:] == messages[-6:]  # rounds 4 and 5 untouched
    assert kept[3]["content"].startswith("[Compacted: the 3 earliest round(s)")
    assert_pairs_intact(kept)
    assert compact(messages, len(head), starts, 2, rounds_digest, limit=10 ** 9) is None


def test_digest_shows_roles_sizes_and_previews() -> None:
    rows = digest([{"role": "user", "content": "y" * 1000}] + round_messages(1, 10))
    assert rows[0]["role"] == "user" and rows[0]["chars"] == 1000
    assert len(rows[0]["preview"]) == 241 and rows[0]["tokens"] > 200
    assert "read_file" in rows[2]["preview"]


def make_record(pid: int, tasks: int, result_size: int) -> PhaseRecord:
    phase = Phase(id=pid, name=f"P{pid}", goal="goal", status="completed", rounds=1)
    for i in range(1, tasks + 1):
        t = Task(id=i, title=f"task {i}", description="", tool="read_file", arguments={},
                 round=1)
        t.move("running")
        t.finish(i != 2, "r" * result_size, "" if i != 2 else "boom")
        phase.tasks.append(t)
    phase.summaries.append(f"phase {pid} summary")
    return PhaseRecord(phase, changed_files=[f"f{pid}.py"])


def test_levels_have_their_sizes() -> None:
    record = make_record(1, 8, 500)
    assert len(level1(record).splitlines()) < 10
    assert len(level2(record).splitlines()) < 50
    assert "f1.py" in level2(record) and "f1.py" not in level1(record)
    assert level3(record).count("round 1 task") == 8


def test_the_report_repeats_neither_the_requests_goal_nor_done_verdicts() -> None:
    record = make_record(1, 3, 50)
    record.phase.judgements.append(Verdict(
        user_summary="Two reads worked.", next_action="end_phase", phase_completed=True,
        task_evaluation=(TaskVerdict(1, "done", 9, "read fine"),
                         TaskVerdict(2, "failed", 1, "the file is missing"))))
    assert "Goal: goal" in degraded_reports([record], 10 ** 6)[0]
    report = degraded_reports([record], 10 ** 6, known_goal="goal")[0]
    assert "Goal:" not in report and "- round 1 task 1 [done] read_file task 1: " in report
    assert "judge on task 2 (failed, 1/10): the file is missing" in report
    assert "read fine" not in report


def test_degradation_goes_oldest_first_and_spares_the_last_phase() -> None:
    records = [make_record(i, 8, 400) for i in range(1, 4)]
    full, levels = degraded_reports(records, 10 ** 6)
    assert levels == [3, 3, 3]
    total = estimate_tokens(full)
    seen = [degraded_reports(records, int(total * share))[1] for share in (0.9, 0.6, 0.3, 0)]
    assert seen == [[2, 3, 3], [2, 2, 3], [1, 1, 3], [1, 1, 3]]


def test_memory_shows_summaries_not_raw_text() -> None:
    text = format_memory([{"goal": "Set port", "status": "completed", "summary": "Port is 8080"},
                          {"goal": "Add docs", "status": "completed", "summary": "Docs added",
                           "milestone": "changed files"}])
    assert "Port is 8080" in text and "[milestone: changed files]" in text


def test_memory_over_the_cap_drops_milestones_only_when_they_alone_exceed_it() -> None:
    def run(tag: str, milestone: str = "") -> dict[str, str]:
        return {"goal": tag, "status": "completed", "summary": f"{tag} " + "x" * 600,
                "milestone": milestone}

    runs = [run("M1", "marked by the person"), run("U1"), run("M2", "changed files"),
            run("M3", "marked by the person"), run("U2")]
    kept = [r["goal"] for r in runs if r["goal"] in format_memory(runs, cap=2200)]
    assert kept == ["M2", "M3", "U2"]  # U1, then the oldest milestone; the newest run stays
    assert [r["goal"] for r in runs if r["goal"] in format_memory(runs, cap=3000)] == [
        "M1", "M2", "M3", "U2"]
    assert format_memory([], cap=10) == ""


def test_engine_compacts_a_long_phase_and_keeps_protocol(tmp_path: Path) -> None:
    for n in range(4):
        (tmp_path / f"big{n}.txt").write_text("line of text\n" * 3000)
    replies = [analysis(complexity="complex"), phases((1, "Read a lot", [], 3))]
    for n in range(4):
        replies += [plan(task(1, "read_file", path=f"big{n}.txt")),
                    judge([1], completed=False, action="continue_phase")]
    replies += [plan(task(1, "list_files")), judge([1]), summary()]
    events, model = run(replies, tmp_path, think_stage="never", context_window=4096,
                        compaction_threshold=0.5)
    compactions = of(events, "context_compacted")
    assert compactions and all(c.after_tokens < c.before_tokens for c in compactions)
    for request in model.requests:
        assert_pairs_intact(request["messages"])
    last_plan = model.requests[-3]["messages"]
    assert any(str(m.get("content", "")).startswith("[Compacted") for m in last_plan)
    assert events[-1].status == "completed"


def test_a_models_smaller_context_window_wins(tmp_path: Path) -> None:
    from core.llm.scripted import ScriptedModel
    from core.engine.build import create_engine
    from tests.support.script import settings

    class SmallWindow(ScriptedModel):
        context_window = 8192

    engine = create_engine(settings(context_window=32768), tmp_path, model=SmallWindow([]))
    assert engine.context_window == 8192
    plain = create_engine(settings(context_window=4096), tmp_path, model=ScriptedModel([]))
    assert plain.context_window == 4096
