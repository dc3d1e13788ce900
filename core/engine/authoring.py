"""Code written as code: a write task names the file and what must change; Execute asks the
model for the file's new content in a separate plain-text call and writes what it holds.

Plans (and the classic loop's calls) see ``write_file(path, instruction)``: never the
content, which a small model writes far worse inside a JSON string under a grammar, in the
same reply that picks titles, ids and dependencies. ``AuthoringTools`` (``authoring_tools``)
offers that form and, when such a task runs, has ``Author`` make one call with no tools: the
request, the goal, the instruction, the file as it is now, the results the task depends on
and what went wrong in earlier tries at the file. The reply is the whole new file in one
fenced block (search/replace blocks for a long file); the real ``write_file`` writes it,
refusing Python that does not parse. ``write_file`` with ``content`` and ``edit_file`` are
still accepted from a plan (a model or a script may give them) but never offered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.engine.authored_reply import Authored, program_in, search_replace, whole_file
from core.engine.example_checks import RETRY_TEMPERATURE, ExampleChecks
from core.engine.missing_imports import with_missing_imports
from core.engine.prompts import (
    AUTHOR_SYSTEM, authoring_prompt, fix_request, plain_authoring_prompt)
from core.engine.stage_caller import StageCaller
from core.llm.base import CallOptions, Message, ModelError
from core.models.task import Task
from core.schema import SchemaError
from core.tools.base import ToolContext
from core.tools.code_checks import definitions, is_python, problems
from core.tools.computed import compute, computable
from core.tools.current_text import current_text
from core.tools.scratch import unavailable
from core.tools.workspace_tests import is_test_file

WRITE, EDIT = "write_file", "edit_file"
WRITE_DESCRIPTION = ("Create a file or change an existing one: name the file and say what it "
                     "must contain or what must change. The new content is written in a "
                     "separate step that shows the current file; never put the content here.")
INSTRUCTION_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {
    "path": {"type": "string", "minLength": 1, "maxLength": 500,
             "description": "File to create or change, relative to the workspace root."},
    "instruction": {"type": "string", "minLength": 3, "maxLength": 1000,
                    "description": "What the file must contain, or what must change in it, in "
                                   "words: names, behaviour, edge cases, values."},
}, "required": ["path", "instruction"]}
SEARCH_REPLACE_CHARS = 12_000  # a longer file is changed with search/replace blocks
TOKENS_PER_CHAR = 1 / 3.2
MAX_AUTHOR_TOKENS = 6_000
MIN_AUTHOR_TOKENS = 1_600  # a stub grows into a whole module (the Qwen was cut off at 813)
EARLIER_SHOWN = 3
TRIES = 2  # a broken reply is sent back once with what is wrong
RELATED_CHARS = 4_000
RELATED_EACH = 2_000


@dataclass(frozen=True)
class AuthoringContext:
    """What the engine knows around a write task: the structured request, the person's own
    words (the authoring call is not part of the rounds' context, and code must meet every
    detail they give), the goal being worked on, the results the task builds on (bounded
    text), and the person's language."""

    request: str
    words: str = ""
    goal: str = ""
    related: str = ""
    language: str = ""


@dataclass
class FileHistory:
    """What happened to one file's authored writes in this run."""

    failures: list[str] = field(default_factory=list)
    facts: str = ""
    checks_failing: bool = False  # the request's examples fail for what was last written
    started: bool = False  # ``before`` holds the file as the run's first write found it
    before: str | None = None


class Author:
    """Makes the authoring call of one write task and reads the file out of the reply."""

    def __init__(self, caller: StageCaller, workspace: Path,
                 context: Callable[[ToolContext], AuthoringContext],
                 checks: ExampleChecks | None = None, sandbox_mode: str = "auto") -> None:
        """``checks``: check Python files against the request's examples before writing
        them (the phase engine). ``sandbox_mode``: the command sandbox setting, under which
        a program that computes a data file runs."""
        self.caller = caller
        self.workspace = workspace
        self.context = context
        self.checks = checks
        self.sandbox_mode = sandbox_mode
        self.files: dict[str, FileHistory] = {}

    async def content(self, path: str, instruction: str, ctx: ToolContext) -> Authored:
        """The file's new content, or why there is none (never raises for model failures;
        a failure that ends the run, and Stop, propagate). A reply whose Python does not
        parse or uses undefined names is sent back once with what is wrong."""
        current = current_text(self.workspace, path)
        if current.problem:
            return Authored(None, current.problem)
        old = current.text
        edits = old is not None and len(old) > SEARCH_REPLACE_CHARS
        history = self.files.setdefault(current.rel, FileHistory())
        if not history.started:
            history.started, history.before = True, old
        # A file this run wrote that the request's checks fail for is not shown again: the
        # Qwen copied it (ex-ipv4, ex-histogram: a later round's tries were the same file);
        # the call starts from the file as it was before the run, told what failed.
        afresh = history.checks_failing and not edits and history.before != old
        shown = history.before if afresh else old
        context = self.context(ctx)
        program = not edits and computable(current.rel) and not unavailable(self.sandbox_mode)
        messages: list[Message] = [{"role": "system", "content": AUTHOR_SYSTEM},
                                   {"role": "user", "content": authoring_prompt(
                                       current.rel, instruction, shown, context, edits,
                                       history.failures[-EARLIER_SHOWN:], history.facts,
                                       afresh, program)}]
        temperature = RETRY_TEMPERATURE if history.failures or history.checks_failing else 0.0
        for attempt in range(1, TRIES + 1):
            authored, reply = await self._ask(current.rel, old, edits, messages, temperature,
                                              program)
            if authored.content is None:
                return self._failed(current.rel, authored.problem)
            authored = self._imported(current.rel, authored)
            wrong = problems(current.rel, old, authored.content)
            if not wrong:
                return await self._checked(current.rel, old, edits, authored, messages,
                                           context, instruction, old if afresh else None,
                                           shown)
            if attempt == TRIES:
                return authored
            messages += [{"role": "assistant", "content": reply},
                         {"role": "user", "content": fix_request(current.rel, wrong, edits)}]
        return authored

    async def _checked(self, rel: str, old: str | None, edits: bool, authored: Authored,
                       messages: list[Message], context: AuthoringContext,
                       instruction: str, incumbent: str | None = None,
                       shown: str | None = None) -> Authored:
        """``authored`` as the request's examples check it (when this engine checks, and
        the file is neither a test module nor one that defines no function or class: the
        checks of a rename's main.py and test_calc.py imported the old name from them);
        ``incumbent``: the file as it is, when the call was not shown it: it competes with
        the new tries (such a rewrite must not make it worse); ``shown``: the file as the
        call was shown it, for the plain framing of the same call."""
        if self.checks is None or edits or not is_python(rel) or is_test_file(rel):
            return authored
        defined = definitions(old or "", rel) | definitions(authored.content or "", rel)
        if not defined:
            return authored  # a script: checks could import nothing from it
        scripts = await self.checks.script(rel, context, instruction, defined)
        if scripts.said is None and scripts.own is None:
            return authored

        async def ask(again: list[Message], temperature: float) -> Authored:
            return self._imported(rel, (await self._ask(rel, old, edits, again, temperature))[0])

        plain: list[Message] = [{"role": "system", "content": AUTHOR_SYSTEM},
                                {"role": "user", "content": plain_authoring_prompt(
                                    rel, shown, context)}]
        return await self.checks.refine(rel, old, authored, messages, scripts, ask,
                                        incumbent, plain)

    def _imported(self, rel: str, authored: Authored) -> Authored:
        """``authored`` with the workspace modules it uses without importing them imported
        (``missing_imports``)."""
        if authored.content is None or not is_python(rel):
            return authored
        content, names = with_missing_imports(self.workspace, rel, authored.content)
        if not names:
            return authored
        listed = ", ".join(names)
        return replace(authored, content=content, amended=(
            f"The engine added `import {listed}`: the reply used {listed} without importing "
            "it, and the workspace has it."))

    async def _ask(self, rel: str, old: str | None, edits: bool, messages: list[Message],
                   temperature: float = 0.0, program: bool = False) -> tuple[Authored, str]:
        """One authoring call and the file its reply holds (and the reply's text);
        ``program``: a reply may give a program whose output is the file (run here)."""
        if self.caller.accounting.exhausted:
            return Authored(None, "the iteration budget is spent; the file was not written"), ""
        limit = author_tokens(old, edits)
        try:
            reply = await self.caller.raw("author", messages, [], None, True, CallOptions(
                max_tokens=limit, temperature=temperature), detail=rel)
        except ModelError as exc:
            return Authored(None, f"the model call failed: {exc.message}"), ""
        text = reply.text or ""
        code = program_in(text, rel) if program else None
        if code is not None:
            return await self._computed(code, rel), text
        authored = search_replace(text, old or "") if edits else whole_file(text, rel)
        if authored.content is None and reply.finish_reason == "length":
            authored = Authored(None, f"{authored.problem} (the reply reached its limit of "
                                      f"{limit} tokens)")
        return authored, text

    async def _computed(self, program: str, rel: str) -> Authored:
        """The content ``program`` gives ``rel`` in a sandboxed copy of the workspace."""
        computed = await compute(self.workspace, program, rel, self.sandbox_mode)
        if computed.content is None:
            return Authored(None, f"{computed.problem} (the reply gave a program that prints "
                                  "the file)", program=program)
        return Authored(computed.content, program=program)

    @property
    def checks_failing(self) -> list[str]:
        """The files whose last write fails checks of the request's examples."""
        return sorted(rel for rel, history in self.files.items() if history.checks_failing)

    def _failed(self, rel: str, problem: str) -> Authored:
        self.remember(rel, False, problem)
        return Authored(None, problem)

    def remember(self, rel: str, ok: bool, text: str) -> None:
        """Record a try at ``rel``: a failure's reason, or the facts a write's result ended
        with; the next authoring call of the file is shown them."""
        history = self.files.setdefault(rel, FileHistory())
        history.checks_failing = ok and "\nChecks: " in text and " fail: " in text
        if ok:
            history.facts = "; ".join(part.partition("\n")[0] for part in (
                text.partition("\nFacts: ")[2], text.partition("\nChecks: ")[2]) if part)
        else:
            history.failures.append(" ".join(text.split())[:400])


def author_tokens(old: str | None, edits: bool) -> int:
    """A reply limit that fits the file: the whole file again with room to grow, or a few
    search/replace blocks."""
    if edits:
        return 1_500
    size = len(old or "")
    return min(MAX_AUTHOR_TOKENS, max(MIN_AUTHOR_TOKENS, int(size * TOKENS_PER_CHAR * 2) + 800))


def offered_parameters(parameters: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Tool parameters as plans are offered them: write_file takes an instruction, edit_file
    is left out (for a model whose grammar holds planned arguments to them)."""
    return {name: INSTRUCTION_PARAMETERS if name == WRITE else schema
            for name, schema in parameters.items() if name != EDIT}


def is_authoring(tool: str, arguments: dict[str, Any]) -> bool:
    return tool == WRITE and "instruction" in arguments and "content" not in arguments


def check_write(tool: str, arguments: dict[str, Any]) -> None:
    """A write must say what to write: an instruction (or, given directly, the content)."""
    if tool == WRITE and "instruction" not in arguments and "content" not in arguments:
        raise SchemaError("write_file: missing required field 'instruction' (say what the "
                          "file must contain or what must change)")


def related_results(tasks: Sequence[Task], wanted: set[int], cap: int = RELATED_CHARS) -> str:
    """Results a write builds on: those of ``wanted`` tasks first, then the other finished
    reads, searches and commands, newest first, within ``cap`` characters."""
    first = [t for t in tasks if t.id in wanted and t.status == "done"]
    rest = [t for t in reversed(tasks) if t.id not in wanted and t.status == "done"
            and t.tool != WRITE and t.tool != EDIT]
    parts: list[str] = []
    used = 0
    for task in first + rest:
        text = f"- {task.tool} {_arguments_line(task.arguments)}:\n{task.result.strip()}"
        text = text[:RELATED_EACH]
        if used + len(text) > cap:
            break
        parts.append(text)
        used += len(text)
    return "\n".join(parts)


def _arguments_line(arguments: dict[str, Any]) -> str:
    return " ".join(f"{k}={str(v)[:80]}" for k, v in arguments.items())
