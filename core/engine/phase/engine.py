"""The phase engine, ``PhaseTaskExecutor``: analyse → plan phases → per phase
Plan/Execute/Judge/Think → summary, streamed as events (the window shows them as cards).

Stage 0 runs in a throwaway context holding the raw request; the execution context
starts from the structured request. A simple request estimated at one phase gets that
one phase without a phase_planner call; otherwise the phase planner may also give the
first phase's first tasks, so that round needs no Plan call. Every call of the run after
the analysis starts with the same prefix (system prompt with the tool catalogue,
structured request), so a provider's prompt cache can serve it; each stage's own
instruction comes last. Every stage forces its own tool. The budget counts phase planning
and every Plan/Judge/Think call; analysis and the summary are outside it.

The analysis also reads the request (``core.shapes.reading``): what it changes, creates, only
reads or forbids, its examples, renames and the tools it needs first. The engine checks that
reading (``core.engine.reading``) and the run follows it. A requirement is the person's only
where its quote is in the request; the others are assumptions, listed after them in the
structured request and never counted in the outcome.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from core.events import Clarification, Notice, PhaseFinished, PhasesPlanned, RequestAnalysed, \
    Summary
from core.llm.base import Message
from core.shapes.phase import Phase
from core.engine.phase.dependencies import block, blocked_by, missing_work
from core.engine.phase.rounds import PhaseRounds
from core.engine.stages.instructions import AGENT_SYSTEM, PHASE_PLANNER_INSTRUCTION, \
    SUMMARIZER_SYSTEM, execution_request, language_ask, reanalyse_user, summary_request, \
    tool_catalogue
from core.engine.reports import PhaseRecord, level1
from core.engine.execution.scheduler import order_phases
from core.engine.phase.stall import Done
from core.schema import coerce
from core.shapes.stage_results import Analysis, PhasePlan, PlannedPhase, TaskSpec
from core.engine.stages.schemas import parse_phase_plan, phase_planner_schema
from core.engine.base import EngineBase
from core.engine.execution.offered import check_write
from core.engine.reports import related_results
from core.engine.stages.analysis import analyse_request

SINGLE_PHASE_ROUNDS = 2
PLANNED_PHASES = 3  # work estimated at this many phases is phase-planned even if not complex


class PhaseTaskExecutor(EngineBase):
    """Runs a request in phases and streams Plan/Execute/Judge/Think events (the design's
    ``PhaseTaskExecutor``; the window drives it over the asyncio bridge)."""

    engine_name = "phase"

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.records: list[PhaseRecord] = []
        self._current: PhaseRecord | None = None
        self._prior = ""  # the language of the analysis a clarification answer continues
        self.reanalysed = False
        self.actions: dict[str, Done] = {}
        self.analysis_text = ""
        self._answer_files = ""  # the workspace's files, for the answer to a question

    def on_file_changed(self, path: str) -> None:
        if self._current is not None and path not in self._current.changed_files:
            self._current.changed_files.append(path)

    def position(self) -> tuple[int, int]:
        phase = self._current.phase if self._current is not None else None
        return (phase.id, phase.rounds) if phase is not None else (0, 0)

    async def work(self, request: str, previous: dict | None) -> str:
        prior = (previous or {}).get("language")
        self._prior = prior if isinstance(prior, str) else ""
        self.tally.person_requirements([], request)  # until an analysis lists them
        analysis = await self.analyse(request, previous)
        while True:
            self.tally.goal = analysis.core_goal
            self.tally.person_requirements(list(analysis.requirements), request)
            self.tally.assumptions = list(analysis.assumptions)
            self.language = analysis.language
            self.emit(RequestAnalysed(core_goal=analysis.core_goal,
                                      requirements=analysis.requirements,
                                      constraints=analysis.constraints,
                                      complexity=analysis.complexity,
                                      estimated_phases=analysis.estimated_phases,
                                      language=analysis.language,
                                      assumptions=analysis.assumptions,
                                      reading=self.reading.as_json()))
            analyst = self.caller.roles.for_stage("request_analyser")
            if analysis.clarification_needed and not (
                    analyst.capabilities.clarification_trusted and self.can_ask):
                analysis = self.assume(analysis)
            elif analysis.clarification_needed:
                self.emit(Clarification(questions=analysis.clarification_questions,
                                        analysis=analysis.__dict__.copy()))
                return "clarification_needed"
            outcome = await self.run_phases(analysis)
            if outcome != "reanalyse":
                return outcome
            self.reanalysed = True
            for record in self.records:
                if record.phase.status == "pending":
                    record.phase.status = "superseded"
            problem = self.records[-1].phase.failed_reason or "the judge flagged it"
            analysis = await self.analyse(request, None, reanalyse_user(
                request, analysis.as_text(), problem))

    def assume(self, analysis: Analysis) -> Analysis:
        """Go on with the request as written, the unanswered questions recorded as an
        assumption in the structured request."""
        questions = "; ".join(analysis.clarification_questions)
        analyst = self.caller.roles.for_stage("request_analyser")
        why = ("it cannot judge that reliably" if not analyst.capabilities.clarification_trusted
               else "nobody can answer in this run")
        self.emit(Notice(level="info", stage="request_analyser", message=(
            f"The model asked for clarification ({questions}); {why}, so the run continues "
            "with the request as it is.")))
        assumed = f"Unanswered questions ({questions[:300]}): proceed on the request as written"
        return replace(analysis, clarification_needed=False, clarification_questions=[],
                       constraints=[*analysis.constraints, assumed])

    def summary_context(self) -> list[Message]:
        """The person's words, without the agent's tool catalogue: the summarizer offers its
        own tool (so no cached prefix is shared with the rounds), plans nothing and reports
        on what the rounds did. A request that asks no change is answered here, so the
        summarizer also gets the workspace's files as the model alone would (the one-shot
        prompt's listing, bounded): the answer is never less informed than the model's own."""
        words = summary_request(self.request, self.memory)
        if self._answer_files:
            words += f"\n\nThe workspace's files:\n\n{self._answer_files}"
        request: list[Message] = [{"role": "user", "content": words}] \
            if self.base_messages else []
        return [{"role": "system", "content": SUMMARIZER_SYSTEM}, *request]

    async def model_summary(self) -> Summary:
        if not self.tally.changes_requested and self.base_messages:
            self._answer_files = await asyncio.to_thread(self.files_shown)
        return await super().model_summary()

    async def analyse(self, request: str, previous: dict | None, again: str = "") -> Analysis:
        """The analysis, its language settled from the request's script and the model's
        answer (``language.decide``), and its reading checked and taken (``apply_reading``);
        without a usable analysis, the request as its goal. ``again``: the user turn of a
        re-analysis."""
        analysis = await analyse_request(self, request, previous, self._prior, again)
        return self.ground(analysis)

    async def run_phases(self, analysis: Analysis) -> str:
        self.analysis_text = analysis.as_text()
        system = AGENT_SYSTEM.format(tools=tool_catalogue(self.tools.schemas()))
        files = await asyncio.to_thread(self.workspace_view)
        self.base_messages = [{"role": "system", "content": system},
                              {"role": "user", "content": execution_request(
                                  analysis.as_text(), self.memory, files)}]
        if self.accounting.exhausted:
            return "budget_exhausted"
        plan = await self.plan_phases(analysis)
        self.emit(PhasesPlanned(phases=[p.card() for p in plan.phases],
                                execution_strategy=plan.execution_strategy))
        new_records = self._ordered(plan)
        self.records.extend(new_records)
        self.tally.records = self.records
        handoff: tuple[TaskSpec, ...] = plan.first_tasks
        planned = {r.phase.id: r.phase for r in new_records}
        for index, record in enumerate(new_records, start=1):
            if self.accounting.exhausted:
                return "budget_exhausted"
            if why := blocked_by(record.phase, planned):
                block(record.phase, why, self.emit)
                handoff = ()
                continue
            if index > 1 and self._settled_by_draft(new_records[index - 1:]):
                break
            earlier = "\n".join(level1(r) for r in self.records if r.phase.status != "pending"
                                and r is not record)
            earlier = "\n\n".join(filter(None, (earlier, missing_work(record.phase, planned))))
            self._current = record
            following = new_records[index].phase if index < len(new_records) else None
            runner = PhaseRounds(self, record, index, len(new_records),
                                 draft_first=index == 1 and not plan.first_tasks,
                                 next_phase=f"{following.name} — {following.goal}"
                                 if following else "", carried=handoff,
                                 carried_by="planned with the phases" if index == 1 else
                                 "planned by the judge when the previous phase ended")
            outcome = await runner.run(earlier, record.phase.goal == analysis.core_goal)
            handoff = runner.handoff
            self._current = None
            if outcome == "reanalyse" and not self.reanalysed:
                return "reanalyse"
        if any(r.phase.status == "stopped" for r in self.records) or \
                any(r.phase.status == "pending" for r in self.records):
            return "budget_exhausted"
        return "completed"

    def _ordered(self, plan: PhasePlan) -> list[PhaseRecord]:
        """The planned phases as records, in the order their dependencies allow."""
        cap = self.settings.max_rounds_per_phase
        phases = {p.id: Phase(id=p.id, name=p.name, goal=p.goal,
                              estimated_rounds=p.estimated_rounds,
                              dependencies=list(p.dependencies),
                              max_rounds=min(p.estimated_rounds + 2, cap))
                  for p in plan.phases}
        order = order_phases({pid: ph.dependencies for pid, ph in phases.items()}, list(phases))
        return [PhaseRecord(phases[pid]) for pid in order]

    def _settled_by_draft(self, rest: list[PhaseRecord]) -> bool:
        """When the draft settles a request to change files (``AuthoringStage.settled``),
        the phases not run yet are superseded: they could not replace what it wrote."""
        files = self.authoring.settled() if self.authoring is not None and \
            self.writes_wanted else []
        if not files:
            return False
        why = (f"the draft wrote {', '.join(files[:4])}, every file the request names, and no "
               "check fails on it; a later write would replace it only on better evidence")
        self.emit(Notice(level="info", message=(
            f"Phases {', '.join(str(r.phase.id) for r in rest)} are not run: {why}.")))
        for record in rest:
            record.phase.status = "superseded"
            self.emit(PhaseFinished(phase_id=record.phase.id, status="superseded", rounds=0,
                                    tasks_done=0, tasks_total=0, summary=f"Not run: {why}."))
        return True

    async def plan_phases(self, analysis: Analysis) -> PhasePlan:
        """The phase plan: one phase without a model call for work the analysis does not call
        complex (unless it estimates three phases or more), else from phase_planner (its call
        and answer stay out of the shared prefix). The embedded Qwen called a one-function
        exercise medium, two phases, and planned "Read Input", "Define" and "Test" phases
        that took 23 calls."""
        single = PhasePlan(phases=(PlannedPhase(
            id=1, name="Main", goal=analysis.core_goal,
            estimated_rounds=max(SINGLE_PHASE_ROUNDS, analysis.estimated_phases)),))
        if analysis.complexity != "complex" and analysis.estimated_phases < PLANNED_PHASES:
            return single
        messages = self.base_messages + [{"role": "user", "content": PHASE_PLANNER_INSTRUCTION
                                          + language_ask(self.language, "phase_planner")}]
        names, most = self.tools.names(), self.settings.max_tasks_per_round
        result = await self.caller.call(
            "phase_planner", messages, "phase_planner",
            phase_planner_schema(self.tools.offered_names(), most),
            lambda args: parse_phase_plan(args, names, most, self.check_arguments),
            counted=True, ack=lambda d: f"{len(d.phases)} phase(s) accepted.")
        if result.value is None:
            return single
        for note in result.value.notes:
            self.emit(Notice(level="warning", stage="phase_planner",
                             message=f"The phase plan was repaired: {note}."))
        return result.value

    def ground(self, analysis: Analysis) -> Analysis:
        """The analysis with the requirements whose quote is not in the request moved to its
        assumptions (the checked reading decides)."""
        reading = self.reading
        self.tally.quotes = {r.text: r.quote for r in reading.requirements}
        return replace(analysis, requirements=[r.text for r in reading.requirements],
                       assumptions=[*analysis.assumptions, *reading.assumptions])

    def check_arguments(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """A task's arguments checked against its tool's parameters."""
        checked = coerce(arguments, self.tools.parameters(tool))
        check_write(tool, checked)
        return checked

    def tool_parameters(self) -> dict[str, dict[str, Any]]:
        """Each offered tool's parameter schema, MCP tools included, for the plan schemas."""
        return self.tools.offered_parameters()

    def related_results(self, task_id: int) -> str:
        """What the write's dependencies and the phase's earlier reads found."""
        record = self._current
        if record is None:
            return ""
        phase = record.phase
        task = next((t for t in reversed(phase.tasks) if t.id == task_id
                     and t.round == phase.rounds), None)
        wanted = set(task.dependencies) if task is not None else set()
        return related_results(phase.tasks, wanted)

    def finish_phases(self) -> None:
        for record in self.records:
            if record.phase.status == "running":
                record.phase.status = "stopped"
