"""Workspace modules a new Python file uses without importing them are imported."""

from __future__ import annotations

from pathlib import Path

from core.engine.assists.missing_imports import with_missing_imports


def test_the_import_goes_after_the_docstring_and_future_imports(tmp_path: Path) -> None:
    (tmp_path / "mathtools.py").write_text("def is_prime(n):\n    return n > 1\n")
    text = '"""Doc."""\nfrom __future__ import annotations\nok = mathtools.is_prime(3)\n'
    assert with_missing_imports(tmp_path, "check.py", text) == (
        '"""Doc."""\nfrom __future__ import annotations\nimport mathtools\n'
        "ok = mathtools.is_prime(3)\n", ["mathtools"])


def test_a_module_beside_the_file_counts_and_other_names_do_not(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "util.py").write_text("def f():\n    return 1\n")
    assert with_missing_imports(tmp_path, "pkg/t.py", "x = util.f()\n")[1] == ["util"]
    for text in ("x = other.f()\n", "x = util\n", "x = helper()\n", "def broken(:\n"):
        assert with_missing_imports(tmp_path, "t.py", text) == (text, [])
