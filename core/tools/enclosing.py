"""The function or class a line of a Python file belongs to, for search results.

``bank.py:16:            raise ValueError("negative amount")`` does not say which function
raises it; asked "which function raises the error?", the 1.5B model searched, saw that line,
and could not answer. ``bank.py:16 (in Account.withdraw):`` does.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def enclosing(text: str) -> Callable[[int], str]:
    """A lookup from a line number to the dotted name of the innermost function or class
    around it ("" outside any, and for every line of a file that does not parse)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return lambda _line: ""
    spans: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, Definition):
                name = f"{prefix}{child.name}"
                start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                spans.append((start, child.end_lineno or child.lineno, name))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")

    def lookup(line: int) -> str:
        inside = [(start, name) for start, end, name in spans if start <= line <= end]
        return max(inside)[1] if inside else ""

    return lookup
