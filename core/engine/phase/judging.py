"""After a round's Execute: the verdict (the engine's own where the facts settle it, else the
judge's), Think when the verdict leaves the decision open, and the routing to the next round.

Routing follows the verdict: end_phase / continue_phase / retry_failed (the next plan gets
only the failed tasks and the judge's reasons; at most three retries in a row) / replan; a
``comprehension`` problem asks the engine to re-analyse the request (once per run). A judge
that already knows the next round's tasks gives them (``next_tasks``): that round runs without
a Plan call — more work of the phase, the failed tasks corrected, or, when the phase ends
completed, the first round of the next phase (``handoff``).
"""

from __future__ import annotations

from dataclasses import replace

from core.engine.phase.engine_verdict import draft_writes, engine_verdict, first_writes
from core.engine.phase.host import PhaseHost
from core.engine.phase.messages import trim_verdict
from core.engine.phase.verdicts import apply_verdict, degraded_judge, failed_tasks, \
    unwritten_writes, verdict_is_open
from core.engine.stages.instructions import judge_instruction, language_ask, think_instruction
from core.engine.reports import PhaseRecord, level2
from core.engine.stages.schemas import THINK, judge_schema, parse_judge, parse_think
from core.engine.verification.state import VerificationState
from core.events import Notice, Thought
from core.llm.base import Message
from core.shapes.phase import Phase, PhaseStatus
from core.shapes.stage_results import Plan, TaskSpec, ThinkDecision, Verdict
from core.shapes.task import Task
from core.tools.code_checks import write_facts

MAX_RETRIES_IN_A_ROW = 3


class Judging:
    """The verdict half of a phase's rounds (``PhaseRounds`` is the other)."""

    engine: PhaseHost
    phase: Phase
    record: PhaseRecord
    messages: list[Message]
    next_phase: str
    mode: str
    detail: str
    pending: Plan
    handoff: tuple[TaskSpec, ...]
    drafted: int  # the round that wrote the draft's files (0: none)

    def _end(self, status: PhaseStatus, reason: str = "") -> None:
        raise NotImplementedError

    async def _judge_and_route(self, tasks: list[Task], facts: str) -> str:
        engine, phase = self.engine, self.phase
        # the files do not change until the next round
        state = await engine.current_state(last_phase=not self.next_phase)
        verdict = await self._settled(tasks, state)
        if verdict is None and engine.accounting.exhausted:
            self._end("stopped", "the iteration budget is spent before the round was judged")
            return "done"
        judge, degraded = (verdict, False) if verdict is not None else await self._judge(
            facts + failing_facts(state))
        engine.emit(replace(apply_verdict(phase, judge, tasks, degraded=degraded),
                            by_engine=verdict is not None))
        completed, action, strategy = (judge.phase_completed, judge.next_action, "") \
            if verdict is not None else await self._second_opinion(judge, tasks, degraded)
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
            self.pending = Plan(tasks=next_tasks, reasoning="the files the draft gives"
                                if verdict is not None else "planned by the judge")
        elif phase.status == "completed" and self.next_phase:
            self.handoff = next_tasks
        return outcome

    async def _settled(self, tasks: list[Task], state: VerificationState) -> Verdict | None:
        """The engine's verdict where the round's facts and the files' ``state`` settle it
        (``engine_verdict``)."""
        engine, phase = self.engine, self.phase
        authoring = engine.authoring
        wrote = sorted({path for t in tasks for path in t.changed})
        failing = [p for p in wrote if authoring and p in authoring.failing_files()]
        texts = authoring.written_texts(wrote) if authoring else {}
        renamed = frozenset(rename.old for rename in engine.tracker.renames)
        broken = [fact for path, text in texts.items()
                  for fact in write_facts(path, authoring.files[path].original, text, renamed)
                  if "does not parse" in fact or "no longer defines" in fact
                  or fact.startswith("WARNING")] if authoring else []
        changes = engine.writes_wanted
        unwritten = await authoring.unwritten_drafts(engine.changed_files) \
            if authoring and changes and wrote and not failing and not broken else []
        if state.state == "failing" and not failing and not unwritten:
            return None  # a check the authoring stage does not make fails: the judge decides
        verdict = engine_verdict(
            tasks, wrote, failing, broken, unwritten, changes_requested=changes,
            written_before=bool(engine.changed_files) and not wrote,
            last_phase=not self.next_phase, last_round=phase.rounds >= phase.max_rounds,
            checked=state.line if state.checked else "", drafted=phase.rounds == self.drafted)
        if verdict is None or verdict.phase_completed or verdict.next_action == "end_phase" \
                or authoring is None:
            return verdict
        specs = draft_writes(unwritten) if unwritten else await self._draft_writes()
        return replace(verdict, next_tasks=specs) if specs else None

    async def _draft_writes(self) -> tuple[TaskSpec, ...]:
        """The writes of the files the one-shot draft gives (asked now if no write asked it
        yet) that a round makes without a Plan call (``first_writes``); () when none."""
        engine = self.engine
        if engine.authoring is None:
            return ()
        given = await engine.authoring.draft_files()
        return draft_writes(first_writes(given, engine.reading, engine.run_state.workspace))

    async def _judge(self, facts: str) -> tuple[Verdict, bool]:
        """The judge's verdict on the round, and whether it is the degraded stand-in."""
        engine, phase = self.engine, self.phase
        names, most = engine.tools.names(), engine.settings.max_tasks_per_round
        self.messages.append({"role": "user", "content": judge_instruction(
            phase.rounds, phase.rounds >= phase.max_rounds, self.next_phase, facts)
            + language_ask(engine.language, "judge")})
        result = await engine.caller.call(
            "judge", self.messages, "judge_tasks", judge_schema(engine.tools.offered_names(), most),
            lambda args: parse_judge(args, names, most, engine.check_arguments), counted=True,
            ack=lambda _: "Verdict recorded.")
        if result.value is None:
            return degraded_judge(result.problem), True
        trim_verdict(self.messages[-2])
        for note in result.value.notes:
            engine.emit(Notice(level="warning", stage="judge", message=(
                f"Phase {phase.id}, round {phase.rounds}: the plan was repaired: {note}.")))
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
        this round failed: the engine's record outweighs a second opinion without facts."""
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


def failing_facts(state: VerificationState) -> str:
    """What fails on the files as they are now, for the judge (a rename not done)."""
    if state.state != "failing":
        return ""
    return "\nChecks the engine made on the files as they are now: " + " ".join(state.sentences)
