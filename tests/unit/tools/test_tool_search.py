"""search_code gives the same output through ripgrep and through the Python fallback."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest
from tool_harness import Harness

from core.tools import paths, search
from core.tools.gate import Gate

needs_rg = pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed")

QUERIES: list[dict[str, Any]] = [
    {"pattern": "needle"},
    {"pattern": r"^def \w+\("},
    {"pattern": "needle", "glob": "*.py"},
    {"pattern": "needle", "glob": "src/**/*.py"},
    {"pattern": "needle", "path": "src"},
    {"pattern": "needle", "path": "src/app.py"},
    {"pattern": "needle", "max_results": 3},
    {"pattern": r"needle(?= here)"},
    {"pattern": "caf", "path": "docs"},
    {"pattern": "end$"},
    {"pattern": "absent-word"},
    {"pattern": "x{3}"},
    {"pattern": "^needle"},
]


def _populate(ws: Path) -> None:
    files = {
        "src/app.py": "def main():\n    needle = 1\n    return needle\n",
        "src/lib/util.py": "def helper(x):\n    # needle here\n    return x\n",
        "src/lib/notes.txt": "needle in text\n",
        "README.md": "A needle in the readme\n",
        ".hidden/conf.ini": "needle=hidden\n",
        ".git/config": "needle in git\n",
        "node_modules/pkg/index.js": "needle\n",
        ".venv/lib/site.py": "needle\n",
        "src/__pycache__/app.cpython.py": "needle\n",
        "crlf.txt": "line with end\r\nneedle end\r\n",
        "long.txt": "needle " + "x" * 1000 + "\n",
        "z/last.py": "def needle():\n    pass\n",
    }
    for rel, text in files.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_bytes(text.encode())
    (ws / "docs").mkdir()
    (ws / "docs" / "latin1.txt").write_bytes("café needle\n".encode("latin-1"))
    (ws / "docs" / "bom.txt").write_bytes(b"\xef\xbb\xbfneedle at the start\n")
    (ws / "bin.dat").write_bytes(b"needle\x00\x01\x02needle\n")
    (ws / "linked.py").symlink_to("src/app.py")


def _run(harness: Harness, monkeypatch: pytest.MonkeyPatch, use_rg: bool,
         arguments: dict[str, Any]) -> str:
    if not use_rg:
        monkeypatch.setattr(search, "ripgrep", lambda: None)
    result = harness.call("search_code", **arguments)
    monkeypatch.undo()
    assert result.ok, result.error
    return result.output


def test_python_search_output(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    _populate(harness.workspace)
    output = _run(harness, monkeypatch, False, {"pattern": "needle"})
    assert output.splitlines() == [
        ".hidden/conf.ini:1:needle=hidden",
        "README.md:1:A needle in the readme",
        "crlf.txt:2:needle end",
        "docs/bom.txt:1:needle at the start",
        "docs/latin1.txt:1:caf\ufffd needle",
        "long.txt:1:needle " + "x" * 292 + "…",
        "src/app.py:2 (in main):    needle = 1",
        "src/app.py:3 (in main):    return needle",
        "src/lib/notes.txt:1:needle in text",
        "src/lib/util.py:2 (in helper):    # needle here",
        "z/last.py:1 (in needle):def needle():",
        "(11 matching lines in 10 files)",
    ]
    limited = _run(harness, monkeypatch, False, {"pattern": "needle", "max_results": 2})
    assert limited.splitlines()[2] == ("… 11 matching lines; showing the first 2. Narrow the "
                                       "pattern, path or glob, or raise max_results.")
    assert _run(harness, monkeypatch, False, {"pattern": "needle", "glob": "src/**/*.py"}
                ).splitlines() == ["src/app.py:2 (in main):    needle = 1",
                                   "src/app.py:3 (in main):    return needle",
                                   "src/lib/util.py:2 (in helper):    # needle here",
                                   "(3 matching lines in 2 files)"]
    assert _run(harness, monkeypatch, False, {"pattern": "zzz"}) == "no matches for 'zzz' in ."


@needs_rg
@pytest.mark.parametrize("arguments", QUERIES, ids=[str(q) for q in QUERIES])
def test_ripgrep_and_python_agree(harness: Harness, monkeypatch: pytest.MonkeyPatch,
                                  arguments: dict[str, Any]) -> None:
    _populate(harness.workspace)
    with_rg = _run(harness, monkeypatch, True, arguments)
    without = _run(harness, monkeypatch, False, arguments)
    assert with_rg == without


@needs_rg
def test_ripgrep_is_used_and_falls_back_on_patterns_it_cannot_run(harness: Harness) -> None:
    _populate(harness.workspace)
    target = paths.resolve(harness.workspace, ".")
    executable = shutil.which("rg")
    assert executable is not None
    accept = search.glob_matcher(None)
    gate = Gate(harness.workspace)
    found = asyncio.run(search._ripgrep(executable, target, "needle", None, accept,
                                        search.Collector(50, gate)))
    assert found is not None and found.total == 11
    assert asyncio.run(search._ripgrep(executable, target, "a(?=b)", None, accept,
                                       search.Collector(50, gate))) is None


def test_invalid_regex_and_missing_path(harness: Harness) -> None:
    assert "invalid regular expression '('" in harness.call("search_code", pattern="(").error
    assert "path not found: nope" in harness.call("search_code", pattern="x", path="nope").error


def test_glob_matcher() -> None:
    by_name = search.glob_matcher("*.py")
    assert by_name("a/b/c.py") and not by_name("a/b/c.pyc")
    by_path = search.glob_matcher("src/**/*.py")
    assert by_path("src/a.py") and by_path("src/x/y/a.py") and not by_path("lib/src/a.py")
    assert not search.glob_matcher("src/*.py")("src/x/a.py")
