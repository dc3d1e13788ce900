"""The evaluation tasks: each ``tasks/NAME/`` holds ``request.txt`` (and the same request in
other languages, ``request.LANG.txt``), ``workspace/`` (copied for every run), ``check.py``
(exit 0 = done) and, for some, a hand-written solution: files in ``solution/`` laid over the
workspace and/or ``solution-summary.txt`` (for questions)."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
CHECK_TIMEOUT_S = 180
ENGLISH = "en"
LANGS = (ENGLISH, "zh", "ja", "de", "fr", "es", "ru")  # en: request.txt; else request.LANG.txt


@dataclass(frozen=True)
class Task:
    name: str
    folder: Path
    lang: str = ENGLISH  # which request file the runs are given

    @property
    def request_file(self) -> Path:
        name = "request.txt" if self.lang == ENGLISH else f"request.{self.lang}.txt"
        return self.folder / name

    @property
    def request(self) -> str:
        """The request in the task's language; ``FileNotFoundError`` naming the file when that
        language's request is missing."""
        file = self.request_file
        if not file.is_file():
            raise FileNotFoundError(f"{self.name} has no request in {self.lang!r}: {file} is "
                                    "missing")
        return file.read_text(encoding="utf-8").strip()

    @property
    def workspace(self) -> Path:
        return self.folder / "workspace"

    @property
    def checker(self) -> Path:
        return self.folder / "check.py"

    @property
    def has_solution(self) -> bool:
        return (self.folder / "solution").is_dir() or self._summary_file.is_file()

    @property
    def _summary_file(self) -> Path:
        return self.folder / "solution-summary.txt"

    def prepare(self, target: Path) -> Path:
        """A fresh copy of the task's workspace at ``target``."""
        shutil.copytree(self.workspace, target)
        return target

    def apply_solution(self, workspace: Path) -> str:
        """Lay the hand-written solution over ``workspace``; returns its summary text."""
        solution = self.folder / "solution"
        if solution.is_dir():
            shutil.copytree(solution, workspace, dirs_exist_ok=True)
        file = self._summary_file
        return file.read_text(encoding="utf-8") if file.is_file() else ""


@dataclass(frozen=True)
class Verdict:
    passed: bool
    message: str


def all_tasks() -> list[Task]:
    return [Task(p.name, p) for p in sorted(TASKS_DIR.iterdir())
            if (p / "check.py").is_file() and (p / "workspace").is_dir()]


def select(names: list[str] | None, lang: str = ENGLISH) -> list[Task]:
    """The named tasks in suite order (all when ``names`` is empty), their requests in ``lang``;
    ``ValueError`` naming any unknown task, unknown language, or task without that language's
    request file."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
    chosen = [replace(task, lang=lang) for task in pick(all_tasks(), names)]
    missing = [task.name for task in chosen if not task.request_file.is_file()]
    if missing:
        raise ValueError(f"no request.{lang}.txt in {len(missing)} task(s): "
                         f"{', '.join(missing)}")
    return chosen


def pick(tasks: list[Task], names: list[str] | None) -> list[Task]:
    """The named ones of ``tasks``, in their order (all when ``names`` is empty);
    ``ValueError`` naming any unknown one."""
    if not names:
        return tasks
    known = {task.name: task for task in tasks}
    unknown = [name for name in names if name not in known]
    if unknown:
        shown = ", ".join(list(known)[:40]) + (", …" if len(known) > 40 else "")
        raise ValueError(f"unknown task(s): {', '.join(unknown)}; known: {shown}")
    return [task for task in tasks if task.name in names]


def draw(tasks: list[Task], sample: int, seed: int) -> list[Task]:
    """``sample`` of ``tasks`` drawn at random with ``seed`` (the same draw every time), in
    their order; ``ValueError`` unless ``sample`` is between 1 and how many there are."""
    if not 1 <= sample <= len(tasks):
        raise ValueError(f"--sample {sample}: there are {len(tasks)} task(s) to draw from")
    drawn = set(random.Random(seed).sample(range(len(tasks)), sample))
    return [task for index, task in enumerate(tasks) if index in drawn]


def check(task: Task, workspace: Path, summary_file: Path) -> Verdict:
    """Run the task's checker on ``workspace`` with the run's saved summary."""
    try:
        done = subprocess.run([sys.executable, str(task.checker), str(workspace),
                               str(summary_file)], capture_output=True, text=True,
                              timeout=CHECK_TIMEOUT_S, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Verdict(False, f"the checker took longer than {CHECK_TIMEOUT_S} s")
    lines = (done.stdout + done.stderr).strip().splitlines()
    message = lines[-1] if lines else f"checker exited {done.returncode}"
    return Verdict(done.returncode == 0, message.removeprefix("FAIL: "))
