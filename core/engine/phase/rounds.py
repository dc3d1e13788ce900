"""One phase's rounds: Plan → Execute → Judge → (Think), and the routing between rounds.

Routing follows the judge: end_phase / continue_phase / retry_failed (the next plan gets
only the failed tasks and the judge's reasons; at most three retries in a row) /
replan; a ``comprehension`` problem asks the engine to re-analyse the request (once per
run). A judge that already knows the next round's tasks gives them (``next_tasks``):
that round runs without a Plan call — more work of the phase, the failed tasks
corrected, or, when the phase ends completed, the first round of the next phase
(``handoff``). Think runs under "auto" only when the verdict leaves the decision open.
A plan or judge that stays invalid after one repair degrades safely: an empty plan ends
the round, a broken judge counts the round as not completed. A plan that only repeats
calls already made is not run (``stall``): replanned with the evidence once, then the
phase ends; calls already made inside a new plan are held back (``phase.execute``). A plan
that would only read back what the last round wrote ends the phase (``look_back``). A
request that asks for changes, with nothing written yet and a plan that only repeats, gets
the write of the file it names planned by the engine, once per phase (``overdue_write``).
"""

from __future__ import annotations

import time

from core.engine.context import compact, rounds_digest
from core.events import ContextCompacted, Notice, PhaseFinished, PhaseStarted, TasksPlanned, Thought
from core.engine.task_executor import execution_messages
from core.engine.placeholders import add_dependencies
from core.engine.phase.execute import execute_round
from core.engine.phase.look_back import looked_back
from core.engine.phase.overdue_write import overdue_plan
from core.engine.phase.stall import STALLS_TO_END, StallGuard
from core.llm.base import Message
from core.models.phase import PhaseStatus
from core.models.task import Task
from core.engine.phase.history import drop_plan_call, shorten_earlier_results, trim_verdict
from core.engine.phase.host import PhaseHost
from core.engine.prompts import judge_instruction, language_ask, phase_intro, plan_instruction, \
    think_instruction
from core.engine.reports import PhaseRecord, level2
from core.engine.phase.verdicts import apply_verdict, degraded_judge, failed_tasks, unwritten_writes, \
    verdict_is_open
from core.models.stage_results import Plan, TaskSpec, ThinkDecision, Verdict
from core.engine.stages import THINK, judge_schema, parse_judge, parse_plan, parse_think, plan_schema

MAX_RETRIES_IN_A_ROW = 3
KEEP_ROUNDS = 2


class PhaseRounds:
    def __init__(self, engine: PhaseHost, record: PhaseRecord, index: int, total: int,
                 next_phase: str = "", carried: tuple[TaskSpec, ...] = (),
                 carried_by: str = "") -> None:
        self.engine = engine
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
        self.wrote_overdue = False
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
        """Plan → Execute → Judge → (Think) until the phase ends; "done" or "reanalyse"."""
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
            fresh = not self.pending.tasks
            planned = await self._plan() if fresh else self._take_pending()
            if planned is None:
                self.round_starts.pop()
                bad_plans += 1
                if bad_plans >= 2:
                    self._end("failed", "no valid plan could be made")
                continue
            bad_plans = 0
            if self._looks_back(planned.tasks):
                continue
            overdue = None if self.wrote_overdue else overdue_plan(engine, phase, self.guard,
                                                                   planned.tasks)
            if overdue is not None:
                planned, self.wrote_overdue = overdue, True
            elif self._stalled(planned.tasks):
                continue
            tasks = self._start(planned)
            facts = await execute_round(engine, self.guard, tasks, phase.id, phase.rounds)
            self._record(tasks, fresh)
            self._compact()
            outcome = await self._judge_and_route(tasks, facts)
        return outcome

    def _record(self, tasks: list[Task], fresh: bool) -> None:
        """The round's calls and results join the history (``phase.history``): the Plan call
        that listed them (``fresh``: there was one) leaves it, and after a round that wrote
        files the results of the rounds before it are cut short."""
        if fresh:
            drop_plan_call(self.messages)
        self.messages += execution_messages(tasks, self.phase.id, self.phase.rounds)
        tools = self.engine.tools
        if any(t.started_at is not None and tools.written_paths(t.tool, t.arguments)
               for t in tasks):
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
            self.detail) + language_ask(engine.language, "plan")})
        result = await engine.caller.call(
            "plan", self.messages, "plan_tool_call",
            plan_schema(engine.tools.offered_names(), settings.max_tasks_per_round,
                        engine.tool_parameters()),
            lambda args: parse_plan(args, names, settings.max_tasks_per_round, self.engine.check_arguments),
            counted=True, ack=lambda p: f"Accepted: {len(p.tasks)} task(s).")
        if result.value is None:
            self.messages.pop()
            engine.emit(Notice(level="warning", stage="plan",
                               message=f"Phase {phase.id}, round {phase.rounds}: no usable "
                                       "plan; the round ends without tasks."))
            return None
        self._notes("plan", result.value.notes)
        return result.value

    def _notes(self, stage: str, notes: tuple[str, ...]) -> None:
        for note in notes:
            self.engine.emit(Notice(level="warning", stage=stage, message=(
                f"Phase {self.phase.id}, round {self.phase.rounds}: the plan was repaired: "
                f"{note}.")))

    def _take_pending(self) -> Plan:
        """The round the judge (or the phase planner) already planned: no Plan call."""
        planned, self.pending = self.pending, Plan(tasks=())
        return planned

    def _looks_back(self, specs: tuple[TaskSpec, ...]) -> bool:
        """A plan that would only read back what the last round wrote ends the phase
        (``look_back``); the round is not counted, since none of it ran."""
        engine, phase = self.engine, self.phase
        look = looked_back(specs, phase.tasks, phase.rounds - 1, engine.tools.written_paths,
                           engine.tools.author.checks_failing)
        if look is None:
            return False
        said = (f"Phase {phase.id}, round {phase.rounds}: the plan only reads back "
                f"{', '.join(look.files)}, which round {phase.rounds - 1} wrote and the judge "
                "has the facts of; the phase ends without running it")
        phase.rounds -= 1
        self.round_starts.pop()
        if look.failing:
            failing = ", ".join(look.failing)
            engine.emit(Notice(level="warning", stage="plan", message=(
                f"{said}. Checks of the request's examples still fail for {failing} after "
                "every try at it.")))
            self._end("incomplete", f"checks of the request's examples still fail for {failing}")
        else:
            engine.emit(Notice(level="info", stage="plan", message=f"{said}."))
            self._end("completed")
        return True

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

    def _start(self, plan: Plan) -> list[Task]:
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
                                      tasks=[t.card() for t in tasks], mode=self.mode))  # type: ignore[arg-type]
        return tasks

    async def _judge_and_route(self, tasks: list[Task], facts: str) -> str:
        engine, phase = self.engine, self.phase
        if engine.accounting.exhausted:
            self._end("stopped", "the iteration budget is spent before the round was judged")
            return "done"
        judge, degraded = await self._judge(facts)
        self.engine.emit(apply_verdict(self.phase, judge, tasks, degraded=degraded))
        completed, action, strategy = await self._second_opinion(judge, tasks, degraded)
        unwritten = unwritten_writes(engine, phase) if completed else []
        if unwritten:
            completed = False
            now = {id(t) for t in tasks}
            action = "retry_failed" if any(id(t) in now for t in unwritten) else "continue_phase"
            strategy = "Write what is still missing: " + "; ".join(
                f"round {t.round} task {t.id} {t.tool} failed: {t.error[:200]}" for t in unwritten)
        next_tasks = judge.next_tasks
        if strategy or (completed, action) != (judge.phase_completed, judge.next_action):
            next_tasks = ()  # Think decided otherwise: the next round is planned afresh
        outcome = self._route(judge, tasks, completed, action, strategy)
        if phase.status == "running":
            self.pending = Plan(tasks=next_tasks, reasoning="planned by the judge")
        elif phase.status == "completed" and self.next_phase:
            self.handoff = next_tasks
        return outcome

    async def _judge(self, facts: str) -> tuple[Verdict, bool]:
        """The judge's verdict on the round, and whether it is the degraded stand-in."""
        engine, phase = self.engine, self.phase
        names, most = engine.tools.names(), engine.settings.max_tasks_per_round
        self.messages.append({"role": "user", "content": judge_instruction(
            phase.rounds, phase.rounds >= phase.max_rounds, self.next_phase, facts)
            + language_ask(engine.language, "judge")})
        result = await engine.caller.call(
            "judge", self.messages, "judge_tasks", judge_schema(engine.tools.offered_names(), most),
            lambda args: parse_judge(args, names, most, self.engine.check_arguments), counted=True,
            ack=lambda _: "Verdict recorded.")
        if result.value is None:
            return degraded_judge(result.problem), True
        trim_verdict(self.messages[-2])
        self._notes("judge", result.value.notes)
        return result.value, False

    async def _second_opinion(self, judge: Verdict, tasks: list[Task], degraded: bool
                              ) -> tuple[bool, str, str]:
        """(completed, next action, strategy): the verdict's, or Think's where it settles an
        open verdict without overclaiming."""
        completed, action, strategy = judge.phase_completed, judge.next_action, ""
        if not self._wants_think(judge, tasks, degraded):
            return completed, action, strategy
        thought = await self._think()
        if thought is None or self._overclaims(judge, tasks, thought):
            return completed, action, strategy
        completed = thought.phase_completed
        if not completed and not thought.continue_phase:
            action = "end_phase"
        elif not completed and action == "end_phase":
            action = "continue_phase"
        return completed, action, thought.next_round_strategy

    def _wants_think(self, judge: Verdict, tasks: list[Task], degraded: bool) -> bool:
        policy = self.engine.settings.think_stage
        if policy == "never" or degraded or self.engine.accounting.exhausted:
            return False
        if policy == "always":
            return True
        return verdict_is_open(judge, tasks)

    def _overclaims(self, judge: Verdict, tasks: list[Task], thought: ThinkDecision) -> bool:
        """Think may not call a phase complete that the judge found incomplete while writes of
        this round failed: the engine's record outweighs a second opinion without facts (a
        failed read, say of a file that does not exist, is Think's to weigh)."""
        tools = self.engine.tools
        failed = [t for t in failed_tasks(judge, tasks) if tools.written_paths(t.tool, t.arguments)]
        if not thought.phase_completed or judge.phase_completed or not failed:
            return False
        ids = ", ".join(str(t.id) for t in failed)
        self.engine.emit(Notice(level="warning", stage="think", message=(
            f"Phase {self.phase.id}, round {self.phase.rounds}: Think called the phase complete, "
            f"but the write{'s' if len(failed) > 1 else ''} of task{'s' if len(failed) > 1 else ''}"
            f" {ids} failed and the judge found it incomplete; the judge's verdict stands.")))
        return True

    async def _think(self) -> ThinkDecision | None:
        engine, phase = self.engine, self.phase
        self.messages.append({"role": "user", "content": think_instruction(phase.rounds)
                              + language_ask(engine.language, "think")})
        result = await engine.caller.call("think", self.messages, "think", THINK, parse_think,
                                          counted=True, ack=lambda _: "Noted.")
        if result.value is None:
            self.messages.pop()
            return None
        thought = result.value
        phase.thoughts.append(thought)
        engine.emit(Thought(phase_id=phase.id, round=phase.rounds,
                            phase_completed=thought.phase_completed,
                            continue_phase=thought.continue_phase,
                            next_round_strategy=thought.next_round_strategy,
                            user_summary=thought.user_summary))
        return thought

    def _route(self, judge: Verdict, tasks: list[Task], completed: bool, action: str,
               strategy: str) -> str:
        phase = self.phase
        if completed or action == "end_phase":
            self._end("completed" if completed else "incomplete",
                      judge.failed_reason or "the judge ended the phase before its goal")
            return "done"
        if judge.problem_level == "comprehension" and not self.engine.reanalysed:
            self._end("failed", judge.failed_reason or "the request was misunderstood")
            return "reanalyse"
        failed = failed_tasks(judge, tasks)
        if action == "retry_failed" and failed:
            if phase.consecutive_retries >= MAX_RETRIES_IN_A_ROW:
                self._end("failed", f"tasks still failing after {MAX_RETRIES_IN_A_ROW} retries")
                return "done"
            phase.consecutive_retries += 1
            self.mode = "retry"
            self.detail = level2(self.record, failed) + "\nFailed tasks:\n" + "\n".join(
                f"- task {t.id} {t.tool} {t.arguments}: {t.error or 'judged failed'}"
                for t in failed)
            return "done"
        phase.consecutive_retries = 0
        if action == "replan" or judge.problem_level == "planning" and failed:
            self.mode = "replan"
            self.detail = judge.failed_reason or strategy
        else:
            self.mode = "plan"
            self.detail = strategy
        return "done"
