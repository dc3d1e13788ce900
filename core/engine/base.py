"""What both engines share: the event stream, Stop, approvals, writes, and the guaranteed ending.

``run`` is an async generator. The work runs in its own task and puts events on a
queue; whatever happens — success, an exhausted budget, a model that misbehaves or
cannot be reached, an internal error, ``cancel()`` or ``task.cancel()`` on the
consumer — the stream ends with exactly one ``Summary`` and one ``RunFinished``.
A second Stop makes the summary come without the model, at once. An empty request is
refused before any model call: an error notice, then the summary and ``RunFinished``.

Both engines write files through the same authoring stage (drafts first, evidence decides)
and end the same way: the verification state from what ran (``verification``), the
person's requirements with evidence from the record, the summary's claims held to what ran,
and the outcome decided from all of it, never from a model's word alone.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import AsyncIterator

from core.approval import ApprovalBroker
from core.config import Settings
from core.engine.assists import Assists, parse_off
from core.engine.authoring.draft import shown_within
from core.engine.authoring.stage import AuthoringStage
from core.engine.execution.kept_inputs import KeptInputs
from core.engine.execution.offered import OfferedTools
from core.engine.execution.task_runner import TaskRunner
from core.engine.understanding import RequestHolder
from core.engine.stages.caller import Accounting, RunAborted, StageCaller
from core.engine.summary import RunTally, SummaryUnavailable, fallback_summary, model_summary
from core.engine.verification.citations import Citation, cited
from core.engine.verification.outcome import decide_outcome
from core.engine.verification.state import VerificationState
from core.engine.verification.tracker import Known, Tracker
from core.events import Event, FileChanged, Notice, RunFinished, RunStarted, Summary, \
    TaskFinished
from core.llm.base import ChatModel, Message
from core.shapes.reading import Reading
from core.shapes.task import Task
from core.secrets import scrub_event
from core.tools.base import RunState, ToolManager
from core.tools.overview import overview
from core.tools.text_files import collect
from core.tools.workspace_tests import tests_hint

log = logging.getLogger(__name__)


class EngineBase(RequestHolder):
    engine_name = "phase"

    def __init__(self, model: ChatModel, tools: ToolManager, settings: Settings,
                 workspace: Path, *, run_id: str | None = None, memory: str = "",
                 thinking: ChatModel | None = None, can_ask: bool = True) -> None:
        """``thinking``: the separate model of the thinking stages, owned by the engine (closed
        when the run ends); ``model`` belongs to the caller, who closes it. ``can_ask``:
        someone can answer a clarification (not headless --yes)."""
        self.model = model
        self.can_ask = can_ask  # someone can answer a clarification (not headless --yes)
        self.tools = OfferedTools(tools, authored=settings.author_files)
        self.settings = settings
        self.memory = memory
        self.run_id = run_id or uuid.uuid4().hex
        self.run_state = RunState(workspace=Path(workspace).resolve(), run_id=self.run_id,
                                  command_sandbox=settings.command_sandbox,
                                  command_network=settings.command_network,
                                  honour_gitignore=settings.honour_gitignore)
        self.accounting = Accounting(budget=settings.max_iterations)
        window = getattr(model, "context_window", None)
        self.context_window = min(settings.context_window, window or settings.context_window)
        self.approvals = ApprovalBroker(settings, self.emit)
        self.caller = StageCaller(model, self.accounting, self.emit, thinking, self.position)
        self.assists = Assists(parse_off(settings.assists_off), self.emit)
        self.authoring = authoring_stage(settings, model.provider, self.caller,
                                         self.run_state.workspace, self.assists,
                                         self.related_results)
        self.reading = Reading()  # what the request asks, checked (``apply_reading``)
        self.shown_paths: set[str] = set()  # files whose text a prompt carried
        self.citations: list[Citation] = []  # the lines an answer cites (``citations``)
        self.changes_forbidden = ""  # why every write is refused ("" when none is)
        self.inputs = KeptInputs(self.run_state)  # the files a request only reads
        if self.authoring is not None:
            self.authoring.inputs = self.inputs
        self.runner = TaskRunner(tools, self.run_state, self.approvals, self.emit,
                                 settings.max_parallel_tasks, self.authoring,
                                 refused=self.write_refused)
        self.tracker = Tracker(self.run_state.workspace, settings.command_sandbox,
                               faults=self.authoring.faults_of if self.authoring else None,
                               test_command=settings.test_command)
        self.verification = VerificationState()
        self.tally = RunTally(status="failed")
        self._language = ""  # the person's, once the engine knows it ("" reads as English)
        self.base_messages: list[Message] = []
        self.request = ""  # the person's words, as given to ``run``
        self.changed_files: list[str] = []
        self.file_changes = 0
        self._queue: asyncio.Queue[Event] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._stops = 0
        self._finished = False
        self._unreachable = False

    def emit(self, event: Event) -> None:
        """Queue ``event`` for the consumer, with every known API key redacted from it."""
        if isinstance(event, FileChanged):
            self.file_changes += 1
            task = self.task_of(event.phase_id, event.task_id)
            if task is not None and event.path not in task.changed:
                task.changed.append(event.path)
        if isinstance(event, FileChanged) and event.path not in self.changed_files:
            self.changed_files.append(event.path)
            self.on_file_changed(event.path)
        if isinstance(event, TaskFinished):
            task = self.task_of(event.phase_id, event.task_id, finished=True)
            if task is not None:
                self.tracker.task_finished(task, self.file_changes)
        self._queue.put_nowait(scrub_event(event))

    def on_file_changed(self, path: str) -> None:
        """Hook for engines that attribute changes to a phase."""

    def task_of(self, phase_id: int, task_id: int, finished: bool = False) -> Task | None:
        """The task of ``phase_id`` with ``task_id`` that is running (``finished``: that
        has just finished), if any."""
        for record in self.tally.records:
            if record.phase.id != phase_id:
                continue
            for task in reversed(record.phase.tasks):
                if task.id == task_id and (task.finished if finished else
                                           task.status == "running"):
                    return task
        return None

    def workspace_view(self) -> str:
        """The workspace's files for the run's first user turn, and how to run its tests when
        it has some and commands are offered (reads the workspace: run it in a thread)."""
        text = overview(self.run_state.gate)
        hint = tests_hint(self.run_state.workspace) if "run_command" in \
            self.tools.offered_names() else ""
        return f"{text}\n\n{hint}" if hint else text

    def files_shown(self) -> str:
        """The workspace's files as the one-shot prompt shows them (through the run's gate),
        within about a quarter of the context window: what a question is answered with."""
        listing = collect(self.run_state.gate, self.request, self.context_window)
        self.shown_paths.update(listing.paths)
        return shown_within(listing)

    def related_results(self, task_id: int) -> str:
        """Hook: the results a write of task ``task_id`` builds on ("" for none)."""
        return ""

    def position(self) -> tuple[int, int]:
        """Hook: (phase id, round) the next model call works for; (0, 0) outside the rounds."""
        return 0, 0

    def cancel(self) -> None:
        """Stop: the work stops and the summary follows; a second Stop skips the model."""
        self._stops += 1
        if self._worker is not None and not self._worker.done():
            self._worker.cancel()

    def answer_approval(self, request_id: str, decision: str) -> bool:
        return self.approvals.answer(request_id, decision)

    async def run(self, request: str, *, previous_analysis: dict | None = None
                  ) -> AsyncIterator[Event]:
        if self._worker is not None:
            raise RuntimeError("an engine runs one request; create another for the next")
        self._worker = asyncio.create_task(self._drive(request, previous_analysis))
        self._worker.add_done_callback(self._ensure_ending)
        try:
            while True:
                try:
                    event = await self._queue.get()
                except asyncio.CancelledError:
                    _uncancel()
                    self.cancel()
                    continue
                yield event
                if isinstance(event, RunFinished):
                    return
        finally:
            if not self._worker.done():
                self._worker.cancel()

    def _ensure_ending(self, worker: asyncio.Task[None]) -> None:
        """If the worker died before it could end the stream (cancelled before it started),
        end it here without the model."""
        if self._finished:
            return
        self.tally.status = "cancelled" if worker.cancelled() else "failed"
        self._end(fallback_summary(self.tally, "the run ended before it started"), 0.0)

    async def _drive(self, request: str, previous: dict | None) -> None:
        started = time.monotonic()
        self.request = request
        self.reading = Reading(words=request)
        self.emit(RunStarted(run_id=self.run_id, engine=self.engine_name,  # type: ignore[arg-type]
                             request=request, provider=self.model.provider,
                             model=self.model.name, workspace=str(self.run_state.workspace),
                             budget=self.accounting.budget))
        if not request.strip():
            self.tally.reason = "the request is empty"
            self.emit(Notice(level="error", message="The request is empty: say what the agent "
                                                    "should do. No model was asked."))
            await self._close_thinking()
            self._end(fallback_summary(self.tally, "there was nothing to do"), 0.0)
            return
        try:
            await self.tools.open(self.emit)
            self.apply_reading(await self.read_request({}, []))
            await self.caller.prepare(self.run_state.gate, self.approvals, self.request)
            self.tally.status = await self.work(request, previous)
        except asyncio.CancelledError:
            _uncancel()
            self.tally.status, self.tally.reason = "cancelled", "stopped by the person"
        except RunAborted as exc:
            self._unreachable = exc.unreachable
            self.tally.status, self.tally.reason = "failed", exc.message
        except Exception as exc:
            log.exception("engine error")
            self.tally.status = "failed"
            self.tally.reason = f"internal error: {type(exc).__name__}: {exc}"
            self.emit(Notice(level="error", message=f"Internal error: {exc}"))
        await self._close_tools()
        self.finish_phases()
        await self._verify()
        summary = await self._summarize()
        await self._close_thinking()
        if not self.changed_files and summary.final_summary:
            texts = await asyncio.to_thread(self.read_texts)
            self.citations = cited(summary.final_summary, texts)
            if self.citations:
                first = self.citations[0]
                self.verification = VerificationState(
                    "verified", f"the answer cites {first.path}, line {first.line}",
                    ("The answer cites " + "; ".join(c.sentence() for c in self.citations)
                     + ".",), changed=False)
        self._end(summary, time.monotonic() - started)

    async def _close_tools(self) -> None:
        """Stop what the tools started (MCP servers) before the summary; a Stop pressed
        meanwhile does not leave them running."""
        while True:
            try:
                await self.tools.close()
                return
            except asyncio.CancelledError:
                _uncancel()
            except Exception as exc:
                log.exception("closing the tools failed")
                self.emit(Notice(level="error", message=f"Stopping the tools failed: {exc}"))
                return

    async def current_state(self, last_phase: bool = True) -> VerificationState:
        """The verification state of the files as they are now, from the checks that ran
        (the workspace's tests are not run for it); before the ``last_phase`` a file the
        request tells the agent to write may still come, so its absence fails nothing."""
        return await self.tracker.state(self.changed_files, self.file_changes,
                                        may_run_tests=False, known=self._examples_known(),
                                        whole_request=last_phase)

    def _examples_known(self) -> Known | None:
        """Where the authoring stage already ran the request's examples on a file's text."""
        return self.authoring.examples_run if self.authoring is not None else None

    async def _verify(self) -> None:
        """The verification state of the files as the run leaves them (the workspace's tests
        may run here, without the model; a Stop meanwhile leaves the state unverified)."""
        try:
            self.verification = await self.tracker.state(self.changed_files, self.file_changes,
                                                         known=self._examples_known())
        except asyncio.CancelledError:
            _uncancel()
        except Exception as exc:
            log.exception("verification failed")
            self.emit(Notice(level="error", message=f"Checking the final files failed: {exc}"))
        self.tally.verification = self.verification
        if self.tracker.final_tests:
            self.emit(Notice(level="info", stage="verify", message=self.tracker.final_tests))

    async def _close_thinking(self) -> None:
        """Close the thinking model once the summary is written; a Stop pressed meanwhile does
        not leave its connections open."""
        while True:
            try:
                await self.caller.roles.aclose_thinking()
                return
            except asyncio.CancelledError:
                _uncancel()
            except Exception as exc:
                log.warning("closing the thinking model failed: %r", exc)
                return

    async def _summarize(self) -> Summary:
        if self.tally.status == "clarification_needed":
            return fallback_summary(self.tally)
        if self._unreachable:  # the call that failed, and why, as the run recorded it
            return fallback_summary(self.tally, f"a model call failed, so none was tried for "
                                                f"the summary ({self.tally.reason})")
        if self._stops >= 2:
            return fallback_summary(self.tally, "Stop was pressed twice")
        try:
            summary = await self.model_summary()
        except asyncio.CancelledError:
            _uncancel()
            return fallback_summary(self.tally, "Stop was pressed while it was being written")
        except RunAborted as exc:
            return fallback_summary(self.tally, exc.message)
        except SummaryUnavailable as exc:
            return fallback_summary(self.tally, f"the summarizer failed: {exc}")
        except Exception as exc:
            log.exception("summarizer error")
            return fallback_summary(self.tally, f"internal error: {exc}")
        return summary

    def _end(self, summary: Summary, elapsed: float) -> None:
        if self._finished:
            return
        self._finished = True
        acc, state = self.accounting, self.verification
        outcome = decide_outcome(self.tally.status, self.tally.records, acc.usable,
                                 summary.requirements, state, answered=self.answered(),
                                 changes_requested=self.tally.changes_requested,
                                 cited=bool(self.citations))
        self.emit(self._held(summary, outcome))
        self.emit(RunFinished(status=self.tally.status,  # type: ignore[arg-type]
                              llm_calls=acc.calls, prompt_tokens=acc.prompt_tokens,
                              completion_tokens=acc.completion_tokens,
                              elapsed_s=round(elapsed, 3), outcome=outcome,
                              verification=state.state, verification_line=state.line))

    def _held(self, summary: Summary, outcome: str) -> Summary:
        """``summary`` with the engine's facts: its outcome, verification state and
        assumptions (the model's prose stays its own, shown under them)."""
        state = self.verification
        sentences = list(state.sentences)
        if not self.changed_files and not self.citations and outcome == "unverified":
            sentences.append("The answer cites no line of a file the run read.")
        return dataclasses.replace(summary, outcome=outcome, verification=state.state,  # type: ignore[arg-type]
                                   verification_line=state.line,
                                   verification_sentences=sentences,
                                   assumptions=list(self.tally.assumptions))

    def answered(self) -> bool:
        """Hook: the model answered the request itself (the classic loop's text answer)."""
        return False

    async def model_summary(self) -> Summary:
        """The summary from the model (forced summarizer, outside the budget); raises
        ``SummaryUnavailable`` when its reply cannot be used."""
        return await model_summary(self.caller, self.summary_context(), self.tally,
                                   self.context_window, self.language)

    def summary_context(self) -> list[Message]:
        return list(self.base_messages)

    def finish_phases(self) -> None:
        """Hook: mark unfinished work as stopped before the summary is written."""

    async def work(self, request: str, previous: dict | None) -> str:
        """The engine's own work; returns the run status."""
        raise NotImplementedError


def authoring_stage(settings: Settings, provider: str, caller: StageCaller, workspace: Path,
                    assists: Assists, related: Callable[[int], str]) -> AuthoringStage | None:
    """The run's authoring stage as the settings have it (None when files are not written as
    code): its test command, and how many candidates it samples, how hot and how many at once
    (one at a time on the offline model)."""
    if not settings.author_files:
        return None
    stage = AuthoringStage(caller, workspace, assists, settings.command_sandbox, related)
    stage.test_command = settings.test_command
    stage.candidates = settings.candidates
    stage.temperature = settings.candidate_temperature
    stage.parallel = 1 if provider == "embedded" else settings.parallel_calls
    return stage


def _uncancel() -> None:
    task = asyncio.current_task()
    if task is not None and hasattr(task, "uncancel"):
        task.uncancel()
