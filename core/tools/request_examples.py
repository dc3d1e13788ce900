"""The examples a request states, and whether a Python file meets them.

A person often writes what a function must give: ``to_int("1.2.3.4") is 16909060``,
``wrap_text("a b", 1) gives ["a", "b"]``, or a doctest (``>>> f(2)`` above ``4``). These
are the person's own checks, read from their words without a model: a call of a plain
function with literal arguments, a connecting word, and a literal result that ends where the
sentence does. Under a line that describes one function of one required argument
(``to_snake_case(name) turns ...``), an input and its result suffice: ``"userID" gives
"user_id"`` is ``to_snake_case("userID")``, until the next such line. Anything less clear (a
method, a name as argument, "[34, 33] cents", a line naming two functions) is not an
example. The calls run against a candidate file in a sandboxed copy of the workspace; nothing
reaches the workspace.
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import json
import re
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from core.tools import scratch
from core.tools.test_runs import TestRun

TIMEOUT_S = 20
PER_CALL_S = 5
MAX_EXAMPLES = 40
MAX_SPAN = 400  # characters a stated call or its result may take (bounds the scan)
MAX_TRIED = 160  # inputs-and-results looked at, at most (bounds the scan of a long request)
SHOWN = 160  # characters of a result shown in a failure line
CALL_START = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(")
CONNECTOR = re.compile(r"\s*(?:==|=>|->|→|\bis\b|\bgives\b|\breturns\b|\bshould (?:return|give|"
                       r"be)\b|\bevaluates to\b|\bequals\b)[ \t]+")
AFTER_WORDS = re.compile(r"\s+(?:\(|(?:and|because|since|when|while|but)\b)")
SCOPED = re.compile(r"\s(?:gives|returns|->|→|=>)[ \t]+")
BOUNDARY = " \t(:;,"
LITERAL_STARTS = frozenset("\"'([{-+.0123456789TFN")
DOCTEST = re.compile(r"^\s*>>> (.+)\n\s*([^\n>][^\n]*)$", re.MULTILINE)
NOT_FUNCTIONS = frozenset(dir(builtins))


@dataclass(frozen=True)
class Example:
    """``call`` (source of a call of ``name`` with literal arguments) should equal the literal
    ``expected`` (its source)."""

    name: str
    call: str
    expected: str

    def words(self) -> str:
        return f"{self.call} should give {self.expected}"


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


def stated_examples(text: str) -> tuple[Example, ...]:
    """The examples ``text`` states, each once, in order."""
    found: dict[tuple[str, str], Example] = {}
    for example in [*_prose(text), *_scoped(text), *_doctests(text)]:
        found.setdefault((example.call, example.expected), example)
    return tuple(found.values())[:MAX_EXAMPLES]


def _prose(text: str) -> list[Example]:
    examples = []
    for match in CALL_START.finditer(text):
        end = _closing(text, match.end() - 1)
        if end < 0:
            continue
        connector = CONNECTOR.match(text, end)
        if connector is None:
            continue
        start = connector.end()
        line_end = text.find("\n", start, start + MAX_SPAN + 1)
        whole = line_end >= 0 or len(text) - start <= MAX_SPAN
        expected = _literal_at(text[start:line_end if line_end >= 0 else start + MAX_SPAN],
                               whole)
        example = _example(text[match.start():end], expected)
        if example is not None:
            examples.append(example)
    return examples


def _scoped(text: str) -> list[Example]:
    """Examples stated as an input and its result under the line that describes their
    function (see the module's docstring)."""
    examples = []
    name = ""
    tried = 0
    for line in text.splitlines():
        if len(line) > 4 * MAX_SPAN:
            continue
        described = _described(line)
        if described is not None:
            name = described
        for connector in SCOPED.finditer(line) if name else ():
            tried += 1
            if tried > MAX_TRIED:
                return examples
            argument = _literal_before(line, connector.start())
            if not argument:
                continue
            rest = line[connector.end():connector.end() + MAX_SPAN]
            opened = connector.start() - len(argument) - 1
            expected = _literal_at(rest, len(line) - connector.end() <= MAX_SPAN) or (
                _literal_closed(rest) if opened >= 0 and line[opened] == "(" else "")
            example = _example(f"{name}({argument})", expected)
            if example is not None:
                examples.append(example)
    return examples


def _literal_closed(rest: str) -> str:
    """The shortest start of ``rest`` that is a literal followed by ")"."""
    for end in range(1, len(rest)):
        if rest[end] == ")" and _is_literal(rest[:end].strip()):
            return rest[:end].strip()
    return ""


def _described(line: str) -> str | None:
    """The function a line describes by its signature (``name(arg)``: one required
    argument); "" when the line names several signatures or one of several required
    arguments (no scope), None when it names none (the scope goes on)."""
    found = []
    for match in CALL_START.finditer(line):
        end = _closing(line, match.end() - 1)
        if end < 0:
            continue
        try:
            node = ast.parse(line[match.start():end], mode="eval").body
        except SyntaxError:
            continue
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        if all(isinstance(arg, ast.Name) for arg in node.args) and all(
                keyword.arg and _is_literal(ast.unparse(keyword.value))
                for keyword in node.keywords):
            found.append((node.func.id, len(node.args)))
    if not found:
        return None
    return found[0][0] if len(found) == 1 and found[0][1] == 1 else ""


def _literal_before(line: str, end: int) -> str:
    """The shortest literal that ends at ``end`` and starts after a space, "(", ":", ";" or
    "," (or at the line's start); "" when there is none."""
    for start in range(end - 1, max(-1, end - MAX_SPAN), -1):
        if start and line[start - 1] not in BOUNDARY:
            continue
        source = line[start:end]
        if source[0] not in LITERAL_STARTS or source[0] in "\"'" and source[-1] != source[0] \
                or source[0] in "TFN" and source not in ("True", "False", "None"):
            continue
        if source.strip() == source and _is_literal(source):
            return source
    return ""


def _doctests(text: str) -> list[Example]:
    examples = []
    for match in DOCTEST.finditer(text):
        expected = match.group(2).strip()
        example = _example(match.group(1).strip(), expected if _is_literal(expected) else "")
        if example is not None:
            examples.append(example)
    return examples


def _closing(text: str, opening: int) -> int:
    """The index just after the parenthesis that closes the one at ``opening`` (-1: none on
    the same line within ``MAX_SPAN`` characters)."""
    depth, quote = 0, ""
    for index in range(opening, min(len(text), opening + MAX_SPAN)):
        char = text[index]
        if char == "\n":
            return -1
        if quote:
            if char == quote and text[index - 1] != "\\":
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return index + 1
    return -1


def _literal_at(rest: str, whole: bool) -> str:
    """The shortest start of ``rest`` that is a Python literal and ends where the sentence
    does (end of line, when ``rest`` is the whole rest of it; ".", ",", ";" or ":" then a
    space; a parenthesis or "and" after a space); "" when there is none."""
    for end in range(1, len(rest) + 1):
        tail = rest[end:]
        closes = (whole and not tail.strip()) or (tail[:1] in (".", ",", ";", ":") and (
            len(tail) == 1 and whole or len(tail) > 1 and tail[1].isspace())) \
            or AFTER_WORDS.match(tail) is not None
        if closes and _is_literal(rest[:end].strip()):
            return rest[:end].strip()
    return ""


def _is_literal(source: str) -> bool:
    try:
        ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return bool(source)


def _example(call: str, expected: str) -> Example | None:
    """An example when ``call`` calls a plain name with literal arguments only."""
    if not expected:
        return None
    try:
        node = ast.parse(call, mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) \
            or node.func.id in NOT_FUNCTIONS:
        return None
    values = [*node.args, *(keyword.value for keyword in node.keywords)]
    if any(isinstance(arg, ast.Starred) for arg in node.args) \
            or any(keyword.arg is None for keyword in node.keywords) \
            or not all(_is_literal(ast.unparse(value)) for value in values):
        return None
    return Example(node.func.id, call, expected)


def defined_functions(source: str) -> set[str]:
    """The names of the functions ``source`` defines at its top level."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    return {node.name for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


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
for name, call, expected in cases:
    signal.alarm(%(per_call)d)
    try:
        got = eval(call, {"__builtins__": {}, name: getattr(module, name)})
        want = ast.literal_eval(expected)
        ok, shown, raised = bool(got == want), repr(got), False
    except BaseException as exc:
        ok, shown, raised = False, f"{type(exc).__name__}: {exc}", True
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
    cases = json.dumps([[e.name, e.call, e.expected] for e in examples])
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
    failures = tuple(f"{example.call}: the request says {example.expected}, it "
                     f"{'raised' if line.get('raised') else 'gave'} {line['got']}"
                     for example, line in zip(examples, lines) if not line["ok"])
    return ExampleRun(len(examples) - len(failures), len(failures), failures)
