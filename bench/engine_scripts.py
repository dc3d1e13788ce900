"""The scripted replies of ``bench_engines``: both engines doing exactly a scenario's work.

Two kinds of model: ``lean`` fills only what each stage schema requires (plus verdicts and
next tasks where the scenario has them); ``full`` fills every field each stage schema
offers, with text of realistic length, as a model served by a strict OpenAI-compatible
endpoint does (``bench_model.fit`` keeps exactly the offered fields and refuses a reply
that lacks one). The authoring calls of writes, which offer no tool, take their replies
from the ``"auto"`` queue in the order the writes run (dependency level, then task id),
the one-shot draft's among them, which the phase engine may also ask after a round
(``engine_writes``); for the classic loop that queue also holds its tool-call replies, in
order. The phase engine decides a round itself where the facts settle it (``decisions``):
such a round has no judge reply.
"""

from __future__ import annotations

from typing import Any

from bench.engine_scenarios import Call, Scenario
from core.config import Settings
from bench.engine_writes import draft_round, levels, numbered_rounds, phase_replies, \
    write_replies
from tests.support.script import analysis, judge, phases, plan, summary, task, think

Queues = dict[str, list[dict[str, Any]]]
THINK_DEFAULT = think(False, True, "")
THINK_FULL = {"tool": "think", "arguments": {
    "internal_analysis": "The round ran what was planned; the results answer the phase goal "
                         "only in part, so one more round should finish the remaining work.",
    "user_summary": "Part of the phase is done; one more round finishes it.",
    "phase_completed": False, "continue_phase": True,
    "next_round_strategy": "Plan the remaining tasks only, reusing what the reads showed."}}
SUMMARY_TEXT = (
    "## Done\n\nThe work the request described is finished.\n\n"
    "- **Read:** every file the request named, in full; their contents are summarised in "
    "the results above.\n- **Written:** the files the request asked for, each checked after "
    "the write (it exists, it parses where it is code, nothing it held before was lost).\n"
    "- **Failed:** nothing is left failing; a write that failed once was retried with what "
    "went wrong and then succeeded.\n\n"
    "### What is left\n\nNothing the request asked for. Run the project's own checks before "
    "relying on the new files, and review the written text for tone.")


def decisions(s: Scenario) -> list[str]:
    """Who decides after each round, as the phase engine does: ``"judge"``; ``"written"``
    (every task succeeded and the round wrote: the engine completes the phase, the next
    phase's first round takes a Plan call); ``"draft"`` (the last phase of a request for
    changes, every task succeeded and nothing is written yet: the engine plans the next
    round itself, the writes of the files the one-shot draft gives). Raises ``ValueError``
    for a scenario the engine cannot run as scripted."""
    rounds = numbered_rounds(s)
    found, wrote = [], False
    for n, (p, r, calls) in enumerate(rounds):
        failed = any((p, r, i) in s.failing for i in range(1, len(calls) + 1))
        writes = any(call[0] == "write_file" for call in calls)
        if writes and not failed:
            if r != len(s.rounds[p - 1]):
                raise ValueError(f"{s.name}: round {p}.{r} writes cleanly, so the engine ends "
                                 "its phase there; it must be the phase's last round")
            found.append("written")
        elif (not writes and s.changes_requested and not wrote and p == len(s.rounds)
              and r < len(s.rounds[p - 1])):
            if rounds[n + 1][2] != draft_round(s):
                raise ValueError(f"{s.name}: after round {p}.{r} the engine writes what the "
                                 f"draft gives: {draft_round(s)}")
            found.append("draft")
        else:
            found.append("judge")
        wrote = wrote or writes and not failed
    return found


def phase_script(s: Scenario, settings: Settings, full: bool = False) -> Queues:
    """Replies per stage for the phase engine doing exactly the scenario's rounds (of
    ``for_phase``). The first round is planned with the phases (by plan_tool_call when a
    one-phase request is not phase-planned; by the engine from the draft when a one-phase
    request asks for changes); after a round the judge decides (``decisions``), it gives
    the next round's tasks (``next_tasks``), as a model that knows its next step does;
    after a round the engine decides, the next round is planned by plan_tool_call, or by
    the engine from the draft."""
    rounds = numbered_rounds(s)
    queues: Queues = {"request_analyser": [_analysis(s, full)], "judge_tasks": [],
                      "plan_tool_call": [], "summarizer": [_summary(s, full)],
                      "auto": []}
    first = tasks_of(rounds[0][2])
    if len(s.rounds) > 1:  # the phase planner gives the first tasks with the phases
        queues["phase_planner"] = [_phases(s, first, full)]
    elif not s.changes_requested:  # a simple one-phase request is not phase-planned:
        queues["plan_tool_call"].append(_plan(first, full))  # plan_tool_call plans round 1
    decided = decisions(s)
    queues["auto"] = phase_replies(s, settings, decided)
    for n, (p, r, calls) in enumerate(rounds):
        following = tasks_of(rounds[n + 1][2]) if n + 1 < len(rounds) else None
        if decided[n] != "judge":
            if decided[n] == "written" and following:
                queues["plan_tool_call"].append(_plan(following, full))
            continue
        failed = [i for i in range(1, len(calls) + 1) if (p, r, i) in s.failing]
        last = r == len(s.rounds[p - 1])
        action = "end_phase" if last else ("retry_failed" if failed else "continue_phase")
        queues["judge_tasks"].append(_judge(len(calls), failed, last, action, following, full))
    return {stage: replies for stage, replies in queues.items() if replies}


def tasks_of(calls: list[Call]) -> list[dict[str, Any]]:
    return [task(i, tool, deps, **args) for i, (tool, args, deps) in enumerate(calls, start=1)]


def _full_task(spec: dict[str, Any]) -> dict[str, Any]:
    return {**spec, "dependencies": spec.get("dependencies", [])}


def _analysis(s: Scenario, full: bool) -> dict[str, Any]:
    count = len(s.rounds)
    if not full:
        return analysis("bench goal", phases=count, **s.reading)
    return analysis(f"Do what the request asks: {s.request}"[:300], phases=count,
                    requirements=[{"requirement": r, "quote": q} for r, q in s.requirements],
                    constraints=["Keep every file the request does not name unchanged.",
                                 "Base every statement on the files actually read."],
                    clarification_needed=False, clarification_questions=[], language="English",
                    **s.reading)


def _phases(s: Scenario, first: list[dict[str, Any]], full: bool) -> dict[str, Any]:
    reply = phases(*[(p + 1, f"Phase {p + 1}", [p] if p else [], len(rounds))
                     for p, rounds in enumerate(s.rounds)], first_tasks=first)
    if full:
        arguments = reply["arguments"]
        for n, phase in enumerate(arguments["phases"], start=1):
            phase.update(id=n, dependencies=[n - 1] if n > 1 else [],
                         goal=f"Phase {n} of the work: carry out its share of the request and "
                              "leave the files it touches consistent.")
        arguments["execution_strategy"] = "sequential"
        arguments["first_tasks"] = [_full_task(t) for t in arguments["first_tasks"]]
    return reply


def _plan(first: list[dict[str, Any]], full: bool) -> dict[str, Any]:
    if not full:
        return plan(*first)
    reply = plan(*first, reasoning="Read what the request names first, then write what it "
                                   "asks for from what the reads show; the write waits for "
                                   "the reads it builds on.")
    reply["arguments"]["tasks"] = [_full_task(t) for t in reply["arguments"]["tasks"]]
    return reply


def _judge(count: int, failed: list[int], last: bool, action: str,
           following: list[dict[str, Any]] | None, full: bool) -> dict[str, Any]:
    done = [i for i in range(1, count + 1) if i not in failed]
    # a failed write failed in the tool: the engine has its error, the judge restates none
    reply = judge(done, [], completed=last, action=action, quality=None, next_tasks=following)
    if not full:
        return reply
    reply["arguments"].update(
        next_action=action, phase_completed=last, quality_score=8.5 if not failed else 6.0,
        user_summary=("The round ran its tasks and their results are in; "
                      + ("one write failed and is retried next." if failed else
                         "they give what the phase needs.")),
        task_evaluation=[{"task_id": i, "status": "failed" if i in failed else "done",
                          "quality_score": 2.0 if i in failed else 9.0,
                          "comment": ("The reply held no file, so nothing was written."
                                      if i in failed else "Ran cleanly; the result is what "
                                      "the task was meant to produce.")}
                         for i in range(1, count + 1)],
        failed_reason=("Task(s) " + ", ".join(map(str, failed)) + " wrote nothing."
                       if failed else "Nothing failed in this round."),
        problem_level="execution",
        next_tasks=[_full_task(t) for t in following or []])
    return reply


def _summary(s: Scenario, full: bool) -> dict[str, Any]:
    if not full:
        return summary()
    return {"tool": "summarizer", "arguments": {
        "final_summary": SUMMARY_TEXT,
        "highlights": ["Every file the request named was read in full.",
                       "The written files were checked after each write.",
                       "Nothing the request asked for is left undone."],
        "quality_assessment": "Good: complete and checked.",
        "requirements": [{"requirement": r, "status": "done",
                          "evidence": "The tasks that read the files and wrote the result."}
                         for r, _ in s.requirements]}}


def classic_script(s: Scenario, settings: Settings, batched: bool, full: bool = False
                   ) -> Queues:
    """The classic loop making exactly the scenario's calls: the analysis first (outside the
    budget), then a dependency level per reply (batched) or one call per reply (stepwise),
    each write's authoring reply after the reply that asked for it (``engine_writes``); then
    the answer."""
    replies: list[dict[str, Any]] = []
    authoring = write_replies(s, settings)
    for p, phase in enumerate(s.rounds, start=1):
        for r, calls in enumerate(phase, start=1):
            for level in levels(calls):
                groups = [level] if batched else [[c] for c in level]
                for group in groups:
                    if not group:
                        continue
                    replies.append({"tool_calls": [{"tool": t, "arguments": a}
                                                   for _, (t, a, _) in group]})
                    replies += [reply for i, c in group if c[0] == "write_file"
                                for reply in authoring[(p, r, i)]]
    answer = SUMMARY_TEXT if full else "## Done\n\nAll the work is done."
    return {"request_analyser": [_analysis(s, full)], "auto": replies + [{"text": answer}]}
