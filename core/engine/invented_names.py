"""Checks of functions nobody asked for are not checks of the file.

Asked for checks of a request that names no function ("The tests in test_stats.py fail. Fix
the bug in stats.py"), the 1.5B model wrote ``from stats import mean, median, mode`` and
asserts of all three: ``median`` and ``mode`` exist neither in the file nor in the request,
so the import failed and every check with it, against the right fix too; the engine retried
a file that was right and reported the run's checks as failing. A name a check script
imports from the module under check that is neither a word of the request nor defined by
the file (as it was, or as the candidate writes it) is the model's invention: it leaves the
import, and the statements that use it are dropped.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable


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
