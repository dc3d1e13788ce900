"""Reading a small model's check script as it meant it, and keeping only what the person said.

The asserts a small model writes for a request's examples mostly state the right values in
forms that cannot pass: ``assert f("x") == ValueError`` for "f("x") raises ValueError",
``raises(ValueError, f("x"))`` with the call already made, ``pytest.raises`` without pytest,
a line that is not Python among good ones, the same assert fifty times, a reply cut off in the
middle of a statement. Here each is turned into the check it meant; lines that do not parse
are dropped (a cut-off tail too); repeated statements are kept once; at most ``MAX_CHECKS``
checks are kept. Only a check whose strings and numbers, expected lists and the error it
expects all appear in the person's own words is kept (one made of 0, 1, None and booleans
alone is the model's guess): a small model asked for the request's examples goes on
inventing more, with wrong values. A name the script imports from the file under check that
the file does not define, and every statement using it, is dropped: a check of a name the
file does not have says nothing of the file.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeGuard

from core.engine.authoring.blocks import code_blocks
from core.tools.check_runs import raises_block

MAX_CHECKS = 15
MAX_REPAIRS = 40  # lines dropped at most before the script counts as unusable
NUMBER = re.compile(r"\d+(?:\.\d+)?")
WORD = re.compile(r"\w+")


def checks_in_reply(reply: str, words: str, module: str = "",
                    defined: Iterable[str] = ()) -> str | None:
    """The checks of a reply that the person's ``words`` state (its longest fenced block, or
    a block it was cut off in: its last line is dropped, whole or not: ``assert LR``
    parses); ``module`` is the one checked, ``defined`` the names its file defines. None
    when no such check is left."""
    blocks = code_blocks(reply)
    if not blocks:
        return None
    block = max(blocks, key=lambda block: len(block.body))
    body = block.body if block.closed else "".join(block.body.splitlines(True)[:-1])
    return said_checks(body, words, module, defined)


def said_checks(script: str, words: str, module: str = "",
                defined: Iterable[str] = ()) -> str | None:
    """The script read as meant, in one pass, keeping the checks ``words`` state and the
    other statements (imports, set-up); names taken from ``module`` that ``defined`` lacks,
    and the statements using them, left out. None when no check is left."""
    tree = _parsed(script)
    if tree is None:
        return None
    stated = Said.of(words)
    kept: list[ast.stmt] = []
    checks = 0
    seen: set[str] = set()
    for stmt in without_invented(tree.body, module, set(defined)):
        stmt = _meant(stmt)
        if stmt is None:
            continue
        key = ast.unparse(stmt)
        if key in seen:
            continue
        seen.add(key)
        if not _is_check(stmt):
            kept.append(stmt)
        elif stated.states(stmt) and checks < MAX_CHECKS:
            checks += 1
            kept.append(stmt)
    return _script(kept) if checks else None


def _script(body: list[ast.stmt]) -> str:
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))) + "\n"


@dataclass(frozen=True)
class Said:
    """What a request states, read once: its text, the text without spaces, its numbers and
    its words."""

    text: str
    flat: str
    numbers: frozenset[str]
    words: frozenset[str]

    @classmethod
    def of(cls, request: str) -> Said:
        return cls(request, _squeezed(request), frozenset(NUMBER.findall(request)),
                   frozenset(WORD.findall(request)))

    def states(self, check: ast.stmt) -> bool:
        """Whether every string and number ``check`` compares with, every expected list or
        dict, and every error it expects, is in the request (the empty string, 0 and 1
        always are), and at least one of them is more than 0, 1, None or a bool: made of
        those alone, a check is the model's guess (``LRUCache(1).put(1, 1) == 1``, where
        put returns None: in the evaluation's check scripts, 4 of 8 such "said" checks were
        wrong, 6 of 91 of the others)."""
        nodes = list(ast.walk(check))
        return all(self._states(node) for node in nodes) and any(map(_telling, nodes))

    def _states(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Compare) and isinstance(
                node.comparators[0], (ast.List, ast.Tuple, ast.Dict, ast.Set)):
            return _squeezed(ast.unparse(node.comparators[0])) in self.flat
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return not node.value or node.value in self.text
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            shown = str(node.value)
            return node.value in (0, 1) or not NUMBER.fullmatch(shown) or shown in self.numbers
        if isinstance(node, (ast.Name, ast.Attribute)) and _is_error(node):
            return (node.id if isinstance(node, ast.Name) else node.attr) in self.words
        return True


def _telling(node: ast.AST) -> bool:
    """Whether ``node`` is a value that ties a check to the request: a string, a number
    other than 0 and 1, a non-empty literal list, tuple, set or dict, an error."""
    if isinstance(node, ast.Constant):
        value = node.value
        return isinstance(value, str) or (isinstance(value, (int, float)) and not isinstance(
            value, bool) and value not in (0, 1))
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return bool(node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.keys)
    return isinstance(node, (ast.Name, ast.Attribute)) and _is_error(node)


def _squeezed(text: str) -> str:
    return "".join(text.split()).replace("'", '"')


def _parsed(script: str) -> ast.Module | None:
    """The script's statements, leaving out lines that do not parse (a cut-off end too)."""
    lines = script.splitlines()
    for _ in range(MAX_REPAIRS):
        try:
            return ast.parse("\n".join(lines))
        except SyntaxError as exc:
            bad = (exc.lineno or len(lines)) - 1
            if not 0 <= bad < len(lines):
                bad = len(lines) - 1
            if exc.msg.startswith("unterminated") or "was never closed" in exc.msg \
                    or bad >= len(lines) - 1:
                lines = lines[:bad]  # a statement that never ends: it and all after it
            else:
                del lines[bad]
            if not lines:
                return None
    return None


def _meant(stmt: ast.stmt) -> ast.stmt | None:
    """The statement as its writer meant it; None for one that cannot run here."""
    if isinstance(stmt, ast.Import) and any(a.name == "pytest" for a in stmt.names):
        return None
    if isinstance(stmt, ast.ImportFrom) and stmt.module == "pytest":
        return None
    return _Meant().visit(stmt)  # type: ignore[no-any-return]


def _meant_test(test: ast.expr) -> ast.expr:
    """``x == SomeError`` → ``raises(SomeError, lambda: x)``; ``raises(E, f(a))`` →
    ``raises(E, lambda: f(a))``."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 \
            and isinstance(test.ops[0], (ast.Eq, ast.Is)):
        if _is_error(test.comparators[0]):
            return _raises(test.comparators[0], test.left)
        if _is_raises(test.comparators[0]):  # f(x) == raises(E, f, x)
            return _meant_test(test.comparators[0])
    if _is_raises(test) and len(test.args) == 2 and isinstance(test.args[1], ast.Call):
        return _raises(test.args[0], test.args[1])
    return test


def _is_raises(node: ast.expr) -> TypeGuard[ast.Call]:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id == "raises" and not node.keywords


def _raises(error: ast.expr, expression: ast.expr) -> ast.expr:
    thunk = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                          kw_defaults=[], defaults=[]), body=expression)
    return ast.Call(func=ast.Name("raises", ast.Load()), args=[error, thunk], keywords=[])


def _is_error(node: ast.expr) -> bool:
    name = node.id if isinstance(node, ast.Name) else \
        node.attr if isinstance(node, ast.Attribute) else ""
    known = getattr(builtins, name, None)
    return name.endswith(("Error", "Exception")) or (
        isinstance(known, type) and issubclass(known, BaseException))


def _is_check(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Assert):
        return True
    if isinstance(stmt, ast.FunctionDef) and stmt.name.startswith("test"):
        return any(isinstance(node, ast.Assert) for node in ast.walk(stmt))
    return raises_block(stmt)


class _Meant(ast.NodeTransformer):
    """Each assert's test as meant; ``pytest.raises(...)`` → ``raises(...)`` (the check
    prelude's own)."""

    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        node = self.generic_visit(node)  # type: ignore[assignment]
        node.test = _meant_test(node.test)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        if isinstance(node.value, ast.Name) and node.value.id == "pytest" \
                and node.attr == "raises":
            return ast.copy_location(ast.Name("raises", ast.Load()), node)
        return self.generic_visit(node)  # type: ignore[return-value]


def without_invented(body: list[ast.stmt], module: str, known: Iterable[str]
                     ) -> list[ast.stmt]:
    """``body`` without the names it takes from ``module`` that are not ``known``, and
    without the statements that use them (``from m import a, b`` and ``import m`` with
    ``m.b``, at the script's top level)."""
    if not module:
        return body
    known = set(known)
    invented: set[str] = set()
    aliases: set[str] = set()
    kept: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module == module and not stmt.level:
            names = [a for a in stmt.names if a.name == "*" or a.name in known]
            invented.update(a.asname or a.name for a in stmt.names if a not in names)
            if names:
                kept.append(ast.copy_location(
                    ast.ImportFrom(module=stmt.module, names=names, level=0), stmt))
            continue
        if isinstance(stmt, ast.Import):
            aliases.update(a.asname or a.name for a in stmt.names if a.name == module)
        if not _uses(stmt, invented, aliases, known):
            kept.append(stmt)
    return kept


def _uses(stmt: ast.stmt, invented: set[str], aliases: set[str], known: set[str]) -> bool:
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and node.id in invented:
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in aliases and node.attr not in known:
            return True
    return False
