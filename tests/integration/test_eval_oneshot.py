"""The one-shot baseline of the evaluation runner (bench/evals/oneshot*.py): its prompt
(``core.engine.authoring.draft``, the one the engines' drafts send) holds the request and the
workspace's text files; a reply's whole-file blocks are written into the
workspace copy, confined to it, and nothing is written from a block that was cut off or that
names no file in a folder of several; the runner applies and checks scripted replies end to
end, saves them for a replay, and prints the engines beside it in one table."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.evals.oneshot_apply import Applied, apply_reply
from bench.evals.suite import select
from core.engine.authoring.blocks import code_blocks
from core.engine.authoring.draft import REPLY_TOKENS_MAX, REPLY_TOKENS_MIN, oneshot_messages, \
    reply_tokens
from core.tools.text_files import FILE_CHARS, HEAD_CHARS, collect
from core.llm.embedded_load import model_path
from tests.support.fake_openai import FakeOpenAI
from tests.support.script import analysis, judge, plan, summary, task

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "bench" / "evals" / "run.py"
TASKS = ROOT / "bench" / "evals" / "tasks"


def _workspace(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def _fenced(path: str, body: str, fence: str = "```python") -> str:
    return f"{path}\n{fence}\n{body}```\n"


def _apply(reply: str, workspace: Path) -> Applied:
    """``reply`` applied as the runner applies it: against the files its prompt showed."""
    return apply_reply(reply, workspace, collect(workspace))


def test_the_prompt_holds_the_request_and_the_workspaces_text_files(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path / "ws", {
        "app.py": "def main():\n    return 1\n",
        "docs/guide.md": "# Guide\n\n```bash\nrun it\n```\n",
        "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR",
        "latin1.txt": "caf\xe9".encode("latin-1"),
        "huge.txt": "x" * (FILE_CHARS + 1),
        ".git/config": "[core]\n", "__pycache__/app.cpython-311.pyc": b"\x00\x01",
        "node_modules/lib/index.js": "module.exports = 1\n"})
    listing = collect(workspace)
    assert [f.path for f in listing.files] == ["app.py", "docs/guide.md"]
    system, user = (m["content"] for m in oneshot_messages("Add a stop() function.", listing))
    assert user.startswith("Request:\nAdd a stop() function.\n\n")
    assert system.startswith("You are an expert programmer.") and "complete new content" in system
    assert "app.py\n```python\ndef main():\n    return 1\n```" in user
    assert "logo.png (binary)" in user and "latin1.txt (binary)" in user
    assert f"huge.txt ({FILE_CHARS + 1:,} bytes, too large to show whole; its first lines)" \
        in user and "x" * (HEAD_CHARS + 1) not in user
    assert ".git" not in user and "__pycache__" not in user and "node_modules" not in user
    shown = [(block.path, block.body) for block in code_blocks(user)]
    # the reply format's example names a real file (the request names none: the first file
    # shown), never a placeholder path a small model would copy
    assert shown == [("app.py", "def main():\n    return 1\n"),
                     ("docs/guide.md", "# Guide\n\n```bash\nrun it\n```\n"),
                     (None, "x" * HEAD_CHARS + "\n"),  # huge.txt's beginning, under its size
                     ("app.py", "the whole file, every line of it\n")]
    assert "path/of/the_file.py" not in user
    assert REPLY_TOKENS_MIN <= reply_tokens(listing) <= REPLY_TOKENS_MAX
    assert reply_tokens(collect(_workspace(tmp_path / "big", {
        f"f{i}.py": "y = 1\n" * 3000 for i in range(3)}))) == REPLY_TOKENS_MAX


def test_named_blocks_are_written_whole_and_a_bare_name_finds_its_file(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path / "ws", {"src/app.py": "old\n", "README.md": "hi\n"})
    reply = ("Here you go.\n\n" + _fenced("app.py", "def run():\n    pass\n")
             + "\nAnd a new file:\n\n" + _fenced("**src/util.py**", "X = 1\n")
             + _fenced("README.md", "hi\n", "```markdown"))
    applied = _apply(reply, workspace)
    assert applied.written == ["src/app.py", "src/util.py"] and applied.unchanged == ["README.md"]
    assert applied.refused == []
    assert (workspace / "src/app.py").read_text() == "def run():\n    pass\n"
    assert (workspace / "src/util.py").read_text() == "X = 1\n"


def test_a_block_without_a_name_goes_to_the_only_file_and_is_not_guessed_among_several(
        tmp_path: Path) -> None:
    single = _workspace(tmp_path / "one", {"calc.py": "def add(a, b):\n    pass\n"})
    applied = _apply("```python\ndef add(a, b):\n    return a + b\n```\n", single)
    assert applied.written == ["calc.py"] and "return a + b" in (single / "calc.py").read_text()
    example = ("```python\ndef add(a, b):\n    return b + a\n```\nUse it like this:\n"
               "```python\nprint(add(1, 2))\n```\n")
    applied = _apply(example, single)
    assert (single / "calc.py").read_text() == "def add(a, b):\n    return b + a\n"
    assert applied.note == "calc.py was given in blocks 1, 2; block 1 is taken"
    named_last = _apply(example + _fenced("calc.py", "def add(a, b):\n    return 3\n"), single)
    assert named_last.written == ["calc.py"] and "block 3 is taken" in named_last.note
    several = _workspace(tmp_path / "two", {"a.py": "A\n", "b.py": "B\n"})
    applied = _apply("```python\nprint('which?')\n```\n", several)
    assert applied.written == []
    assert "no file name before the block" in applied.note and "2 files" in applied.note
    assert (several / "a.py").read_text() == "A\n" and (several / "b.py").read_text() == "B\n"


def test_a_reply_without_blocks_or_cut_off_writes_nothing_and_says_why(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path / "ws", {"wrap.py": "def wrap_text(text, width):\n"
                                                        "    raise NotImplementedError\n"})
    plain = _apply("You could loop over the words and fill lines.", workspace)
    assert plain.written == [] and "no fenced code block" in plain.note
    cut = _apply("wrap.py\n```python\ndef wrap_text(text, width):\n    lines = [", workspace)
    assert cut.written == [] and "cut off inside the block for wrap.py" in cut.note
    assert "NotImplementedError" in (workspace / "wrap.py").read_text()


def test_paths_that_leave_the_workspace_are_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    workspace = _workspace(tmp_path / "ws", {"x.py": "x = 1\n", "y.py": "y = 1\n"})
    (workspace / "link").symlink_to(outside, target_is_directory=True)
    reply = "".join(_fenced(path, "stolen = True\n") for path in (
        "../outside/escape.py", str(outside / "absolute.py"), "link/through.py",
        ".git/hooks/pre-commit", "x.py"))
    applied = _apply(reply, workspace)
    assert applied.written == ["x.py"]
    assert not any(outside.iterdir()) and not (workspace / ".git").exists()
    assert len(applied.refused) == 4
    assert "path escapes the workspace: ../outside/escape.py" in applied.note
    assert "absolute path outside the workspace" in applied.note
    assert "symlink leads outside the workspace" in applied.note
    assert "inside a folder the tools skip" in applied.note


def _runner(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(RUNNER), *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, cwd=ROOT)


def _script(folder: Path, replies: dict[str, str]) -> Path:
    """A results-shaped folder of replies (``oneshot/TASK/replies.json``)."""
    for name, text in replies.items():
        target = folder / "oneshot" / name / "replies.json"
        target.parent.mkdir(parents=True)
        target.write_text(json.dumps({"replies": [{"text": text, "usage": {
            "prompt_tokens": 300, "completion_tokens": 90}}]}), encoding="utf-8")
    return folder


def _solution(name: str, module: str) -> str:
    return (TASKS / name / "solution" / f"{module}.py").read_text(encoding="utf-8")


def _rows(stdout: str) -> dict[tuple[str, str], list[str]]:
    """(task, engine) -> the row's cells, from the per-task part of the table."""
    part = stdout.split("\ntask ")[1].split("\n\n")[0]
    return {(cells[0], cells[1]): cells for cells in
            (line.split() for line in part.splitlines()[1:])}


def test_scripted_replies_are_applied_checked_saved_and_replayed(tmp_path: Path) -> None:
    merge = _solution("ex-merge-intervals", "intervals")
    wrong = _solution("ex-word-wrap", "wrap").replace("<= width", "< width")
    script = _script(tmp_path / "script", {
        "ex-merge-intervals": "Here is the implementation.\n\n" + _fenced("intervals.py", merge),
        "ex-word-wrap": _fenced("wrap.py", wrong),
        "ex-top-words": "wordfreq.py\n```python\nimport re\n\ndef top_words(text, n):\n",
        "ex-rpn-calc": "Use a stack: push numbers, pop two for each operator."})
    names = "ex-merge-intervals,ex-rpn-calc,ex-top-words,ex-word-wrap"
    out = tmp_path / "runs"
    done = _runner("--model-script", str(script), "--engine", "oneshot", "--tasks", names,
                   "--out", str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"^oneshot +1/4 +25% +43% +4 +1 +1200 ", done.stdout, re.M), done.stdout
    rows = _rows(done.stdout)
    assert rows[("ex-merge-intervals", "oneshot")][2:7] == ["PASS", "100%", "wrote", "1", "file"]
    assert rows[("ex-word-wrap", "oneshot")][2:7] == ["FAIL", "73%", "wrote", "1", "file"]
    assert rows[("ex-top-words", "oneshot")][2:5] == ["FAIL", "0%", "wrote"]
    assert rows[("ex-rpn-calc", "oneshot")][4:6] == ["wrote", "nothing"]
    runs = {r["task"]: r for r in json.loads((out / "results.json").read_text())
            ["engines"]["oneshot"]["tasks"]}
    assert "3 failed, 8 passed" in runs["ex-word-wrap"]["check"]
    assert "test_lines_are_filled_greedily" in runs["ex-word-wrap"]["check"]
    assert "cut off inside the block for wordfreq.py" in runs["ex-top-words"]["note"]
    assert "no fenced code block" in runs["ex-rpn-calc"]["note"]
    assert "NotImplementedError" in runs["ex-rpn-calc"]["check"]
    saved = out / "oneshot" / "ex-merge-intervals"
    record = json.loads((saved / "oneshot.json").read_text())
    assert record["written"] == ["intervals.py"] and record["prompt_tokens"] == 300
    assert (saved / "workspace" / "intervals.py").read_text() == merge
    prompt = json.loads((saved / "prompt.json").read_text())
    assert "raise NotImplementedError" in prompt["messages"][1]["content"]
    assert (saved / "check.txt").read_text() == "PASS: PASS\n"
    replay = _runner("--model-script", str(out), "--engine", "oneshot", "--tasks", names,
                     "--out", str(tmp_path / "again"))
    assert replay.returncode == 0, replay.stderr[-3000:]
    assert _rows(replay.stdout) == rows


def _stages() -> dict[str, list[dict[str, Any]]]:
    """Both engines write todo_count.txt = 6; every plain call (the "auto" stage on the wire,
    like the classic loop's calls: the one-shot call and the engines' drafts) gets the same
    reply, whose text holds that file as a block."""
    write = task(1, "write_file", path="todo_count.txt", content="6\n")
    block = "todo_count.txt\n```\n6\n```\n"
    return {"request_analyser": [analysis("Write the count")],
            "plan_tool_call": [plan(write)],
            "judge_tasks": [judge([1])],
            "summarizer": [summary("Wrote todo_count.txt.")],
            "auto": [{"text": block, "tool_calls": [
                {"tool": "write_file", "arguments": {"path": "todo_count.txt",
                                                     "content": "6\n"}}]}]}


def test_engine_all_prints_the_three_side_by_side_in_one_table(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    with FakeOpenAI(stages=_stages()) as server:
        done = _runner("--base-url", server.base_url, "--model", "fake-model", "--engine", "all",
                       "--tasks", "count-todos,ex-histogram", "--max-iterations", "4",
                       "--out", str(out))
        plain = [r for r in server.requests if not r["body"].get("tools")]
    assert done.returncode == 0, done.stderr[-3000:]
    assert "2 task(s) × phase, classic, oneshot on fake-model" in done.stderr
    started = re.findall(r"start (\w+)/([\w-]+)", done.stderr)
    assert started == [(e, t) for t in ("count-todos", "ex-histogram")
                       for e in ("phase", "classic", "oneshot")]  # whole rows first
    assert done.stdout.count("== 2 task(s) on phase, classic, oneshot") == 1
    engines = re.findall(r"^(phase|classic|oneshot) +(\d)/2 +\d+% +\d+% +(\d+) ", done.stdout, re.M)
    assert [(name, passed) for name, passed, _ in engines] == [
        ("phase", "1"), ("classic", "1"), ("oneshot", "1")]
    assert dict((name, int(calls)) for name, _, calls in engines)["oneshot"] == 2
    rows = _rows(done.stdout)
    assert list(rows) == [(t, e) for t in ("count-todos", "ex-histogram")
                          for e in ("phase", "classic", "oneshot")]
    assert all(rows[("count-todos", e)][2] == "PASS" for e in ("phase", "classic", "oneshot"))
    assert rows[("ex-histogram", "oneshot")][2:3] == ["FAIL"]
    assert rows[("ex-histogram", "oneshot")][4:7] == ["wrote", "1", "file"]
    assert all("max_tokens" in r["body"] for r in plain)
    assert "todo_count.txt" in (out / "oneshot" / "count-todos" / "reply.txt").read_text()
    # the baseline's two calls; the phase engine's drafts, which send the baseline's very
    # prompt before anything is planned; for count-todos, todo_count.txt asked for alone with
    # the offer of a program (a data file, a command sandbox). For ex-histogram, whose request
    # targets histogram.py alone, the reply's one block is read as that file (whatever path
    # precedes it), in the draft as in the baseline: no call asks for histogram.py alone
    todo_draft, todo_program, oneshot, draft, baseline = plain
    assert "[the reply named todo_count.txt for block 1; it is read as histogram.py, the file " \
           "the request asks for]" in done.stdout
    request = select(["ex-histogram"])[0].request
    assert oneshot["body"]["messages"][1]["content"].startswith("Request:\nCount the lines")
    assert todo_draft["body"]["messages"] == oneshot["body"]["messages"]
    assert "todo_count.txt" in todo_program["body"]["messages"][-1]["content"]
    assert draft["body"]["messages"] == baseline["body"]["messages"]
    assert draft["body"]["max_tokens"] == baseline["body"]["max_tokens"]
    # streamed both: a long reply is not cut off by the request timeout in the baseline alone
    assert draft["body"].get("stream") is True and baseline["body"].get("stream") is True
    assert oneshot["body"].get("stream") is True
    assert baseline["body"]["messages"][1]["content"].startswith(f"Request:\n{request}")


@pytest.mark.slow
def test_the_one_shot_call_runs_on_the_embedded_model(tmp_path: Path) -> None:
    """``--gguf``: the bundled SmolLM2 answers one plain call per task (it rarely solves one);
    the call is recorded with the model's own token counts and the reply bound it was given."""
    out = tmp_path / "runs"
    done = _runner("--gguf", str(model_path().resolve()), "--engine", "oneshot",
                   "--tasks", "ex-word-wrap", "--out", str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "on embedded llama.cpp model SmolLM2" in done.stderr
    assert re.search(r"^oneshot +[01]/1 +\d+% +\d+% +1 ", done.stdout, re.M), done.stdout
    record = json.loads((out / "oneshot" / "ex-word-wrap" / "oneshot.json").read_text())
    assert record["estimated_tokens"] is False and record["prompt_tokens"] > 200
    assert 0 < record["completion_tokens"] <= record["max_tokens"] == reply_tokens(
        collect(select(["ex-word-wrap"])[0].workspace))
    assert record["finish_reason"] in ("stop", "length") and "model_load_s" in record
    assert (out / "oneshot" / "ex-word-wrap" / "reply.txt").read_text().strip()


def test_the_results_file_is_rewritten_after_every_run(tmp_path: Path) -> None:
    """A suite stopped part way (2-core time running out) leaves the runs it finished."""
    import asyncio

    from bench.evals.engine_run import ModelChoice
    from bench.evals.run import run_suite

    script = _script(tmp_path / "script", {
        "ex-merge-intervals": _fenced("intervals.py", _solution("ex-merge-intervals",
                                                                "intervals")),
        "ex-rpn-calc": "Use a stack."})
    seen: list[list[tuple[str, bool]]] = []
    results = asyncio.run(run_suite(
        select(["ex-merge-intervals", "ex-rpn-calc"]), ["oneshot"],
        ModelChoice(script=str(script)), tmp_path / "out", 1, [], 600,
        on_result=lambda runs: seen.append([(r.task, r.passed) for r in runs])))
    assert seen == [[("ex-merge-intervals", True)],
                    [("ex-merge-intervals", True), ("ex-rpn-calc", False)]]
    assert [r.task for r in results] == ["ex-merge-intervals", "ex-rpn-calc"]
