"""The module graph of core/ and ui/ has no circles, and core/ stays below ui/ and Qt.

Every import counts, wherever it stands: at the top, inside a function, or under
``TYPE_CHECKING``. ``from pkg import name`` is an import of ``pkg.name`` when that is a
module, else of ``pkg``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for top in ("core", "ui") for p in (ROOT / top).rglob("*.py")}


def imports_of(path: Path, known: set[str]) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in known
                       else node.module for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    modules = project_modules()
    known = set(modules)
    return {name: imports_of(path, known) - {name} for name, path in modules.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    assert circles(graph()) == []


def test_the_checker_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_core_never_imports_ui_or_qt() -> None:
    offenders = []
    for name, path in project_modules().items():
        if not name.startswith("core"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{name}: {n}" for n in names if n.split(".")[0] in ("ui", "PySide6")]
    assert offenders == []


def test_the_layout_groups_core_by_the_flow() -> None:
    modules = set(project_modules())
    for name in ("core.engine.phase.engine", "core.engine.phase.rounds",
                 "core.engine.classic.engine", "core.engine.stage_caller",
                 "core.engine.stages", "core.engine.summary", "core.engine.runner",
                 "core.store.history", "core.store.export", "core.cli.headless",
                 "core.cli.history", "core.llm.openai_client", "core.tools.registry"):
        assert name in modules, name
    flat = {n for n in modules if n.count(".") == 1 and n.startswith("core.")}
    assert flat <= {"core.approval", "core.appdirs", "core.config", "core.events",
                    "core.schema", "core.secrets", "core.engine", "core.store", "core.cli",
                    "core.llm", "core.tools", "core.models"}, flat


def test_no_engine_file_compares_a_provider_name() -> None:
    engine = ROOT / "core" / "engine"
    hits = [f"{p.name}: {line.strip()}" for p in engine.rglob("*.py")
            for line in p.read_text(encoding="utf-8").splitlines()
            if ".provider" in line and ("==" in line or "!=" in line or " in (" in line)]
    assert hits == []
