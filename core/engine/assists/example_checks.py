"""Checks of the request's own examples, written by the model, kept only where the person's
words give their values (the ``example_checks`` assist).

For a Python file that defines functions or classes, the model is asked once per file for a
short script of asserts of the examples the request states. The prompt shows the person's
words and the file's signatures (names and parameters, from the first candidate), so a check
calls what the file defines instead of guessing names. The reply is read as meant and
filtered (``check_reading``): a check whose values the person's words do not state, or
whose names the file does not define, is dropped. What is left runs against each candidate in
a sandboxed copy of the workspace (``core.tools.check_runs``). The authoring stage uses the
results as evidence between candidates; a check every candidate fails decides nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from core.engine.assists.check_reading import checks_in_reply
from core.engine.authoring.prompts import fenced, words_of
from core.engine.stages.caller import StageCaller
from core.llm.base import CallOptions, Message, ModelError
from core.tools.check_runs import CheckRun, run_checks
from core.tools.code_checks import definitions, is_python, signatures
from core.tools.workspace_tests import is_test_file

CHECK_TOKENS = 512
CHECKS_SYSTEM = ("You write short Python check scripts: plain assert statements, no test "
                 "framework, no printing.")


def module_of(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def checks_prompt(words: str, path: str, defined: list[str]) -> str:
    """The request for asserts of the examples the person's words state about ``path``."""
    module = module_of(path)
    shown = fenced("\n".join(defined), "python")
    return (f"The person asked:\n{words_of(words)}\n\n{path} defines:\n{shown}\n\n"
            f"Write a Python script that checks {path} against the examples the request "
            f"states: start with `from {module} import ...` (names {path} defines), then one "
            "`assert` per example the request gives, with the exact expected value it gives "
            "(at most 15). To check that a call raises an error, write `assert "
            "raises(ValueError, func, arg)` (raises is given). Check only examples the "
            "request states. Reply with the script in one fenced code block.")


def checkable(rel: str, content: str) -> bool:
    """Whether checks can import anything from ``rel`` as written: a Python module, not a
    test module, that defines a function or class."""
    return is_python(rel) and not is_test_file(rel) and bool(definitions(content, rel))


@dataclass
class ExampleChecks:
    """The check scripts of one run's files, asked once per file, and their runs."""

    caller: StageCaller
    workspace: Path
    sandbox_mode: str
    scripts: dict[str, str | None] = field(default_factory=dict)

    async def script(self, rel: str, content: str, original: str | None, words: str
                     ) -> str | None:
        """The checks of ``rel`` the person's words state (asked once per run; None when
        the model gave none that survives the reading)."""
        if rel in self.scripts:
            return self.scripts[rel]
        if self.caller.accounting.exhausted or not checkable(rel, content):
            return None
        messages: list[Message] = [
            {"role": "system", "content": CHECKS_SYSTEM},
            {"role": "user", "content": checks_prompt(words, rel,
                                                      signatures(content, rel))}]
        try:
            reply = await self.caller.raw("checks", messages, [], None, True, CallOptions(
                max_tokens=CHECK_TOKENS, temperature=0.0), detail=rel)
        except ModelError:
            self.scripts[rel] = None
            return None
        defined = definitions(content, rel) | definitions(original or "", rel)
        self.scripts[rel] = checks_in_reply(reply.text or "", words, module_of(rel),
                                            {name.split(".")[0] for name in defined})
        return self.scripts[rel]

    async def run(self, rel: str, content: str, script: str) -> CheckRun:
        return await run_checks(self.workspace, rel, content, script, self.sandbox_mode)
