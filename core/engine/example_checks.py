"""The phase engine checks what it writes against the request before it writes it.

For a Python file, the model is asked once per file for a short script of asserts of the
examples and rules the request states (the request's own words; the tests a person keeps
elsewhere are never seen). The candidate file runs against them in a sandboxed copy of the
workspace (``core.tools.example_checks``). When some fail, the authoring call is asked once
more with what failed (twice at most, sampled rather than greedy), and the candidate the
fewest checks fail for is written.
What the checks said goes with the write's result to the judge and to the next authoring
call of the file. A model that writes wrong checks can mislead it; so a correct candidate is
only replaced by one that fails fewer checks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.engine.authored_reply import Authored
from core.engine.check_script import checks_in_reply
from core.engine.prompts import CHECKS_SYSTEM, checks_failed_request, checks_prompt
from core.engine.stage_caller import StageCaller
from core.llm.base import CallOptions, Message, ModelError
from core.tools.code_checks import problems
from core.tools.example_checks import CheckRun, run_checks

CHECK_TOKENS = 512
RETRIES = 2  # tries after the first when checks fail
RETRY_TEMPERATURE = 0.7
Ask = Callable[[list[Message], float], Awaitable[tuple[Authored, str]]]


def module_of(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


class ExampleChecks:
    """The check scripts of one run's files, and the check-and-retry of a candidate."""

    def __init__(self, caller: StageCaller, workspace: Path, sandbox_mode: str) -> None:
        self.caller = caller
        self.workspace = workspace
        self.sandbox_mode = sandbox_mode
        self.scripts: dict[str, str | None] = {}

    async def script(self, rel: str, context: Any, instruction: str) -> str | None:
        """The check script for ``rel`` (asked for once per run; None when the model gave
        none that parses and asserts something)."""
        if rel in self.scripts:
            return self.scripts[rel]
        if self.caller.accounting.exhausted:
            return None
        messages: list[Message] = [
            {"role": "system", "content": CHECKS_SYSTEM},
            {"role": "user", "content": checks_prompt(rel, module_of(rel), context, instruction)}]
        try:
            reply = await self.caller.raw("checks", messages, [], None, True, CallOptions(
                max_tokens=CHECK_TOKENS, temperature=0.0), detail=rel)
        except ModelError:
            self.scripts[rel] = None
            return None
        usable = checks_in_reply(reply.text or "", context.words or context.request)
        self.scripts[rel] = usable
        return usable

    async def refine(self, rel: str, old: str | None, candidate: Authored, reply: str,
                     messages: list[Message], script: str, ask: Ask) -> Authored:
        """``candidate``, or a later try that fails fewer of the checks; with their report.
        Each try is told what failed in the one before and is sampled, not greedy: the most
        likely reply of a small model is the same file again."""
        best, best_run = candidate, await self._run(rel, candidate, script)
        last, last_run = reply, best_run
        for _ in range(RETRIES):
            if last_run.problem or not last_run.failed or self.caller.accounting.exhausted:
                break
            again = messages + [{"role": "assistant", "content": last},
                                {"role": "user", "content": checks_failed_request(
                                    rel, last_run.describe())}]
            tried, last = await ask(again, RETRY_TEMPERATURE)
            if tried.content is None or problems(rel, old, tried.content):
                break
            last_run = await self._run(rel, tried, script)
            if last_run.problem:
                break
            if len(last_run.failed) <= len(best_run.failed):
                best, best_run = tried, last_run
        return _reported(best, best_run)

    async def _run(self, rel: str, candidate: Authored, script: str) -> CheckRun:
        return await run_checks(self.workspace, rel, candidate.content or "", script,
                                self.sandbox_mode)


def _reported(candidate: Authored, run: CheckRun) -> Authored:
    return replace(candidate, checks=run.describe(), checks_failed=bool(run.failed))
