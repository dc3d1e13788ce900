"""A module of the workspace that a new Python file uses without importing it is imported (the
``missing_imports`` assist).

The 1.5B model wrote test_mathtools.py with ``mathtools.is_prime(2)`` in every test and no
``import mathtools``, twice (the second time told that ``mathtools`` is undefined); the
tests then failed with a NameError. A name nothing defines that is used as ``NAME.attr`` and
is a module of the workspace (``NAME.py`` beside the file or at the workspace root) gets an
``import NAME`` after the module docstring and ``__future__`` imports; the write's result
says so.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path, PurePosixPath

from core.engine.authoring.replies import Authored
from core.tools.code_checks import is_python, undefined


def with_missing_imports(workspace: Path, rel: str, text: str) -> tuple[str, list[str]]:
    """``text`` with the workspace modules it uses but never imports imported, and their
    names (none added: ``text`` as it was)."""
    missing = sorted({name for _line, name in undefined(text, rel)})
    if not missing:
        return text, []
    tree = ast.parse(text)
    used = {node.value.id for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)}
    folder = PurePosixPath(rel).parent
    names = [name for name in missing if name in used and any(
        (workspace / where / f"{name}.py").is_file() for where in {str(folder), "."})]
    if not names:
        return text, []
    body = tree.body
    start = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        start = 1
    while start < len(body) and isinstance(body[start], ast.ImportFrom) \
            and body[start].module == "__future__":
        start += 1
    lines = text.splitlines(keepends=True)
    at = (body[start - 1].end_lineno or 0) if start else 0
    added = "".join(f"import {name}\n" for name in names)
    if at and lines and not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    return "".join(lines[:at]) + added + "".join(lines[at:]), names


def amended(workspace: Path, rel: str, authored: Authored) -> Authored:
    """``authored`` with the workspace modules it uses without importing them imported, and
    a note saying so; ``authored`` itself when nothing was added."""
    if authored.content is None or not is_python(rel):
        return authored
    content, names = with_missing_imports(workspace, rel, authored.content)
    if not names:
        return authored
    listed = ", ".join(names)
    return replace(authored, content=content, amended=(
        f"The engine added `import {listed}`: the reply used {listed} without importing it, "
        "and the workspace has it."))
