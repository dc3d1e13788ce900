"""Whether a Python file meets the examples a request states (``core.shapes.reading.Example``,
from the request's reading).

The calls run against a candidate file in a sandboxed copy of the workspace; nothing reaches
the workspace.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from core.tools import scratch
from core.shapes.reading import Example
from core.tools.code_in_text import defined_functions
from core.tools.test_runs import TestRun

__all__ = ["Example", "ExampleRun", "examples_for", "run_examples"]

TIMEOUT_S = 20
PER_CALL_S = 5
SHOWN = 160  # characters of a result shown in a failure line


@dataclass(frozen=True)
class ExampleRun(TestRun):
    """How many of the examples passed and failed against one file, the failures in words,
    or ``problem`` when they could not run."""

    def describe(self) -> str:
        if self.problem:
            return f"the request's examples could not run: {self.problem}"
        total = self.passed + self.failed
        if total == 1:
            return "the request's example gives " + (
                "something else" if self.failed else "what it says")
        if not self.failed:
            return f"the request's {total} examples give what it says"
        return f"{self.failed} of the request's {total} examples give something else"


def examples_for(source: str, examples: tuple[Example, ...]) -> tuple[Example, ...]:
    """The examples that call a function ``source`` defines."""
    names = defined_functions(source)
    return tuple(example for example in examples if example.name in names)


RUNNER = """
import ast, importlib.util, json, signal, sys
path, cases = sys.argv[1], json.loads(sys.stdin.read())
sys.path[:0] = [".", __import__("os").path.dirname(path) or "."]
spec = importlib.util.spec_from_file_location("checked_module", path)
module = importlib.util.module_from_spec(spec)
try:
    spec.loader.exec_module(module)
except BaseException as exc:
    print(json.dumps({"problem": f"importing it failed: {type(exc).__name__}: {exc}"[:300]}))
    sys.exit(0)
def stop(*_):
    raise TimeoutError("took more than %(per_call)d s")
signal.signal(signal.SIGALRM, stop)
for name, call, expected, raises in cases:
    signal.alarm(%(per_call)d)
    try:
        got = eval(call, {"__builtins__": {}, name: getattr(module, name)})
        ok = not raises and bool(got == ast.literal_eval(expected))
        shown, raised = repr(got), False
    except BaseException as exc:
        ok = bool(raises) and any(kind.__name__ == raises for kind in type(exc).__mro__)
        shown, raised = f"{type(exc).__name__}: {exc}", True
    signal.alarm(0)
    print(json.dumps({"ok": ok, "got": shown[:%(shown)d], "raised": raised}), flush=True)
""" % {"per_call": PER_CALL_S, "shown": SHOWN}


async def run_examples(workspace: Path, files: dict[str, str], rel: str,
                       examples: tuple[Example, ...], sandbox_mode: str,
                       timeout_s: float = TIMEOUT_S) -> ExampleRun:
    """Run ``examples`` against the Python file ``rel`` in a copy of ``workspace`` with
    ``files`` (relative path → text) put in place."""
    if not examples:
        return ExampleRun(problem="the request states no example of this file's functions")
    missing = scratch.unavailable(sandbox_mode)
    if missing:
        return ExampleRun(problem=missing)
    cases = json.dumps([[e.name, e.call, e.expected, e.raises] for e in examples])
    with tempfile.TemporaryDirectory(prefix="phasedesk-examples-") as folder:
        root = Path(folder) / "workspace"
        copied = await asyncio.to_thread(scratch.copy_workspace, workspace, root, files)
        if copied:
            return ExampleRun(problem=copied)
        script = ".phasedesk_examples.py"
        (root / script).write_text(RUNNER + "\n", encoding="utf-8")
        command = " ".join(shlex.quote(part) for part in (scratch.python(), script, rel))
        ran = await scratch.run_in(root, command, sandbox_mode, timeout_s, stdin=cases,
                                   merge=False)
    if ran.timed_out:
        return ExampleRun(problem=f"they did not finish within {timeout_s:g} s")
    return _read(ran.output, examples)


def _read(output: str, examples: tuple[Example, ...]) -> ExampleRun:
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    if lines and "problem" in lines[0]:
        return ExampleRun(problem=str(lines[0]["problem"]))
    if len(lines) < len(examples):
        return ExampleRun(problem="the check stopped before every example ran")
    failures = tuple(f"{example.call}: the request says "
                     f"{f'it raises {example.raises}' if example.raises else example.expected}, "
                     f"it {'raised' if line.get('raised') else 'gave'} {line['got']}"
                     for example, line in zip(examples, lines) if not line["ok"])
    return ExampleRun(len(examples) - len(failures), len(failures), failures)
