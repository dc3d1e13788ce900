"""The classic reasoning loop (``use_phase_task`` off): the ReAct-style baseline of seed 003.

The model sees the request and every workspace tool with ``tool_choice`` "auto". A reply
with tool calls runs them concurrently (each answered by its tool message); a text reply is
the answer, unless it only repeats a tool message (``answers``) or is a call written as JSON
that cannot be read (the model is told why, once, and asked to make the call again; written
so again, it is no answer). Repeating an identical call
is a loop: the model is told once, the second time the loop ends. Without a text answer a
forced ``summarizer`` call (outside the budget) writes the summary. The same events as the
phase engine are emitted: one pseudo phase whose rounds are the model's tool batches. Its
writes go through the same authoring stage (drafts first), and its outcome is held to the
same rules: the request is its one requirement, with evidence from what ran, and the run's
verification state decides, not its final message. The draft is the floor here too: an
answer that leaves files the draft gives and the request names unwritten is not taken at
once; the engine writes them (the draft's content, no model call), tells the model, and asks
for the answer again (once per run).
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any, Literal

from core.engine.base import EngineBase
from core.engine.classic.answers import echoed, named_tool
from core.engine.classic.loop_detector import LoopDetector
from core.engine.context import compact, rounds_digest
from core.engine.execution.offered import WRITE, check_write
from core.engine.execution.task_runner import for_model
from core.engine.stages.analysis import analyse_request
from core.engine.stages.instructions import CLASSIC_SYSTEM, classic_request, language_ask
from core.engine.reports import PhaseRecord, related_results
from core.engine.stages.caller import assistant_calls, clip, tool_message
from core.events import ContextCompacted, Notice, PhaseFinished, PhaseStarted, Summary, TasksPlanned
from core.llm.base import Message, ModelError, ToolCall
from core.llm.text_calls import broken_call
from core.shapes.phase import Phase
from core.shapes.task import Task
from core.schema import SchemaError, coerce

LOOP_NOTE = ("Loop detected: you already made this exact call ({call}); its result is above. "
             "Do not repeat it — answer now, or try something different.")


class ClassicEngine(EngineBase):
    engine_name = "classic"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.messages: list[Message] = []
        self.answer: str | None = None
        self.phase = Phase(id=1, name="Reasoning loop", goal="", max_rounds=0)
        self.record = PhaseRecord(self.phase)
        self.loops = LoopDetector()
        self._round_starts: list[int] = []
        self._drafts_written = False
        self._named_tool = ""  # the tool a reply only named, which the model was asked to call
        self._broken_asked = False  # the model was told once that its call was not valid JSON

    def on_file_changed(self, path: str) -> None:
        if path not in self.record.changed_files:
            self.record.changed_files.append(path)

    def related_results(self, task_id: int) -> str:
        """What the loop's earlier calls found."""
        return related_results(self.phase.tasks, set())

    def position(self) -> tuple[int, int]:
        """The loop's next call decides its next round (its tool batch)."""
        return (1, self.phase.rounds + 1) if self.phase.status == "running" else (0, 0)

    async def work(self, request: str, previous: dict | None) -> str:
        analysis = await analyse_request(self, request, previous, "")
        self.language = analysis.language
        goal = " ".join(request.split())[:200]
        self.phase.goal, self.tally.goal = goal, goal
        self.tally.quotes = {r.text: r.quote for r in self.reading.requirements}
        self.tally.person_requirements([r.text for r in self.reading.requirements], request)
        self.tally.assumptions = list(self.reading.assumptions)
        self.phase.max_rounds = self.accounting.budget
        self.tally.records = [self.record]
        files = await asyncio.to_thread(self.workspace_view)
        if not self.tally.changes_requested:  # a question: answered with the files in view
            shown = await asyncio.to_thread(self.files_shown)
            files += f"\n\nThe workspace's files:\n\n{shown}" if shown else ""
        system = CLASSIC_SYSTEM + language_ask(self.language, "classic")
        self.messages = [{"role": "system", "content": system},
                         {"role": "user", "content": classic_request(request, self.memory, files)}]
        self.base_messages = self.messages
        self.phase.status = "running"
        self.emit(PhaseStarted(phase_id=1, name=self.phase.name, goal=goal, index=1, total=1,
                               max_rounds=self.phase.max_rounds))
        status = await self._loop()
        if self.phase.status == "running":
            self.phase.status = "completed" if self.answer is not None else "stopped"
        self._phase_finished()
        return status

    async def _loop(self) -> str:
        tools = self.tools.schemas()
        while True:
            if self.accounting.exhausted:
                self.phase.failed_reason = "the iteration budget is spent"
                return "budget_exhausted"
            try:
                reply = await self.caller.auto("classic", self.messages, tools, True)
            except ModelError as exc:
                self.emit(Notice(level="error", stage="classic",
                                 message=f"the model call failed — {exc.message}"))
                continue
            if reply.tool_calls or (reply.text or "").strip():
                self.accounting.usable += 1
            if not reply.tool_calls:
                if self._named(reply.text or "") or self._broken(reply.text or "") \
                        or self._reminded(reply.text or "") \
                        or await self._draft_left(reply.text or ""):
                    continue
                self.answer = self._answer(reply.text or "")
                self.tally.answered = bool(self.answer.strip())
                self.messages.append({"role": "assistant", "content": reply.text or ""})
                return "completed"
            if await self._round(list(reply.tool_calls)) == "loop":
                self.phase.status = "stopped"
                self.phase.failed_reason = "the model kept repeating the same call"
                return "completed"

    def _named(self, text: str) -> bool:
        """Whether the model was asked to make the call its reply only names (``answers``);
        once per run."""
        name = named_tool(text, self.tools.offered_names())
        if not name or self._named_tool:
            return False
        self._named_tool = name
        self.messages += [{"role": "assistant", "content": text}, {"role": "user", "content": (
            f"Your reply was only the name of the tool {name}. To use it, call it with its "
            "arguments; to finish, answer the request in words.")}]
        self.emit(Notice(level="warning", stage="classic", message=(
            f"The model replied with only the name of the tool {name}, not a call; it was "
            "asked once to make the call or answer in words.")))
        return True

    def _broken(self, text: str) -> bool:
        """Whether the model was told that its reply, a call written as JSON that cannot be
        read, ran nothing, and asked to make it again; once per run."""
        broken = broken_call(text, self.tools.offered_names())
        if broken is None or self._broken_asked:
            return False
        self._broken_asked = True
        name, why = broken
        self.messages += [{"role": "assistant", "content": text}, {"role": "user", "content": (
            f"Your reply is a call of {name}, but its JSON cannot be read ({why}), so nothing "
            "ran. Make the call again with valid JSON: inside a string write a quote as \\\" "
            "and a line break as \\n, and keep the arguments short. Or answer the request in "
            "words.")}]
        self.emit(Notice(level="warning", stage="classic", message=(
            f"The model wrote a call of {name} whose JSON cannot be read ({why}); nothing ran, "
            "and it was asked once to make the call again.")))
        return True

    def _answer(self, text: str) -> str:
        """``text``, or "" when it only repeats a tool message or names a tool (see
        ``answers``): the summary is then written from the run, and the request counts as
        not answered in words."""
        if named_tool(text, self.tools.offered_names()) or (
                self._named_tool and
                re.search(rf"(?<!\w){re.escape(self._named_tool)}(?!\w)", text)):
            self.emit(Notice(level="warning", stage="classic", message=(
                f"Asked to call {self._named_tool or 'the tool'} or answer in words, the model "
                "named it again without a call; the summary is written from the run "
                "instead.")))
            return ""
        broken = broken_call(text, self.tools.offered_names())
        if broken is not None:
            self.emit(Notice(level="warning", stage="classic", message=(
                f"The model's last reply was again a call of {broken[0]} that cannot be read; "
                "the summary is written from the run instead.")))
            return ""
        if not echoed(text, self.messages):
            return text
        self.emit(Notice(level="warning", stage="classic", message=(
            "The model's last reply only repeated a tool result; the summary is written "
            "from the run instead.")))
        return ""

    def _reminded(self, answer: str) -> bool:
        """Whether the ``write_reminder`` assist asked for the write instead of taking
        ``answer``: an answer now would leave a change the request asks for unmade (nothing
        is written, writing is offered and allowed); once per run."""
        owes = self.writes_wanted and not self.file_changes \
            and WRITE in self.tools.offered_names()
        reminder = self.assists.reminder(owes, self.reading.targets())
        if reminder is None:
            return False
        message, target = reminder
        self.messages += [{"role": "assistant", "content": answer},
                          {"role": "user", "content": message}]
        self.assists.notice("write_reminder", (
            f"The model answered without writing anything, though the request asks for "
            f"changes; it was asked once to write {target} or say why it cannot."),
            "warning", "classic")
        return True

    async def _draft_left(self, answer: str) -> bool:
        """Whether the engine wrote the files the draft gives and the request names that the
        run left unwritten, instead of taking ``answer`` (the phase engine's rule too: the
        draft is the floor); once per run, only where a write already asked the draft."""
        authoring = self.authoring
        if self._drafts_written or authoring is None or authoring.drafted is None \
                or not self.writes_wanted or WRITE not in self.tools.offered_names():
            return False
        left = await authoring.unwritten_drafts(self.changed_files)
        if not left:
            return False
        self._drafts_written = True
        number = self._next_round()
        tasks = [Task(id=n, title=f"write {path}", tool=WRITE,
                      description="the draft of this file: what the model alone wrote",
                      arguments={"path": path, "instruction": "What the request asks."},
                      round=number) for n, path in enumerate(left, 1)]
        await self._execute(tasks, number, "The draft is the floor: the files it gives that the "
                                           "request names, which the answer left unwritten.",
                            "draft")
        results = "\n".join(f"- {for_model(task)}" for task in tasks)
        self.messages += [{"role": "assistant", "content": answer}, {"role": "user", "content": (
            "Before taking your answer, the engine ran the writes of the files your first draft "
            f"gives that the request names and the run had not written:\n{results}\nAnswer "
            "again: say what is done, or make the changes still missing.")}]
        return True

    def _next_round(self) -> int:
        self.phase.rounds += 1
        self._round_starts.append(len(self.messages))
        return self.phase.rounds

    async def _execute(self, tasks: list[Task], number: int, reasoning: str = "",
                       mode: Literal["plan", "draft"] = "plan") -> None:
        self.phase.tasks += tasks
        self.emit(TasksPlanned(phase_id=1, round=number, max_rounds=self.phase.max_rounds,
                               reasoning=reasoning, tasks=[t.card() for t in tasks],
                               mode=mode))
        await self.runner.execute(tasks, 1)

    async def _round(self, calls: list[ToolCall]) -> str:
        number = self._next_round()
        calls = [ToolCall(id=c.id or f"call_{number}_{i}", name=c.name, arguments=c.arguments)
                 for i, c in enumerate(calls)]
        tasks: list[Task] = []
        answers: dict[str, str] = {}
        looped = False
        for index, call in enumerate(calls, start=1):
            arguments, problem = self._arguments(call)
            if problem:
                answers[call.id] = f"Error: {problem}"
                self.emit(Notice(level="warning", stage="classic",
                                 message=f"A tool call of the model was not run: {problem}. "
                                         "The model was told why."))
                continue
            if self.loops.seen(call.name, arguments):
                looped = True
                answers[call.id] = LOOP_NOTE.format(call=f"{call.name} {json.dumps(arguments)}")
                continue
            task = Task(id=index, title=f"{call.name}", description=_describe(arguments),
                        tool=call.name, arguments=arguments, round=number)
            tasks.append(task)
        if looped:
            self.emit(Notice(level="warning", stage="classic",
                             message="The model repeated an identical tool call; it was told so."))
            if self.loops.strikes >= 2:
                self.messages += [assistant_calls(calls)] + [
                    tool_message(c.id, answers.get(c.id, "Not run: the loop was stopped."))
                    for c in calls]
                return "loop"
        if tasks:
            await self._execute(tasks, number)
        by_call = {calls[t.id - 1].id: t for t in tasks}
        self.messages.append(assistant_calls([
            c if c.id in by_call else ToolCall(id=c.id, name=c.name, arguments=clip(c.arguments))
            for c in calls]))
        for call in calls:
            task = by_call.get(call.id)
            self.messages.append(tool_message(call.id, for_model(task) if task else answers[call.id]))
        self._compact()
        return "ok"

    def _arguments(self, call: ToolCall) -> tuple[dict[str, Any], str]:
        if call.name not in self.tools.names():
            offered = ", ".join(self.tools.offered_names())
            return {}, f"unknown tool '{call.name}'; available: {offered}"
        try:
            arguments = json.loads(call.arguments or "{}")
            if not isinstance(arguments, dict):
                raise ValueError("not a JSON object")
            checked = coerce(arguments, self.tools.parameters(call.name))
            check_write(call.name, checked)
            return checked, ""
        except ValueError as exc:  # SchemaError is a ValueError
            kind = "invalid arguments" if isinstance(exc, SchemaError) else "arguments are not JSON"
            return {}, f"{kind} for {call.name}: {exc}"

    def _compact(self) -> None:
        settings = self.settings
        limit = int(self.context_window * settings.compaction_threshold)
        result = compact(self.messages, 2, self._round_starts, 2, rounds_digest, limit)
        if result is None:
            return
        dropped = self._round_starts[-2] - self._round_starts[0] - 1
        self.messages[:] = result.messages
        self._round_starts = [self._round_starts[0]] + [s - dropped for s in self._round_starts[-2:]]
        self.emit(ContextCompacted(stage="classic", before_tokens=result.before,
                                   after_tokens=result.after))

    def _phase_finished(self) -> None:
        self.emit(PhaseFinished(phase_id=1, status=self.phase.status, rounds=self.phase.rounds,
                                tasks_done=sum(t.status == "done" for t in self.phase.tasks),
                                tasks_total=len(self.phase.tasks),
                                summary=(self.answer or "")[:300]))

    def finish_phases(self) -> None:
        if self.phase.status == "running":
            self.phase.status = "stopped"
            self._phase_finished()

    async def model_summary(self) -> Summary:
        if self.answer:
            self.phase.summaries.append(self.answer[:500])
            requirements, note = self.tally.accounted()
            return Summary(final_summary=self.answer, phases_completed=self.tally.phases_completed,
                           total_tasks_executed=self.tally.tasks_executed,
                           total_rounds=self.tally.rounds, highlights=[],
                           quality_assessment="", generated_by="model", status=self.tally.status,
                           requirements=requirements, requirements_note=note)
        return await super().model_summary()

    def summary_context(self) -> list[Message]:
        return list(self.messages)

    def answered(self) -> bool:
        return bool((self.answer or "").strip())


def _describe(arguments: dict[str, Any]) -> str:
    text = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)[:60]}" for k, v in arguments.items())
    return text[:300]
