"""One phase's rounds: Plan → Execute → verdict (→ Think), until the phase ends.

The first round of the first phase of a request to change files writes the one-shot draft's
files with no Plan call (``_draft``): what the model alone would write comes first, and the
rounds after it earn their calls by fixing what it gets wrong. A plan or judge that stays
invalid after one repair degrades safely: an empty plan ends the round, a broken judge counts
the round as not completed. Before a plan runs it is reviewed: writes of files the request
never mentions, while a file it names is untouched, are refused and the named file's write
planned instead (``plan_review``); a plan that only repeats calls already made is not run
(``stall``): replanned with the evidence once, then the phase ends; calls already made inside
a new plan are held back (``phase.execute``). The writes of a plan that does not run a tool
the request needs first are not run; the ``TOOL_HOLDS``-th such plan runs, the tool released
from the reading (``release_tools``), so a plan that will not call the tool cannot stall the
run. After Execute comes the verdict (``judging``).
"""

from __future__ import annotations

import time

from core.engine.context import compact, rounds_digest
from core.engine.execution.placeholders import add_dependencies
from core.engine.execution.task_runner import execution_messages
from core.engine.phase.execute import execute_round
from core.engine.phase.host import PhaseHost
from core.engine.phase.judging import Judging
from core.engine.phase.messages import drop_plan_call, shorten_earlier_results
from core.engine.phase.plan_review import Review, reviewed, tools_before_writes
from core.engine.phase.stall import STALLS_TO_END, StallGuard
from core.engine.stages.instructions import language_ask, phase_intro, plan_instruction, \
    tools_first
from core.engine.reports import PhaseRecord
from core.engine.stages.schemas import parse_plan, plan_schema
from core.events import ContextCompacted, Notice, PhaseFinished, PhaseStarted, TasksPlanned
from core.llm.base import Message
from core.shapes.phase import PhaseStatus
from core.shapes.stage_results import Plan, TaskSpec
from core.shapes.task import Task

KEEP_ROUNDS = 2
TOOL_HOLDS = 2  # plans writing without a tool the request needs, the last of them run
DRAFT_ROUND = "The draft first: the files the model writes for the request alone."


class PhaseRounds(Judging):
    def __init__(self, engine: PhaseHost, record: PhaseRecord, index: int, total: int,
                 next_phase: str = "", carried: tuple[TaskSpec, ...] = (),
                 carried_by: str = "", draft_first: bool = False) -> None:
        self.engine = engine
        self.draft_first = draft_first
        self.drafted = 0  # the round that wrote the draft's files
        self.next_phase = next_phase
        self.pending = Plan(tasks=carried, reasoning=carried_by)
        self.handoff: tuple[TaskSpec, ...] = ()
        self.record = record
        self.phase = record.phase
        self.index = index
        self.total = total
        self.messages: list[Message] = []
        self.mode = "plan"
        self.detail = ""
        self.round_starts: list[int] = []
        self.head = 0
        self.held = 0  # plans whose writes waited for a tool the request needs
        self.guard = StallGuard(lambda tool, args: bool(engine.tools.written_paths(tool, args)),
                                record.phase.id, engine.actions)

    async def run(self, earlier: str, goal_known: bool = False) -> str:
        """Run the phase; returns "done" or "reanalyse". ``goal_known``: the phase's goal is
        the structured request's, which the history already holds."""
        engine, phase = self.engine, self.phase
        phase.status, phase.started_at = "running", time.monotonic()
        acc = engine.accounting
        calls, prompt, completion = acc.calls, acc.prompt_tokens, acc.completion_tokens
        engine.emit(PhaseStarted(phase_id=phase.id, name=phase.name, goal=phase.goal,
                                 index=self.index, total=self.total, max_rounds=phase.max_rounds))
        self.messages = list(engine.base_messages) + [
            {"role": "user", "content": phase_intro(self.index, self.total, phase.name,
                                                    "" if goal_known else phase.goal, earlier)}]
        self.head = len(self.messages)
        try:
            outcome = await self._rounds()
        finally:
            phase.llm_calls = acc.calls - calls
            phase.prompt_tokens = acc.prompt_tokens - prompt
            phase.completion_tokens = acc.completion_tokens - completion
        engine.emit(PhaseFinished(phase_id=phase.id, status=phase.status, rounds=phase.rounds,
                                  tasks_done=sum(t.status == "done" for t in phase.tasks),
                                  tasks_total=len(phase.tasks), summary=phase.user_summary))
        return outcome

    async def _rounds(self) -> str:
        """Plan → Execute → verdict until the phase ends; "done" or "reanalyse"."""
        engine, phase = self.engine, self.phase
        outcome = "done"
        bad_plans = 0
        while phase.status == "running":
            if phase.rounds >= phase.max_rounds:
                self._end("incomplete", f"not completed within {phase.max_rounds} round(s)")
                break
            if engine.accounting.exhausted:
                self._end("stopped", "the iteration budget is spent")
                break
            phase.rounds += 1
            self.round_starts.append(len(self.messages))
            drafted = await self._draft() if phase.rounds == 1 and self.draft_first \
                and not self.pending.tasks else None
            fresh = not self.pending.tasks and drafted is None
            planned = drafted or (await self._plan() if fresh else self._take_pending())
            if planned is None:
                self.round_starts.pop()
                bad_plans += 1
                if bad_plans >= 2:
                    self._end("failed", "no valid plan could be made")
                continue
            bad_plans = 0
            planned = self._review(planned)
            if planned is None:
                continue
            tasks = self._start(planned, "draft" if drafted is not None else self.mode)
            facts = await execute_round(engine, self.guard, tasks, phase.id, phase.rounds)
            self._record(tasks, fresh)
            self._compact()
            outcome = await self._judge_and_route(tasks, facts)
        return outcome

    def _review(self, planned: Plan) -> Plan | None:
        """The plan as it may run (reviewed against the request's files), or None when it is
        not run at all (it brings nothing new)."""
        engine, phase = self.engine, self.phase
        needed = [name for name in engine.reading.tools if name not in self._ran_tools()]
        first = tools_before_writes(planned.tasks, needed, engine.tools.written_paths)
        if first.note:
            self.held += 1
            note = first.note
            if self.held >= TOOL_HOLDS:
                engine.release_tools(tuple(needed))
                first = Review(planned.tasks)
                one = len(needed) == 1
                note = (f"the plan wrote without running {', '.join(needed)} {TOOL_HOLDS} times, "
                        f"though the reading of the request says it needs "
                        f"{'it' if one else 'them'} first; its writes run now, without "
                        f"{'its' if one else 'their'} result")
            engine.emit(Notice(level="warning", stage="plan", message=(
                f"Phase {phase.id}, round {phase.rounds}: {note}.")))
        planned = Plan(tasks=first.tasks, reasoning=planned.reasoning)
        if not planned.tasks:
            self.mode, self.detail = "replan", first.note
            return None
        review = reviewed(planned.tasks, engine.reading, engine.run_state.workspace,
                          engine.changed_files, engine.tools.written_paths) \
            if engine.writes_wanted else None
        if review is not None and review.note:
            engine.emit(Notice(level="warning", stage="plan", message=(
                f"Phase {phase.id}, round {phase.rounds}: {review.note}.")))
            planned = Plan(tasks=review.tasks, reasoning=planned.reasoning)
        return None if self._stalled(planned.tasks) else planned

    def _record(self, tasks: list[Task], fresh: bool) -> None:
        """The round's calls and results join the history (``phase.messages``): the Plan call
        that listed them (``fresh``: there was one) leaves it, and after a round that wrote
        files the results of the rounds before it are cut short."""
        if fresh:
            drop_plan_call(self.messages)
        self.messages += execution_messages(tasks, self.phase.id, self.phase.rounds)
        if any(t.started_at is not None and t.changed for t in tasks):
            shorten_earlier_results(self.messages, self.phase.id, self.phase.rounds)

    def _compact(self) -> None:
        settings = self.engine.settings
        limit = int(self.engine.context_window * settings.compaction_threshold)
        result = compact(self.messages, self.head, self.round_starts, KEEP_ROUNDS, rounds_digest,
                         limit)
        if result is None:
            return
        dropped = self.round_starts[-KEEP_ROUNDS] - self.round_starts[0] - 1
        self.messages = result.messages
        self.round_starts = [self.round_starts[0]] + [
            start - dropped for start in self.round_starts[-KEEP_ROUNDS:]]
        self.engine.emit(ContextCompacted(stage=f"phase {self.phase.id}",
                                          before_tokens=result.before,
                                          after_tokens=result.after))

    def _end(self, status: PhaseStatus, reason: str = "") -> None:
        self.phase.status = status
        self.phase.finished_at = time.monotonic()
        if reason and status != "completed":
            self.phase.failed_reason = reason

    async def _plan(self) -> Plan | None:
        engine, phase = self.engine, self.phase
        settings = engine.settings
        names = engine.tools.names()
        self.messages.append({"role": "user", "content": plan_instruction(
            phase.rounds, phase.max_rounds, settings.max_tasks_per_round, self.mode,
            self.detail) + tools_first(engine.reading.tools, self._ran_tools())
            + language_ask(engine.language, "plan")})
        result = await engine.caller.call(
            "plan", self.messages, "plan_tool_call",
            plan_schema(engine.tools.offered_names(), settings.max_tasks_per_round,
                        engine.tool_parameters()),
            lambda args: parse_plan(args, names, settings.max_tasks_per_round,
                                    engine.check_arguments),
            counted=True, ack=lambda p: f"Accepted: {len(p.tasks)} task(s).")
        if result.value is None:
            self.messages.pop()
            engine.emit(Notice(level="warning", stage="plan",
                               message=f"Phase {phase.id}, round {phase.rounds}: no usable "
                                       "plan; the round ends without tasks."))
            return None
        for note in result.value.notes:
            engine.emit(Notice(level="warning", stage="plan", message=(
                f"Phase {phase.id}, round {phase.rounds}: the plan was repaired: {note}.")))
        return result.value

    async def _draft(self) -> Plan | None:
        """The first round, without a Plan call: the writes of the files the one-shot draft
        gives (``first_writes``), the draft being what the model alone writes. The draft is a
        witness of what the request asks (``witness_draft``): files make it a change, words
        an answer. None when the request forbids changes, needs a tool run first, or the
        draft gives no file (the round is planned then)."""
        engine = self.engine
        if engine.authoring is None or engine.changes_forbidden or engine.reading.tools:
            return None
        specs = await self._draft_writes()
        drafted = engine.authoring.drafted
        if drafted is not None and (drafted.files or drafted.answer):
            engine.witness_draft(bool(drafted.files))
        if not engine.writes_wanted:
            return None
        if not specs:
            return None
        self.drafted = self.phase.rounds
        return Plan(tasks=specs, reasoning=DRAFT_ROUND)

    def _ran_tools(self) -> set[str]:
        """The tools the run's tasks have run successfully so far."""
        return {t.tool for r in self.engine.tally.records for t in r.phase.tasks
                if t.status == "done"}

    def _take_pending(self) -> Plan:
        """The round the judge (or the phase planner) already planned: no Plan call."""
        planned, self.pending = self.pending, Plan(tasks=())
        return planned

    def _stalled(self, specs: tuple[TaskSpec, ...]) -> bool:
        """A plan that brings nothing new is not run: the first time the phase is replanned
        with the evidence, the second time it ends."""
        evidence = self.guard.stale(specs, self.engine.file_changes)
        if not evidence:
            return False
        self.guard.stalls += 1
        phase = self.phase
        if self.guard.stalls >= STALLS_TO_END:
            self._end("incomplete", "stalled: the plans kept repeating calls already made, "
                                    "with nothing new to learn from them")
            message = "the plan repeats earlier work again; the phase ends."
        else:
            self.mode, self.detail = "replan", evidence
            message = "the plan only repeats earlier work; asking for a different plan."
        self.engine.emit(Notice(level="warning", stage="plan",
                                message=f"Phase {phase.id}, round {phase.rounds}: {message}"))
        return True

    def _start(self, plan: Plan, mode: str) -> list[Task]:
        phase = self.phase
        add_dependencies(plan.tasks)
        tasks = [Task(id=t.id, title=t.title, description=t.description, tool=t.tool,
                      arguments=t.arguments, priority=t.priority,
                      dependencies=list(t.dependencies), round=phase.rounds,
                      estimated_tokens=len(str(t.arguments)) // 4)
                 for t in plan.tasks]
        phase.tasks += tasks
        self.engine.emit(TasksPlanned(phase_id=phase.id, round=phase.rounds,
                                      max_rounds=phase.max_rounds, reasoning=plan.reasoning,
                                      tasks=[t.card() for t in tasks], mode=mode))  # type: ignore[arg-type]
        return tasks
