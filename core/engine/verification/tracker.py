"""Gathering a run's checks as they happen, and its verification state at the end.

Six sources: test commands the run's tasks ran (their counts, and how many file changes the
run had made by then: such a run is on the final files only when nothing changed after it);
when the run changed Python files in a workspace with tests of its own, one run of those
tests on the final files; and the examples the request states, run against the final
version of each changed Python file that defines the functions they call; and the renames
the request asks for, looked up in the files in question (``renames``: a rename not done is a
failing check, one done is a sentence, not a verification); and the files the request's
reading says to create (one missing is a failing check); and what will fail
when a Python file the run wrote runs, read from its code by the authoring stage, which
weighed that text already (``code_checks.new_faults``: a name nothing defines, a method an
attribute hides, that the file did not have before the run; a failing check per file). The last five are made here by the engine, without the model.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from core.engine.verification.renames import files_in_question, leftovers
from core.engine.verification.state import Check, VerificationState, digest, verify
from core.shapes.reading import Example, Rename
from core.shapes.task import Task
from core.tools.code_checks import is_python
from core.tools.code_in_text import defined_functions
from core.tools.request_examples import ExampleRun, examples_for, run_examples
from core.tools.snapshots import snapshot
from core.tools.test_runs import read_counts, run_tests
from core.tools.workspace_tests import has_tests, is_tests_command

Known = Callable[[str, str], ExampleRun | None]
Faults = Callable[[str, str], tuple[str, ...] | None]


@dataclass
class Tracker:
    workspace: Path
    sandbox_mode: str
    commands: list[tuple[Task, int]] = field(default_factory=list)
    final_tests: str = ""  # what the engine's own run of the tests said, a sentence
    examples: tuple[Example, ...] = ()  # the examples the request states
    in_question: tuple[str, ...] = ()  # the files the request names (a rename is looked up in)
    declared: frozenset[str] = frozenset()  # the functions the request writes as calls
    renames: tuple[Rename, ...] = ()  # the renames the request asks for
    to_write: tuple[str, ...] = ()  # the new files the request tells the agent to write
    faults: Faults | None = None  # a written file's new faults (None: the run did not write it)
    test_command: str = ""  # the setting: runs the workspace's tests when set

    def task_finished(self, task: Task, changes_so_far: int) -> None:
        """Note a test command that ran (``changes_so_far``: file changes the run had made)."""
        command = str(task.arguments.get("command", "")) if task.tool == "run_command" else ""
        if command and is_tests_command(command) and task.status in ("done", "failed"):
            self.commands.append((task, changes_so_far))

    async def state(self, changed: list[str], changes: int, may_run_tests: bool = True,
                    known: Known | None = None, whole_request: bool = True
                    ) -> VerificationState:
        """The verification state of the run whose changed files are ``changed`` after
        ``changes`` file changes in all; ``may_run_tests``: the engine may run the workspace's
        tests and the request's examples on them (at the end of the run); ``known``: the
        examples' run on a file's text where one was made already (by the authoring stage);
        ``whole_request``: the files the request tells the agent to write are due (not before
        the last phase)."""
        final = await asyncio.to_thread(snapshot, self.workspace, set(changed))
        digests = {path: digest(text) for path, text in final.items()}
        checks = self._commands(digests, changes)
        if may_run_tests and changed and (self.test_command or any(
                is_python(path) for path in changed)) and not any(
                c.kind == "command" and c.current(digests) for c in checks) \
                and (self.test_command or await asyncio.to_thread(has_tests, self.workspace)):
            ran = await run_tests(self.workspace, {}, self.sandbox_mode,
                                  test_command=self.test_command)
            self.final_tests = (f"The workspace's tests did not run on the final files: "
                                f"{ran.problem}." if ran.problem else
                                f"The engine ran the workspace's tests on the final files: "
                                f"{ran.describe()}.")
            if ran.ran:
                checks.append(Check("tests", digests, ran.passed, ran.failed,
                                    "the workspace's tests, run by the engine"))
        checks += await self._examples(final, may_run_tests, known)
        if self.faults is not None:
            checks += await asyncio.to_thread(_faults, final, self.faults)
        renamed, notes = await asyncio.to_thread(self._renames, digests)
        due = self._missing(digests) if whole_request else []
        return verify(final, checks + renamed + due, notes)

    def _missing(self, digests: dict[str, str]) -> list[Check]:
        """A failing check when a file the request tells the agent to write is not there;
        made now, so on the final files (``digests``)."""
        absent = missing(self.workspace, self.to_write)
        if not absent:
            return []
        names = ", ".join(absent[:4])
        return [Check("files", digests, len(self.to_write) - len(absent), len(absent),
                      f"{names} {'does' if len(absent) == 1 else 'do'} not exist",
                      covers_all=False, missing=tuple(absent))]

    def _renames(self, digests: dict[str, str]) -> tuple[list[Check], list[str]]:
        """A failing check for the renames the request asks for that are not done, or a
        sentence saying they are all done; made now, so on the final files (``digests``)."""
        renames = self.renames
        if not renames:
            return [], []
        texts = files_in_question(self.in_question, self.workspace)
        left = [(rename, leftovers(texts, rename)) for rename in renames]
        undone = [(rename, files) for rename, files in left if files]
        if not undone:
            olds = ", ".join(rename.old for rename in renames)
            return [], [f"The renames the request asks for are done: {olds} is used in none of "
                        f"{', '.join(list(texts)[:6]) or 'the files'}."]
        by = "; ".join(f"{', '.join(files[:4])} still use{'s' if len(files) == 1 else ''} "
                       f"{rename.old}" for rename, files in undone)
        seen = {**{rel: digest(text) for rel, text in texts.items()}, **digests}
        return [Check("renames", seen, len(renames) - len(undone), len(undone), by,
                      covers_all=False)], []

    async def _examples(self, final: dict[str, str | None], may_run: bool,
                        known: Known | None) -> list[Check]:
        """The request's examples on each changed Python file that defines what they call:
        the run already made on that text, else (``may_run``) one made now."""
        checks = []
        named = set(self.declared) if self.examples else set()
        for path, text in final.items():
            stated = examples_for(text, self.examples) if text and is_python(path) else ()
            if not stated or text is None:
                continue
            ran = known(path, text) if known else None
            if ran is None and may_run:
                ran = await run_examples(self.workspace, {}, path, stated, self.sandbox_mode)
            if ran is not None and ran.ran:
                unchecked = tuple(sorted(named & defined_functions(text)
                                         - {example.name for example in stated}))
                failed = {f.split(": the request says", 1)[0] for f in ran.failures}
                checks.append(Check("examples", {path: digest(text)}, ran.passed, ran.failed,
                                    f"run by the engine on {path}", covers_all=False,
                                    unchecked=unchecked, results=tuple(
                                        (e.call, e.call not in failed) for e in stated),
                                    stated=tuple(e.code() for e in stated)))
        return checks

    def _commands(self, digests: dict[str, str], changes: int) -> list[Check]:
        checks = []
        for task, at in self.commands:
            counts = read_counts(task.result or task.error, 0 if task.status == "done" else 1)
            if counts.problem:
                continue
            seen = digests if at == changes else {}
            checks.append(Check("command", seen, counts.passed, counts.failed,
                                f"task {task.id} in round {task.round} ran "
                                f"`{str(task.arguments.get('command', ''))[:60]}`"))
        return checks


def _faults(final: dict[str, str | None], faults: Faults) -> list[Check]:
    """A failing check for each Python file the run wrote with faults it did not have
    before."""
    checks = []
    for path, text in final.items():
        found = (faults(path, text) or ()) if text and is_python(path) else ()
        if found:
            checks.append(Check("faults", {path: digest(text)}, 0, len(found),
                                f"read by the engine in {path}: {'; '.join(found[:3])}",
                                covers_all=False))
    return checks


def missing(root: Path, names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` that are not a file in ``root`` now."""
    return [name for name in names if not (root / name).is_file()]
