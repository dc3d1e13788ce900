"""A program that computes a data file: which replies are programs, and how one runs (in a
sandboxed copy of the workspace, bounded in time and output)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from core.engine.assists.computed_files import program_in
from core.tools.computed import Computed, computable, compute


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "sales.csv").write_text("region,amount\nnorth,5\nsouth,2\nnorth,1\n")
    return folder


def run(ws: Path, program: str, timeout_s: float = 20) -> Computed:
    return asyncio.run(compute(ws, program, "totals.csv", "auto", timeout_s))


@pytest.mark.parametrize("path, expected", [
    ("totals.csv", True), ("count.txt", True), ("out/report.md", True), ("LICENSE", True),
    ("data.json", True), ("app.py", False), ("main.js", False), ("run.sh", False),
])
def test_data_and_text_files_may_be_computed_code_may_not(path: str, expected: bool) -> None:
    assert computable(path) is expected


@pytest.mark.parametrize("reply, expected", [
    ("Here:\n```python\nprint(6)\n```\n", "print(6)\n"),
    ("count.txt\n```py\nimport sys\nsys.stdout.write('6')\n```", "import sys\nsys.stdout.write('6')\n"),
    ("```python\nwith open('count.txt', 'w') as f:\n    f.write('6')\n```",
     "with open('count.txt', 'w') as f:\n    f.write('6')\n"),  # it writes the file itself
    ("```python\nwith open('other.txt', 'w') as f:\n    f.write('6')\n```", None),
    ("```python\n6\n```", None),  # content tagged as Python: nothing is printed
    ("```text\nprint(6)\n```", None),  # not tagged as Python: content
    ("```python\nprint(6)\n", None),  # cut off
    ("no block at all", None),
])
def test_a_program_is_a_python_block_that_prints(reply: str, expected: str | None) -> None:
    assert program_in(reply, "count.txt") == expected


def test_what_the_program_prints_is_the_content(ws: Path) -> None:
    program = ("import csv\nfrom collections import Counter\ntotal = Counter()\n"
               "for row in csv.DictReader(open('sales.csv')):\n"
               "    total[row['region']] += int(row['amount'])\n"
               "print('region,total')\n"
               "for region in sorted(total):\n    print(f'{region},{total[region]}')\n")
    assert run(ws, program) == Computed("region,total\nnorth,6\nsouth,2\n")


@pytest.mark.parametrize("program, said", [
    ("raise SystemExit(3)", "the program failed (exit code 3)"),
    ("import sys\nprint('half')\nsys.stderr.write('boom')\nsys.exit(1)",
     "the program failed (exit code 1): boom"),
    ("x = 1", "the program printed nothing and did not write totals.csv"),
    ("print(1 +)", "SyntaxError"),
])
def test_a_program_that_does_not_print_a_file_says_why(ws: Path, program: str, said: str) -> None:
    computed = run(ws, program)
    assert computed.content is None and said in computed.problem


def test_what_the_program_writes_to_the_file_is_the_content(ws: Path) -> None:
    program = "open('totals.csv', 'w').write('north,6\\n')\nprint('done')\n"
    assert run(ws, program) == Computed("north,6\n")
    assert not (ws / "totals.csv").exists()


def test_a_program_that_runs_too_long_or_prints_too_much_is_stopped(ws: Path) -> None:
    assert run(ws, "while True: pass", timeout_s=2) == Computed(
        None, "the program did not finish within 2 s")
    endless = run(ws, "while True: print('x' * 10000)")
    assert endless == Computed(None, "the program printed more than 1024 KiB")


def test_the_program_cannot_change_the_workspace_or_reach_the_network(ws: Path) -> None:
    program = ("import socket, os\nopen('sales.csv', 'w').write('')\n"
               "try:\n    socket.create_connection(('127.0.0.1', 9), timeout=2)\n"
               "    print('reached')\nexcept OSError:\n    print('no network')\n"
               "print(os.listdir('.'))\n")
    assert run(ws, program) == Computed("no network\n['sales.csv']\n")
    assert (ws / "sales.csv").read_text().startswith("region,amount")


def test_a_file_the_program_links_out_of_the_copy_is_not_read(ws: Path) -> None:
    program = ("import os\nos.symlink('/etc', 'out')\nos.symlink('/etc/hostname', 'totals.csv')\n"
               "print('printed')\n")
    assert run(ws, program) == Computed("printed\n")
