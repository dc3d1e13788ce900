"""The phase engine checks what it writes against the request before it writes it.

For a Python file, the model is asked once per file for a short script of asserts of the
examples and rules the request states (the request's own words; the tests a person keeps
elsewhere are never seen). The candidate file runs against them in a sandboxed copy of the
workspace (``core.tools.example_checks``). Only the checks of examples the request itself
states are taken at their word (``check_script``): when some fail, the same call framed as
the person would ask the model alone (their words and the file) is tried, greedy, and then the
authoring call told what failed, sampled rather than greedy (two tries at most). The model's other
checks are often wrong, so no model is ever told they failed; but where they fail while the
request's own pass, the plain framing and an independent sample of the same authoring call
are drawn, and the candidate written is the one the fewest request checks fail for, then the
fewest of the model's own: a wrong check fails every right candidate alike and so cannot
choose between them, a right one tells them apart (the idea of CodeT, Chen et al. 2022).
What the request's checks said goes with the write's result to the judge and to the next
authoring call of the file; a later try replaces the first only when it fails fewer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from core.engine.authored_reply import Authored
from core.engine.check_script import CheckScripts, checks_in_reply
from core.engine.prompts import CHECKS_SYSTEM, checks_failed_request, checks_prompt
from core.engine.stage_caller import StageCaller
from core.llm.base import CallOptions, Message, ModelError
from core.tools.code_checks import problems
from core.tools.example_checks import CheckRun, run_checks

CHECK_TOKENS = 512
RETRIES = 2  # tries after the first when checks fail
RETRY_TEMPERATURE = 0.7
Ask = Callable[[list[Message], float], Awaitable[Authored]]


def module_of(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


class ExampleChecks:
    """The check scripts of one run's files, and the check-and-retry of a candidate."""

    def __init__(self, caller: StageCaller, workspace: Path, sandbox_mode: str) -> None:
        self.caller = caller
        self.workspace = workspace
        self.sandbox_mode = sandbox_mode
        self.scripts: dict[str, CheckScripts] = {}

    async def script(self, rel: str, context: Any, instruction: str,
                     defined: Iterable[str] = ()) -> CheckScripts:
        """The check scripts for ``rel`` (asked for once per run; empty when the model gave
        none that parses and asserts something); ``defined``: the names the file defines, as
        it was or as first written (checks may use those, or names the request says)."""
        if rel in self.scripts:
            return self.scripts[rel]
        if self.caller.accounting.exhausted:
            return CheckScripts()
        messages: list[Message] = [
            {"role": "system", "content": CHECKS_SYSTEM},
            {"role": "user", "content": checks_prompt(rel, module_of(rel), context, instruction)}]
        try:
            reply = await self.caller.raw("checks", messages, [], None, True, CallOptions(
                max_tokens=CHECK_TOKENS, temperature=0.0), detail=rel)
        except ModelError:
            self.scripts[rel] = CheckScripts()
            return self.scripts[rel]
        self.scripts[rel] = checks_in_reply(reply.text or "", context.words or context.request,
                                            module_of(rel), defined)
        return self.scripts[rel]

    async def refine(self, rel: str, old: str | None, candidate: Authored,
                     messages: list[Message], scripts: CheckScripts, ask: Ask,
                     incumbent: str | None = None,
                     plain: list[Message] | None = None) -> Authored:
        """``candidate``, or a later try that fails fewer checks; with the report of the
        request's checks. After the plain framing's try (below), a try after failed request
        checks is the same call told what failed, without the failed file (shown its earlier
        reply, the Qwen wrote it again byte for byte); a try after failed own checks is the
        same call again. Both are sampled, not greedy: the most likely reply of a small model
        to the same prompt is the same file. A try
        replaces the first only when fewer checks fail for it: on a tie the greedy reply is
        kept (in the evaluation, tied sampled tries passed fewer of the hidden tests).
        ``incumbent``: the file as it is, which the tries were not shown; when fewer checks
        fail for it than for every try, it stays (``kept``). ``plain``: the same call framed
        as the person would ask the model alone; the first try is its greedy reply (the
        offline re-run of 11 exercises' first writes: 61% of hidden tests with two sampled
        tries, 64% with the plain framing's reply and one sampled try)."""
        best = last = await self._score(rel, candidate, scripts)
        for retry in range(RETRIES):
            if last.said.problem or best.fails == (0, 0) or self.caller.accounting.exhausted:
                break
            if retry == 0 and plain is not None:
                tried = await ask(plain, 0.0)
            else:
                again = _told(messages, checks_failed_request(rel, best.said.describe())) \
                    if best.said.failed else messages
                tried = await ask(again, RETRY_TEMPERATURE)
            if tried.content is None or problems(rel, old, tried.content):
                continue
            last = await self._score(rel, tried, scripts)
            if last.said.problem:
                break
            if last.better_than(best):
                best = last
        if incumbent is not None:
            standing = await self._score(rel, Authored(incumbent, kept=True), scripts)
            if standing.better_than(best):
                best = standing
        return best.reported(scripts.said is not None)

    async def _score(self, rel: str, candidate: Authored, scripts: CheckScripts) -> Scored:
        said = await self._run(rel, candidate, scripts.said) if scripts.said else CheckRun()
        own = await self._run(rel, candidate, scripts.own) if scripts.own else CheckRun()
        return Scored(candidate, said, own)

    async def _run(self, rel: str, candidate: Authored, script: str) -> CheckRun:
        return await run_checks(self.workspace, rel, candidate.content or "", script,
                                self.sandbox_mode)


def _told(messages: list[Message], note: str) -> list[Message]:
    """``messages`` with ``note`` after the last user turn's text."""
    *before, last = messages
    return before + [{"role": "user", "content": f"{last['content']}\n\n{note}"}]


@dataclass(frozen=True)
class Scored:
    """A candidate with how the request's checks and the model's own ran against it."""

    candidate: Authored
    said: CheckRun
    own: CheckRun

    @property
    def fails(self) -> tuple[int, int]:
        """(request checks failed, own checks failed); own checks that could not run at all
        count as all failed, and those that could not import what they check from the
        candidate count none (for "rename add_numbers to add" the Qwen's own checks imported
        add_numbers: they failed the right rename and chose the file left as it was)."""
        if self.own.unimported:
            return len(self.said.failed), 0
        own = self.own.asserts + 1 if self.own.problem else len(self.own.failed)
        return len(self.said.failed), own

    def better_than(self, other: Scored) -> bool:
        """Whether fewer checks fail for this candidate; one the model's own checks could not
        import from never wins by them (it may lack a name it should define)."""
        if self.own.unimported and self.fails[0] == other.fails[0]:
            return False
        return self.fails < other.fails

    def reported(self, said: bool) -> Authored:
        if not said:
            return self.candidate
        return replace(self.candidate, checks=self.said.describe(),
                       checks_failed=bool(self.said.failed))
