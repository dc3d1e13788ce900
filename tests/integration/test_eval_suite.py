"""The evaluation suite (bench/evals): every checker can fail, hand-written solutions pass, the
exercise tasks keep their tests outside the workspace, and the runner runs the project tasks on
both engines against an OpenAI-compatible endpoint (a fake on 127.0.0.1 reached through the
real openai SDK), prints the table and saves replayable runs. The one-shot baseline has its
own tests (test_eval_oneshot.py).
"""

from __future__ import annotations

import ast
import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.evals.suite import Task, all_tasks, check, select
from bench.evals.humaneval import load_problems
from core.tools.code_in_text import code_examples
from core.tools.request_examples import examples_for, run_examples
from tests.support.fake_openai import FakeOpenAI
from tests.support.script import analysis, judge, plan, summary, task

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "bench" / "evals" / "run.py"
KINDS = {"fix-total", "fix-word-count", "add-slugify", "add-is-prime", "rename-key",
         "rename-function", "count-todos", "largest-file", "question-version",
         "question-function", "csv-pipeline", "json-pipeline", "refactor-constant",
         "run-generator"}
EXERCISES = {"ex-case-convert", "ex-csv-split", "ex-date-math", "ex-event-bus",
             "ex-flatten-dict", "ex-histogram", "ex-ini-parser", "ex-inventory", "ex-ipv4",
             "ex-lru-cache", "ex-mask-text", "ex-merge-intervals", "ex-money",
             "ex-parse-duration", "ex-password-check", "ex-query-string", "ex-rate-limiter",
             "ex-rotate-grid", "ex-rpn-calc", "ex-task-order", "ex-text-buffer", "ex-top-words",
             "ex-version-compare", "ex-word-wrap"}
WRITE_COUNT = {"tool": "write_file", "path": "todo_count.txt", "content": "6\n"}


def _checked(task: Task, tmp_path: Path, solved: bool) -> tuple[bool, str]:
    workspace = task.prepare(tmp_path / task.name / "workspace")
    summary_file = tmp_path / task.name / "summary.txt"
    summary_file.write_text(task.apply_solution(workspace) if solved else "", encoding="utf-8")
    verdict = check(task, workspace, summary_file)
    return verdict.passed, verdict.message


def test_the_suite_has_every_kind_of_task_each_with_a_request() -> None:
    tasks = all_tasks()
    assert {t.name for t in tasks} == KINDS | EXERCISES
    assert all(len(t.request) > 20 and any(t.workspace.iterdir()) for t in tasks)
    assert sum(t.has_solution for t in tasks) >= 5 + len(EXERCISES)


def _answers(tree: ast.Module) -> list[str]:
    """The functions and methods of a stub module that do more than ``pass`` or ``raise
    NotImplementedError`` (a docstring aside); exception classes (``...Error``), which a stub
    declares for the tests to catch, are left out."""
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        if not cls.name.endswith("Error"):
            functions += [n for n in cls.body if isinstance(n, ast.FunctionDef)]
    answers = []
    for function in functions:
        body = [s for s in function.body
                if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        stub = len(body) == 1 and (isinstance(body[0], ast.Pass) or (
            isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.unparse(body[0])))
        if not stub:
            answers.append(function.name)
    return answers


def test_exercises_hold_a_stub_and_keep_their_tests_outside_the_workspace() -> None:
    for task in select(sorted(EXERCISES)):
        files = sorted(p.name for p in task.workspace.rglob("*") if p.is_file())
        (module,) = files
        assert module.endswith(".py") and not module.startswith("test"), task.name
        stub = (task.workspace / module).read_text(encoding="utf-8")
        assert _answers(ast.parse(stub)) == [], (task.name, "gives part of the answer")
        assert f"{module}" in task.request, (task.name, "the request names the file")
        tests = sorted(p.name for p in (task.folder / "tests").iterdir())
        assert tests == [f"test_{module}"], task.name
        assert (task.folder / "solution" / module).is_file(), task.name
        lines = [line for line in (task.folder / "solution" / module).read_text(
            encoding="utf-8").splitlines() if line.strip()]
        assert 10 <= len(lines) <= 60, (task.name, len(lines))


def test_every_checker_fails_on_the_untouched_workspace(tmp_path: Path) -> None:
    for task in all_tasks():
        passed, message = _checked(task, tmp_path, solved=False)
        assert not passed, f"{task.name}'s checker passes untouched work"
        assert message and "Traceback" not in message, (task.name, message)


def test_hand_written_solutions_pass_their_checkers(tmp_path: Path) -> None:
    solved = [task for task in all_tasks() if task.has_solution]
    for task in solved:
        assert _checked(task, tmp_path, solved=True) == (True, "PASS"), task.name


def test_examples_written_as_code_in_humaneval_docstrings_hold_for_the_canonical_solutions(
        tmp_path: Path) -> None:
    """An example read wrongly would fail a right file (and send candidates after it): the
    examples the engine reads without a model (``>>>``, ``f(x) == y``) in HumanEval's prompts,
    run against its canonical solutions. A few of its docstrings state wrong results
    (median, sort_array, bf) or a recurrence written as calls (tri(1) = 3), so a handful fail;
    more would mean the reader misreads."""
    problems = load_problems()
    with_checks, checks, false = 0, 0, []
    for problem in problems:
        stated = code_examples(problem.prompt)
        own = examples_for(problem.solution, stated)
        if not own:
            continue
        folder = tmp_path / problem.name
        folder.mkdir()
        ran = asyncio.run(run_examples(folder, {problem.module: problem.solution},
                                       problem.module, own, "auto"))
        with_checks, checks = with_checks + 1, checks + ran.passed + ran.failed
        false += [problem.entry_point] * ran.failed
    assert with_checks >= 130 and checks >= 350  # of 164, before the model reads any
    assert sorted(set(false)) == ["bf", "median", "sort_array", "tri"]
    assert len(false) <= 0.02 * checks


def test_a_checker_fails_on_a_half_done_rename(tmp_path: Path) -> None:
    (rename,) = select(["rename-key"])
    workspace = rename.prepare(tmp_path / "ws")
    rename.apply_solution(workspace)
    (workspace / "README.md").write_text("Settings: `listen_listen_port`\n", encoding="utf-8")
    summary_file = tmp_path / "summary.txt"
    summary_file.write_text("", encoding="utf-8")
    verdict = check(rename, workspace, summary_file)
    assert not verdict.passed and "README.md" in verdict.message


@pytest.mark.parametrize("name", ["question-version", "question-function"])
def test_a_question_is_not_answered_by_showing_the_files_back(name: str, tmp_path: Path) -> None:
    """The one-shot reply the embedded model gave to both questions: every file again, in
    fenced blocks, no answer. The value is inside a block, so the checker fails it; the same
    value said in a sentence passes."""
    (question,) = select([name])
    workspace = question.prepare(tmp_path / "ws")
    shown = "\n\n".join(f"{p.name}\n```\n{p.read_text(encoding='utf-8')}```"
                        for p in sorted(workspace.rglob("*")) if p.is_file())
    summary_file = tmp_path / "summary.txt"
    summary_file.write_text(shown, encoding="utf-8")
    verdict = check(question, workspace, summary_file)
    assert not verdict.passed and "outside the files it shows" in verdict.message
    answer = {"question-version": "setup.cfg declares version 2.7.1.",
              "question-function": "Account.withdraw raises it."}[name]
    summary_file.write_text(shown + "\n\n" + answer, encoding="utf-8")
    assert check(question, workspace, summary_file).passed

def test_unknown_task_names_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown task.*no-such-task"):
        select(["fix-total", "no-such-task"])


def _runner(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(RUNNER), *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, cwd=ROOT)


def _stages() -> dict[str, list[dict[str, Any]]]:
    """Every run, whatever its task, writes todo_count.txt = 6 and says it is done: only
    count-todos is solved by that, on both engines."""
    write = task(1, "write_file", path="todo_count.txt", content="6\n")
    return {"request_analyser": [analysis("Write the count")],
            "plan_tool_call": [plan(write)],
            "judge_tasks": [judge([1])],
            "summarizer": [summary("Wrote todo_count.txt.")],
            "auto": [{"tool_calls": [{"tool": "write_file",
                                      "arguments": {"path": "todo_count.txt",
                                                    "content": "6\n"}}]}]}


def test_the_runner_runs_the_project_tasks_on_both_engines_against_an_endpoint(
        tmp_path: Path) -> None:
    out, results = tmp_path / "runs", tmp_path / "results.json"
    with FakeOpenAI(stages=_stages(), lifetime_s=600) as server:
        done = _runner("--base-url", server.base_url, "--model", "fake-model", "--api-key", "k",
                       "--engine", "both", "--jobs", "4", "--max-iterations", "3",
                       "--tasks", ",".join(sorted(KINDS)),
                       "--out", str(out), "--json", str(results))
    assert done.returncode == 0, done.stderr[-3000:]
    names = sorted(KINDS)
    assert "14 task(s) × phase, classic on fake-model at http://127.0.0.1" in done.stderr
    assert len(re.findall(r"^\[\d+/28\] (PASS|FAIL) ", done.stderr, re.M)) == 28
    assert re.search(r"call 1 \(request_analyser", done.stderr)
    assert done.stdout.count("== 14 task(s) on phase, classic\n") == 1
    part = done.stdout.split("\ntask ")[1].split("\n\n")[0].splitlines()[1:]
    assert [line.split()[:2] for line in part] == [[name, engine] for name in names
                                                   for engine in ("phase", "classic")]
    for engine in ("phase", "classic"):
        header = re.search(rf"^{engine} +1/14 +7% +7% +(\d+) ", done.stdout, re.M)
        assert header, done.stdout
        rows = {line.split()[0]: line.split() for line in part if line.split()[1] == engine}
        assert rows["count-todos"][2] == "PASS"
        assert all(rows[name][2] == "FAIL" for name in names if name != "count-todos")
        assert rows["count-todos"][3] == "100%"
        assert all(row[4] in ("succeeded", "unverified", "partial", "failed") for row in rows.values())
        assert sum(int(row[6]) for row in rows.values()) == int(header.group(1))
    data = json.loads(results.read_text())
    assert data == json.loads((out / "results.json").read_text())
    phase, classic = data["engines"]["phase"], data["engines"]["classic"]
    assert phase["totals"]["passed"] == classic["totals"]["passed"] == 1
    # a plan that writes only todo_count.txt where the request names another file is
    # reviewed into a write of that file, which the replies never give: those runs spend the
    # small budget; count-todos (whose file it is) completes
    assert set(phase["totals"]["statuses"]) <= {"completed", "budget_exhausted"}
    assert sum(phase["totals"]["statuses"].values()) == 14
    assert sum(phase["totals"]["outcomes"].values()) == 14
    assert [r["status"] for r in phase["tasks"] if r["task"] == "count-todos"] == ["completed"]
    assert phase["totals"]["claimed_success_but_failed"] == sum(
        run["outcome"] == "succeeded" and not run["passed"] for run in phase["tasks"])
    assert set(classic["totals"]["statuses"]) <= {"completed", "budget_exhausted"}
    for run in phase["tasks"] + classic["tasks"]:
        saved = out / run["engine"] / run["task"]
        events = [json.loads(line) for line in (saved / "events.jsonl").read_text().splitlines()]
        assert [e["kind"] for e in events][-2:] == ["summary", "run_finished"]
        assert run["calls"] == sum(e["kind"] == "llm_call" for e in events) > 0
        assert json.loads((saved / "replies.json").read_text())["replies"]
        assert (saved / "check.txt").read_text().startswith("PASS" if run["passed"] else "FAIL")
    first = phase["tasks"][0]
    assert first["stages"][0] == "request_analyser" and first["stages"][-1] == "summarizer"
    assert (out / "phase" / "count-todos" / "workspace" / "todo_count.txt").read_text() == "6\n"


def test_a_saved_run_replays_offline_from_the_results_folder(tmp_path: Path) -> None:
    out = tmp_path / "first"
    with FakeOpenAI(stages=_stages()) as server:
        first = _runner("--base-url", server.base_url, "--engine", "phase",
                        "--tasks", "count-todos,question-version", "--out", str(out))
    assert first.returncode == 0, first.stderr[-3000:]
    replay = _runner("--model-script", str(out), "--engine", "phase",
                     "--tasks", "count-todos,question-version", "--out", str(tmp_path / "again"))
    assert replay.returncode == 0, replay.stderr[-3000:]
    assert "on replies from" in replay.stderr
    before = json.loads((out / "results.json").read_text())["engines"]["phase"]["tasks"]
    after = json.loads((tmp_path / "again" / "results.json").read_text())["engines"]["phase"]
    assert [(r["task"], r["passed"], r["calls"], r["stages"]) for r in after["tasks"]] == \
        [(r["task"], r["passed"], r["calls"], r["stages"]) for r in before]
    assert after["totals"]["passed"] == 1


def test_the_runner_refuses_a_missing_model_with_a_clear_error(tmp_path: Path) -> None:
    done = _runner("--engine", "phase", "--out", str(tmp_path))
    assert done.returncode == 2 and "give exactly one of --base-url, --gguf" in done.stderr
    missing = _runner("--gguf", str(tmp_path / "none.gguf"), "--out", str(tmp_path))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    assert not any(tmp_path.iterdir())
