"""The authoring stage: a write task names a file and what must change; this stage proposes the
file's new content, and says what the engine found out about it.

The first write of a file in a run is its **draft**, what the model alone would write: the
one-shot reply (``draft``: the person's words and the workspace's files, one call for the
whole run) gives it when it holds that file; a file it does not hold that the request names
gets the same framing for that one file (``prompts.plain_messages``). A file the request does
not name, and every later write, gets the person's words first, then the file, then the
plan's words for the step (``prompts.authoring_messages``). A reply that does not parse or
uses names nothing defines is sent back once (``fix_request``).

Then the engine gathers evidence (``evidence``): it parses, the workspace's own tests with it
in place, the request's examples. When a check that can weigh versions fails, more samples of
the same prompt are asked and the one the checks prefer is kept (``candidates``).
A later write replaces what the run wrote before only on better evidence: the draft is the
floor. The stage writes nothing: the task runner writes the candidate and reports back
(``accepted``), so approval, undo and events stay with the tools.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.engine.assists import Assists
from core.engine.authoring.draft import draft_targets, oneshot_messages, reply_tokens, \
    show_file
from core.engine.authoring.draft_reply import Drafted, drafted_files
from core.engine.authoring.evidence import Evidence
from core.engine.authoring.candidates import runs_checks, sampled
from core.engine.authoring.prompts import WriteStep, authoring_messages, fix_request, \
    plain_messages
from core.engine.authoring.records import Candidate, FileRecord, WriteContext
from core.engine.authoring.replies import Authored, author_tokens, search_replace, whole_file
from core.engine.execution.kept_inputs import KeptInputs
from core.engine.stages.caller import StageCaller
from core.events import Notice
from core.llm.base import CallOptions, Message, ModelError
from core.shapes.reading import Reading
from core.tools.code_checks import is_python, new_faults, problems, syntax_error
from core.tools.current_text import current_text
from core.tools.request_examples import Example, ExampleRun, examples_for, run_examples
from core.tools.test_runs import run_tests
from core.tools.gate import Gate
from core.tools.text_files import Listing, collect
from core.tools.workspace_tests import has_tests

SEARCH_REPLACE_CHARS = 12_000  # a longer file is changed with search/replace blocks
EARLIER_SHOWN = 3


class AuthoringStage:
    def __init__(self, caller: StageCaller, workspace: Path, assists: Assists,
                 sandbox_mode: str, related: Callable[[int], str]) -> None:
        """``related``: the results a write of a task (by id) builds on, as text."""
        self.caller = caller
        self.workspace = workspace
        self.assists = assists
        self.sandbox_mode = sandbox_mode
        self.related = related
        self.reading = Reading()  # what the request asks (the engine sets it once known)
        self.language = ""  # the person's, once the engine knows it
        self.test_command = ""  # the setting: the workspace's tests run with it when set
        self.candidates = 0  # how many more samples a file that fails a check gets
        self.temperature = 0.8  # theirs
        self.parallel = 1  # how many of them may go out at once
        self.files: dict[str, FileRecord] = {}
        self.drafted: Drafted | None = None
        self.listing: Listing | None = None  # the workspace's files as the draft showed them
        self.draft_messages: list[Message] = []  # the one-shot prompt the draft was asked with
        self._draft_lock = asyncio.Lock()
        self._tests: bool | None = None
        self._evidence: dict[tuple[str, str], Evidence] = {}
        self.examples: tuple[Example, ...] = ()  # the examples the request states
        self.inputs: KeptInputs | None = None  # the files the request only reads

    def gate(self) -> Gate:
        """What of the workspace the prompts may show: the run's gate (the caller's)."""
        return self.caller.gate or Gate(self.workspace)

    async def candidate(self, path: str, instruction: str, task_id: int) -> Candidate:
        """The new content of ``path`` for a write task; never raises for model failures (a
        failure that ends the run, and Stop, propagate)."""
        current = current_text(self.workspace, path, self.gate())
        if current.problem:
            return Candidate(path, None, current.problem)
        rel, old = current.rel, current.text
        record = self.files.setdefault(rel, FileRecord(original=old))
        context = WriteContext(self.reading.words, self.language, self.related(task_id))
        edits = old is not None and len(old) > SEARCH_REPLACE_CHARS
        if not record.drafted and record.written is None and not self.reading.tools:
            record.drafted = True
            authored, messages, source = await self._draft(rel, old, edits, context)
        else:
            authored, messages, source = await self._later(rel, old, edits, instruction,
                                                           context, record)
        authored = await self._fixed(rel, old, edits, authored, messages)
        if authored.content is None:
            record.failures.append(" ".join(authored.problem.split())[:400])
            return Candidate(rel, None, authored.problem, old, source)
        return await self._chosen(rel, old, authored, source, record, messages, edits)

    def accepted(self, candidate: Candidate) -> None:
        """The task runner wrote ``candidate``: it is the floor from now on."""
        record = self.files.setdefault(candidate.path, FileRecord())
        record.written, record.evidence = candidate.content, candidate.evidence

    def failing_files(self) -> list[str]:
        """The files whose content as the run last wrote it fails a check the engine ran."""
        return sorted(rel for rel, record in self.files.items()
                      if record.written is not None and record.evidence is not None
                      and record.evidence.failing)

    def faults_of(self, rel: str, content: str) -> tuple[str, ...] | None:
        """The faults ``content`` at ``rel`` has that the file did not have before the run
        (``code_checks.new_faults``): from its evidence when this stage weighed that text,
        else found now; None when this stage did not write ``rel``."""
        record = self.files.get(rel)
        if record is None or record.written is None:
            return None
        found = self._evidence.get((rel, content))
        if found is not None and found.parses:
            return found.faults
        return tuple(new_faults(content, record.original, rel))

    def examples_run(self, rel: str, content: str) -> ExampleRun | None:
        """The request's examples as they ran on ``content`` at ``rel``, if they did."""
        found = self._evidence.get((rel, content))
        return found.examples if found is not None and found.examples is not None \
            and found.examples.ran else None

    def settled(self) -> list[str]:
        """The files the run wrote when the draft settles the request: every file the draft
        gives and every file the request's reading targets (not the files it only reads) is
        written, and no check fails on any of them. A later write could then replace them
        only on better evidence, which no check can give; [] when not settled."""
        if self.drafted is None or not self.drafted.files or self.failing_files():
            return []
        written = {rel for rel, record in self.files.items() if record.written is not None}
        wanted = set(self.drafted.files) | set(self.reading.targets())
        wanted = {rel for rel in wanted if self.inputs is None or not self.inputs.kept(rel)}
        return sorted(written) if wanted <= written else []

    def written_texts(self, paths: list[str]) -> dict[str, str]:
        """What the run last wrote to each of ``paths`` (those it wrote)."""
        return {p: self.files[p].written or "" for p in paths
                if p in self.files and self.files[p].written is not None}

    async def draft_files(self) -> list[str]:
        """The files the one-shot draft gives (asked now if it was not yet), none written yet
        by the run."""
        drafted = await self._drafted(self.reading.words, "")
        return [p for p in drafted.files if p not in self.files or self.files[p].written is None]

    async def unwritten_drafts(self, changed: list[str]) -> list[str]:
        """Files the draft changes that the request names or targets, not changed by the run
        yet (``changed``: the files the run changed, by any tool). When no write asked the
        draft (a data file worked out by a program, a write given its content) and the
        request targets workspace files the run has not changed, the draft is asked now."""
        done = set(changed)
        asked = set(self.reading.targets()) | set(self.reading.named)
        if self.drafted is None and not any(p not in done for p in self.reading.change):
            return []
        drafted = await self._drafted(self.reading.words, "")
        return sorted(p for p in drafted.files if p in asked and p not in done)

    def refused(self, path: str, problem: str) -> None:
        """The write of a candidate failed (denied, not written): the next try is told why."""
        self.files.setdefault(path, FileRecord()).failures.append(problem[:400])

    async def _draft(self, rel: str, old: str | None, edits: bool, context: WriteContext
                     ) -> tuple[Authored, list[Message], str]:
        """The first write of ``rel``: a long file as search/replace blocks (the one-shot
        prompt cannot show it); a data file the ``computed_files`` assist may have a program
        work out, asked alone; else the one-shot reply's file; a named file the reply left
        out, asked alone."""
        if edits:  # too long to be shown whole: search/replace blocks, words first
            return await self._later(rel, old, edits, "", context, self.files[rel])
        offer = self.assists.program_offer(rel, self.sandbox_mode, old is None)
        if offer:
            authored, messages = await self._plain(rel, old, context, offer)
            return authored, messages, "draft"
        drafted = await self._drafted(context.words, rel)
        if rel in drafted.files:
            return Authored(drafted.files[rel]), [], "draft"
        if rel in self.reading.targets() or rel in self.reading.named:
            authored, messages = await self._plain(rel, old, context, "")
            return authored, messages, "draft"
        return await self._later(rel, old, edits, "", context, self.files[rel])

    async def _plain(self, rel: str, old: str | None, context: WriteContext, offer: str
                     ) -> tuple[Authored, list[Message]]:
        """One file asked as the model alone would be asked for it (the workspace's other
        files shown as the one-shot prompt shows them)."""
        if self.listing is None:
            self.listing = await asyncio.to_thread(collect, self.gate(), context.words)
        others = [f for f in self.listing.files if f.path != rel]
        messages = plain_messages(context.words, rel, old, offer,
                                  "\n\n".join(show_file(f) for f in others))
        authored, reply = await self._ask(rel, old, False, messages, offer)
        return authored, messages + _said(reply)

    async def _drafted(self, words: str, writing: str) -> Drafted:
        """The one-shot reply's files, asked once per run."""
        async with self._draft_lock:
            if self.drafted is None:
                self.drafted = Drafted()
                listing = self.listing = await asyncio.to_thread(collect, self.gate(), words)
                if self.caller.accounting.exhausted:
                    return self.drafted
                targets = list(self.reading.targets()) or draft_targets(words, listing)
                self.draft_messages = oneshot_messages(words, listing, targets)
                called = await self.ask_plain(self.draft_messages, reply_tokens(listing), "draft")
                if not called.problem:
                    self.drafted = drafted_files(called.text, self.workspace, listing, writing,
                                                 targets)
                    for note in self.drafted.notes:
                        self.caller.emit(Notice(level="info", stage="draft",
                                                message=f"The draft: {note}."))
                    self._keep_inputs(self.drafted)
            return self.drafted

    def _keep_inputs(self, drafted: Drafted) -> None:
        """The draft's blocks for files the request only reads are not taken (said once)."""
        inputs = self.inputs
        kept = [rel for rel in drafted.files if inputs.kept(rel)] if inputs is not None else []
        if not kept or inputs is None:
            return
        for rel in kept:
            del drafted.files[rel]
            drafted.refused.append(inputs.why(rel).removeprefix("not run: "))
        self.caller.emit(Notice(level="info", message=(
            f"The draft also rewrote {', '.join(kept)}; not taken: "
            f"{inputs.why(kept[0]).removeprefix('not run: ')}.")))

    async def _later(self, rel: str, old: str | None, edits: bool, instruction: str,
                     context: WriteContext, record: FileRecord
                     ) -> tuple[Authored, list[Message], str]:
        offer = "" if edits else self.assists.program_offer(rel, self.sandbox_mode,
                                                            record.original is None)
        step = WriteStep(words=context.words, path=rel, current=old,
                         instruction=instruction,
                         related=context.related, failures=tuple(record.failures[-EARLIER_SHOWN:]),
                         facts=record.evidence.facts() if record.evidence else "", edits=edits,
                         language=context.language, program_offer=offer)
        messages = authoring_messages(step)
        authored, reply = await self._ask(rel, old, edits, messages, offer)
        return authored, messages + _said(reply), "authored"

    async def _fixed(self, rel: str, old: str | None, edits: bool, authored: Authored,
                     messages: list[Message]) -> Authored:
        """``authored``, or one fix call's reply when it does not parse or uses names nothing
        defines (the fixed reply when it has fewer problems)."""
        if authored.content is None or authored.program or not messages:
            return authored
        wrong = problems(rel, old, authored.content)
        if not wrong:
            return authored
        again = messages + [{"role": "user", "content": fix_request(rel, wrong, edits)}]
        fixed, _ = await self._ask(rel, old, edits, again, "")
        if fixed.content is not None and len(problems(rel, old, fixed.content)) < len(wrong):
            return fixed
        return authored

    async def _chosen(self, rel: str, old: str | None, authored: Authored, source: str,
                      record: FileRecord, messages: list[Message], edits: bool) -> Candidate:
        """The candidate to write: ``authored``, or the candidate the checks prefer when it
        fails a check they can weigh (``candidates``), or the file as it is when none beats
        what the run wrote before. ``messages``: the prompt that gave ``authored`` ([] for
        the one-shot draft)."""
        content = authored.content or ""
        evidence = await self.evidence(rel, content, record.original)
        best = Candidate(rel, content, "", old, source, False, evidence, (), authored.program)
        if runs_checks(evidence) and not authored.program and self.candidates > 0:
            best = await sampled(self, best, record, messages, edits)
        if record.written is None or old is None:
            return best
        standing = await self.evidence(rel, old, record.original)
        if best.evidence.better_than(standing):
            return best
        return Candidate(rel, old, "", old, "kept", True, standing, (
            "no check showed the new version better than the file as it is"
            if not standing.failing or not best.evidence.failing else
            "the new version did no better against the checks",), tried=best.tried)

    async def evidence(self, rel: str, content: str, original: str | None) -> Evidence:
        """What the engine finds out about ``content`` at ``rel`` (cached per content)."""
        key = (rel, content)
        if key in self._evidence:
            return self._evidence[key]
        error = syntax_error(content, rel) if is_python(rel) else ""
        tests = None
        if not error and (is_python(rel) or self.test_command) and await self._has_tests():
            tests = await run_tests(self.workspace, self._pending(rel, content),
                                    self.sandbox_mode, test_command=self.test_command)
        stated = examples_for(content, self.examples) if not error and is_python(rel) else ()
        examples = await run_examples(self.workspace, self._pending(rel, content), rel, stated,
                                      self.sandbox_mode) if stated else None
        found = Evidence(error, tests, examples,
                         tuple(new_faults(content, original, rel)) if not error else ())
        self._evidence[key] = found
        return found

    def _pending(self, rel: str, content: str) -> dict[str, str]:
        """The files a test run puts in place: the draft's other files not written yet (a
        rename spans files), and ``content`` at ``rel``."""
        pending = {path: text for path, text in (self.drafted.files.items() if self.drafted
                                                 else ()) if self.files.get(path) is None
                   or self.files[path].written is None}
        pending[rel] = content
        return pending

    async def _has_tests(self) -> bool:
        if self.test_command:
            return True
        if self._tests is None:
            self._tests = await asyncio.to_thread(has_tests, self.workspace)
        return self._tests

    async def _ask(self, rel: str, old: str | None, edits: bool, messages: list[Message],
                   offer: str) -> tuple[Authored, str]:
        """One authoring call and the file its reply holds (and the reply's text)."""
        if self.caller.accounting.exhausted:
            return Authored(None, "the iteration budget is spent; the file was not written"), ""
        limit = author_tokens(old, edits)
        called = await self.ask_plain(messages, limit, rel)
        if called.problem:
            return Authored(None, called.problem), ""
        text = called.text
        if offer:
            computed = await self.assists.computed(text, rel, self.workspace, self.sandbox_mode)
            if computed is not None:
                return computed, text
        authored = search_replace(text, old or "") if edits else whole_file(text, rel)
        if authored.content is None and called.cut:
            authored = Authored(None, f"{authored.problem} (the reply reached its limit of "
                                      f"{limit} tokens)")
        return authored, text

    @property
    def exhausted(self) -> bool:
        """Whether the run's budget of model calls is spent."""
        return self.caller.accounting.exhausted

    async def ask_plain(self, messages: list[Message], limit: int, detail: str,
                        temperature: float = 0.0) -> Called:
        """One plain-text call (at temperature 0 unless said)."""
        try:
            reply = await self.caller.raw("author", messages, [], None, True, CallOptions(
                max_tokens=limit, temperature=temperature), detail=detail)
        except ModelError as exc:
            return Called("", f"the model call failed: {exc.message}")
        return Called(reply.text or "", cut=reply.finish_reason == "length")


@dataclass(frozen=True)
class Called:
    """A plain call's reply text, or ``problem`` when it failed; ``cut``: it reached its
    limit."""

    text: str
    problem: str = ""
    cut: bool = False


def _said(reply: str) -> list[Message]:
    return [{"role": "assistant", "content": reply}] if reply else []
