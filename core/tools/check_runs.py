"""Running a model-written check script against a file's candidate content, off the workspace.

The phase engine asks the model for asserts of the examples and rules a request states, and
runs them here before it writes a Python file: in a temporary copy of the workspace with the
candidate content in place, with the command sandbox (read-only machine, no network), with a
time limit. Each top-level statement of the script runs on its own, so one failing assert
does not hide the others; the result counts the asserts and lists what failed.
"""

from __future__ import annotations

import ast
import asyncio
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from core.tools import scratch

TIMEOUT_S = 20
SCRIPT = "_phasedesk_checks.py"
UNIMPORTED = re.compile(r"^line \d+: (?:from \S+ )?import .* → ImportError: cannot import name")
MARK = "@@phasedesk-checks@@"
PRELUDE = '''
import json as __json
import re as __re
__failed = []
__ran = 0


def _pd_matches(value, match):
    return match is None or __re.search(match, str(value)) is not None


class __Raising:
    def __init__(self, exc, match):
        self.exc = exc
        self.match = match

    def __enter__(self):
        return self

    def __exit__(self, kind, value, trace):
        name = getattr(self.exc, "__name__", "it")
        if kind is None:
            raise AssertionError("did not raise " + name)
        if issubclass(kind, self.exc) and not _pd_matches(value, self.match):
            raise AssertionError(name + " message " + repr(str(value)) + " does not match "
                                 + repr(self.match))
        return issubclass(kind, self.exc)


def raises(exc, fn=None, *args, match=None, **kwargs):
    """Whether calling fn(*args, **kwargs) raises exc (with a message ``match`` finds, as
    pytest.raises takes it); without fn, a block that must."""
    if fn is None:
        return __Raising(exc, match)
    try:
        fn(*args, **kwargs)
    except exc as error:
        return _pd_matches(error, match)
    return False


def _pd_shown(value):
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


_PD_TESTS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
             "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
             "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
             "is": lambda a, b: a is b, "is not": lambda a, b: a is not b}


def _pd_compare(left, right, op, shown):
    if _PD_TESTS[op](left, right):
        return
    if shown == "left":
        raise AssertionError("got " + _pd_shown(left))
    if shown == "right":
        raise AssertionError("got " + _pd_shown(right))
    raise AssertionError("left side " + _pd_shown(left) + ", right side " + _pd_shown(right))


def _pd_true(value):
    if not value:
        raise AssertionError("got " + _pd_shown(value))


def _pd_raises(exc, fn, *args, match=None, **kwargs):
    name = getattr(exc, "__name__", "it")
    try:
        value = fn(*args, **kwargs)
    except exc as error:
        if not _pd_matches(error, match):
            raise AssertionError(name + " message " + repr(str(error)) + " does not match "
                                 + repr(match))
        return
    raise AssertionError("did not raise " + name + " (it returned " + _pd_shown(value) + ")")
'''

_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
        ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}


@dataclass(frozen=True)
class CheckRun:
    """``asserts`` counted in the script, ``failed`` what went wrong (each with its line);
    ``problem`` says why the checks could not run at all."""

    asserts: int = 0
    failed: list[str] = field(default_factory=list)
    problem: str = ""

    @property
    def unimported(self) -> bool:
        """Whether the script could not import what it checks from the candidate (a name
        the candidate does not define): its checks say nothing of the candidate's code."""
        return any(UNIMPORTED.search(failure) for failure in self.failed)

    def describe(self) -> str:
        if self.problem:
            return f"the checks could not run: {self.problem}"
        if not self.failed:
            return f"all {self.asserts} checks of the request's examples pass"
        shown = "; ".join(self.failed[:6])
        return (f"{len(self.failed)} of {max(self.asserts, len(self.failed))} checks of the "
                f"request's examples fail: {shown}")


def raises_block(stmt: ast.stmt) -> bool:
    """Whether ``stmt`` is a ``with raises(E):`` block (a check of its own)."""
    return isinstance(stmt, ast.With) and any(
        isinstance(item.context_expr, ast.Call) and isinstance(item.context_expr.func, ast.Name)
        and item.context_expr.func.id == "raises" for item in stmt.items)


class _SaysWhatItGot(ast.NodeTransformer):
    """Asserts rewritten so that a failing one says the value it got, as pytest's report
    does (``assert f(1) == 2`` → "got 3"; a call that did not raise → what it returned):
    a model told only "AssertionError" cannot tell what its code did."""

    def visit_Assert(self, node: ast.Assert) -> ast.stmt:
        test = node.test
        if node.msg is not None:
            return node
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPS:
            right = test.comparators[0]
            shown = ("both" if not _literal(test.left) and not _literal(right)
                     else "right" if _literal(test.left) else "left")
            call = _call("_pd_compare", [test.left, right, ast.Constant(_OPS[type(test.ops[0])]),
                                         ast.Constant(shown)])
        elif isinstance(test, ast.Call) and isinstance(test.func, ast.Name) \
                and test.func.id == "raises" and len(test.args) >= 2:
            call = ast.Call(ast.Name("_pd_raises", ast.Load()), test.args, test.keywords)
        elif isinstance(test, ast.Call):
            call = _call("_pd_true", [test])
        else:
            return node
        return ast.copy_location(ast.Expr(call), node)


def _call(name: str, args: list[ast.expr]) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), args, [])


def _literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def harness(script: str) -> tuple[str, int]:
    """The script with each top-level statement run on its own, failures recorded (with the
    value a failing assert got), test_* functions called (those the script does not call
    itself), and the tally printed after a marker; and how many asserts it holds."""
    tree = ast.parse(script)
    asserts = sum(isinstance(node, ast.Assert) for node in ast.walk(tree)) + sum(
        raises_block(node) for node in tree.body)
    tree = _SaysWhatItGot().visit(tree)
    body: list[ast.stmt] = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body.append(stmt)
            continue
        body.append(_guarded(stmt, script))
    called = {node.func.id for stmt in tree.body if isinstance(stmt, ast.Expr)
              for node in [stmt.value] if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name)}
    tests = [s.name for s in tree.body if isinstance(s, ast.FunctionDef)
             and s.name.startswith("test") and not s.args.args and s.name not in called]
    calls = "\n".join(f"try:\n    {name}()\nexcept Exception as __e:\n"
                      f"    __failed.append('{name}(): ' + type(__e).__name__ + ': ' + str(__e)[:200])"
                      for name in tests)
    tail = f"\nprint({MARK!r} + __json.dumps(__failed))\n"
    module = ast.Module(body=body, type_ignores=[])
    return PRELUDE + ast.unparse(ast.fix_missing_locations(module)) + "\n" + calls + tail, \
        asserts


def _guarded(stmt: ast.stmt, script: str) -> ast.stmt:
    text = " ".join((ast.get_source_segment(script, stmt) or "").split())[:160]
    record = ast.parse(f"__failed.append({f'line {stmt.lineno}: {text}'!r} + ' → ' + "
                       "type(__e).__name__ + (': ' + str(__e)[:200] if str(__e) else ''))").body
    return ast.Try(body=[stmt], handlers=[ast.ExceptHandler(
        type=ast.Name("Exception", ast.Load()), name="__e", body=record)], orelse=[],
        finalbody=[])


async def run_checks(workspace: Path, path: str, content: str, script: str,
                     sandbox_mode: str, timeout_s: float = TIMEOUT_S) -> CheckRun:
    """Run ``script`` beside ``content`` put at ``path`` in a copy of ``workspace``."""
    try:
        program, asserts = harness(script)
    except (SyntaxError, ValueError) as exc:
        return CheckRun(problem=f"the check script does not parse ({exc})")
    missing = scratch.unavailable(sandbox_mode)
    if missing:
        return CheckRun(asserts, problem=missing)
    with tempfile.TemporaryDirectory(prefix="phasedesk-checks-") as scratch_dir:
        root = Path(scratch_dir) / "workspace"
        copied = await asyncio.to_thread(scratch.copy_workspace, workspace, root,
                                         {path: content, SCRIPT: program})
        if copied:
            return CheckRun(asserts, problem=copied)
        ran = await scratch.run_python(root, sandbox_mode, timeout_s, script=SCRIPT)
    return _tally(ran.output, ran.code, asserts, timeout_s)


def _tally(output: str, code: int | None, asserts: int, timeout_s: float) -> CheckRun:
    if code is None:
        return CheckRun(asserts, problem=f"they did not finish within {timeout_s:g} s")
    _, marker, tail = output.rpartition(MARK)
    if not marker:
        last = " ".join(output.strip().splitlines()[-3:])[-300:]
        return CheckRun(asserts, failed=[f"the module or the checks stopped early (exit code "
                                         f"{code}){': ' + last if last else ''}"])
    try:
        failed = [str(item) for item in json.loads(tail.strip().splitlines()[0])]
    except (ValueError, IndexError):
        return CheckRun(asserts, problem="the checks printed an unreadable tally")
    if not asserts and not failed:
        return CheckRun(problem="the check script holds no assert")
    return CheckRun(asserts, failed=failed)
