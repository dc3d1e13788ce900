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
                 "core.engine.classic.engine", "core.engine.stages.caller",
                 "core.engine.stages.schemas", "core.engine.summary", "core.engine.build",
                 "core.store.history", "core.store.export", "core.cli.headless",
                 "core.cli.history_commands", "core.llm.openai_client", "core.tools.registry"):
        assert name in modules, name
    flat = {n for n in modules if n.count(".") == 1 and n.startswith("core.")}
    assert flat <= {"core.approval", "core.appdirs", "core.config", "core.events",
                    "core.schema", "core.secrets", "core.engine", "core.store", "core.cli",
                    "core.llm", "core.tools", "core.shapes", "core.session"}, flat


def test_no_engine_file_compares_a_provider_name() -> None:
    engine = ROOT / "core" / "engine"
    hits = [f"{p.name}: {line.strip()}" for p in engine.rglob("*.py")
            for line in p.read_text(encoding="utf-8").splitlines()
            if ".provider" in line and ("==" in line or "!=" in line or " in (" in line)]
    assert hits == []


def forbidden(edges: dict[str, set[str]], where: str, banned: tuple[str, ...]) -> list[str]:
    """``module -> target`` for each import by a module under ``where`` of a module under
    one of ``banned`` (a package name covers its modules)."""
    def under(name: str, package: str) -> bool:
        return name == package or name.startswith(package + ".")

    return sorted(f"{name} -> {target}" for name, targets in edges.items() if under(name, where)
                  for target in targets if any(under(target, b) for b in banned))


def test_the_engine_asks_core_llm_for_stage_calls_and_never_forces_them_itself() -> None:
    assert forbidden(graph(), "core.engine", ("core.llm.forcing", "core.llm.probe")) == []


def test_the_model_boundary_imports_no_tools_engine_or_store() -> None:
    assert forbidden(graph(), "core.llm", ("core.tools", "core.engine", "core.store")) == []


def test_the_store_imports_no_tools_engine_or_model() -> None:
    assert forbidden(graph(), "core.store", ("core.tools", "core.engine", "core.llm")) == []


def test_the_import_rules_find_what_they_forbid() -> None:
    edges = {"core.engine.stages.caller": {"core.llm.forcing", "core.llm.base"},
             "core.engine.phase.engine": {"core.llm.probe"}, "core.engines": {"core.llm.probe"},
             "core.llm.factory": {"core.tools", "core.config"}, "core.llm.x": {"core.store.history"}}
    assert forbidden(edges, "core.engine", ("core.llm.forcing", "core.llm.probe")) == [
        "core.engine.phase.engine -> core.llm.probe", "core.engine.stages.caller -> core.llm.forcing"]
    assert forbidden(edges, "core.llm", ("core.tools", "core.engine", "core.store")) == [
        "core.llm.factory -> core.tools", "core.llm.x -> core.store.history"]


# Only core/tools opens workspace files. What counts as touching files: a call of open,
# io.open, os.open / fdopen / scandir / listdir / walk / remove / unlink / rename / replace /
# rmdir / mkdir / makedirs, any shutil function, or a path method that reads, writes, lists
# or deletes (read_text, read_bytes, write_text, write_bytes, iterdir, glob, rglob, unlink,
# rmdir, mkdir, touch, rename). Checks that only test a path (exists, is_dir, stat) are not
# counted, nor methods named ``open`` (``tools.open()`` starts MCP servers).
# Two rules: core/engine touches no file at all (it reaches the workspace through
# core/tools), and no module outside core/tools touches a path built from something named
# ``workspace`` (other modules do open their own files: the config, the history database,
# exports, model scripts).
FILE_FUNCTIONS = {"open", "io.open", "os.open", "os.fdopen", "os.scandir", "os.listdir",
                  "os.walk", "os.remove", "os.unlink", "os.rename", "os.replace", "os.rmdir",
                  "os.mkdir", "os.makedirs"}
PATH_METHODS = {"read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "glob",
                "rglob", "unlink", "rmdir", "mkdir", "touch", "rename"}


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def file_touches(source: str) -> list[tuple[int, str, bool]]:
    """(line, what, whether it names a workspace) for each call that touches files."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if name in FILE_FUNCTIONS or name.startswith("shutil.") or method in PATH_METHODS:
            words = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)] + \
                [n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)]
            found.append((node.lineno, name or method,
                          any("workspace" in w.lower() for w in words)))
    return found


def test_the_engine_touches_no_file_itself() -> None:
    touches = [f"{name}:{line} {what}" for name, path in project_modules().items()
               if name.startswith("core.engine")
               for line, what, _ in file_touches(path.read_text(encoding="utf-8"))]
    assert touches == []


def test_only_core_tools_touches_workspace_paths() -> None:
    modules = dict(project_modules(), main_qt=ROOT / "main_qt.py")
    touches = [f"{name}:{line} {what}" for name, path in modules.items()
               if not (name == "core.tools" or name.startswith("core.tools."))
               for line, what, workspace in file_touches(path.read_text(encoding="utf-8"))
               if workspace]
    assert touches == []


def test_the_file_rules_find_what_they_forbid() -> None:
    source = "\n".join([
        "text = (workspace / rel).read_text()",               # 1: workspace
        "handle = open(self.run_state.workspace / 'a.txt')",  # 2: workspace
        "entries = os.scandir(root)",                         # 3: a file touch
        "shutil.rmtree(settings.workspace)",                  # 4: workspace
        "data = path.read_bytes()",                           # 5: a file touch
        "await self.tools.open(self.emit)",                   # not a file
        "ready = (workspace / rel).exists()",                 # only a check
    ])
    assert file_touches(source) == [(1, "read_text", True), (2, "open", True),
                                    (3, "os.scandir", False), (4, "shutil.rmtree", True),
                                    (5, "path.read_bytes", False)]


# Models are built in one place: core/engine/runner.py (and the model boundary itself).
# Anywhere else, importing the factory (core.llm.factory) or calling a model class
# (OpenAIModel, EmbeddedModel, ScriptedModel, or ScriptedModel.from_file) fails this.
MODEL_BUILDERS = ("core.engine.build", "core.llm")
MODEL_CLASSES = {"OpenAIModel", "EmbeddedModel", "ScriptedModel", "ScriptedModel.from_file"}


def model_builds(source: str) -> list[tuple[int, str]]:
    """(line, what) for each call of a model class in ``source``."""
    return [(node.lineno, _dotted(node.func)) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and (
                _dotted(node.func) in MODEL_CLASSES
                or _dotted(node.func).rpartition(".")[2] in MODEL_CLASSES - {"from_file"})]


def outside_the_builders(name: str) -> bool:
    return not any(name == b or name.startswith(b + ".") for b in MODEL_BUILDERS)


def test_models_are_built_only_by_the_runner() -> None:
    edges = {name: targets for name, targets in graph().items() if outside_the_builders(name)}
    assert forbidden(edges, "core", ("core.llm.factory",)) == []
    assert forbidden(edges, "ui", ("core.llm.factory",)) == []
    modules = dict(project_modules(), main_qt=ROOT / "main_qt.py")
    builds = [f"{name}:{line} {what}" for name, path in modules.items()
              if outside_the_builders(name)
              for line, what in model_builds(path.read_text(encoding="utf-8"))]
    assert builds == []


def test_the_model_rule_finds_what_it_forbids() -> None:
    source = "\n".join(["model = OpenAIModel(url, name)",
                        "model = ScriptedModel.from_file(path)",
                        "model = embedded.EmbeddedModel()",
                        "model = factory.make_models(settings)"])
    assert model_builds(source) == [(1, "OpenAIModel"), (2, "ScriptedModel.from_file"),
                                    (3, "embedded.EmbeddedModel")]
    edges = {"ui.run_controller": {"core.llm.factory"}, "core.engine.build": {"core.llm.factory"}}
    assert forbidden({n: t for n, t in edges.items() if outside_the_builders(n)}, "ui",
                     ("core.llm.factory",)) == ["ui.run_controller -> core.llm.factory"]


def test_runs_start_in_one_place() -> None:
    """``Store.start_run`` is called by ``core.store.runs.start_recorded_run`` alone, which
    ``core.session`` alone calls, and both front ends start runs through ``core.session``
    (neither builds an engine itself)."""
    modules = project_modules()
    callers = [name for name, path in modules.items()
               if ".start_run(" in path.read_text(encoding="utf-8")]
    assert callers == ["core.store.runs"]
    starters = [name for name, path in modules.items()
                if "start_recorded_run(" in path.read_text(encoding="utf-8")
                and name != "core.store.runs"]
    assert starters == ["core.session"]
    edges = graph()
    for front_end in ("ui.run_controller", "core.cli.headless"):
        assert "core.session" in edges[front_end], front_end
        assert "core.store.runs" not in edges[front_end], front_end


def test_the_engine_base_names_no_assist_and_tools_import_no_engine() -> None:
    """The shared engine reaches model-specific helpers only through the assists package
    (``core.engine.assists``), never a helper module by name; only that package imports
    them; the workspace tools import nothing from the engine."""
    edges = graph()
    helpers = {name for name in edges if name.startswith("core.engine.assists.")}
    assert helpers, "the assists package holds the helpers"
    named = sorted(f"{name} -> {target}" for name, targets in edges.items()
                   if not name.startswith("core.engine.assists") for target in targets
                   if target in helpers)
    assert named == []
    assert forbidden(edges, "core.tools", ("core.engine",)) == []
