"""No function in core/ or ui/ is longer than 50 lines, counted from its ``def`` to its last
line (docstring, comments and blank lines inside it included; nested functions count inside
the one that holds them, and on their own)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MAX_LINES = 50


def long_functions(path: Path, root: Path = ROOT) -> list[str]:
    """``path:line name (n lines)`` (``path`` from ``root``) for each function of the file
    over ``MAX_LINES``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > MAX_LINES:
                where = path.relative_to(root).as_posix()
                found.append(f"{where}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_the_counter_sees_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES - 1))
    short = tmp_path / "short.py"
    short.write_text(f"def short() -> None:\n{body}\n", encoding="utf-8")
    long = tmp_path / "long.py"
    long.write_text(f"async def long() -> None:\n    '''Doc.'''\n{body}\n", encoding="utf-8")
    assert long_functions(short, tmp_path) == []
    assert long_functions(long, tmp_path) == [f"long.py:1 long ({MAX_LINES + 1} lines)"]


def test_no_function_in_core_or_ui_is_over_fifty_lines() -> None:
    found = [entry for top in ("core", "ui") for path in sorted((ROOT / top).rglob("*.py"))
             for entry in long_functions(path)]
    assert found == []
