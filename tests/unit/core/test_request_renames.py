"""Where the old name of a requested rename is still in use, read without a model."""

from __future__ import annotations

from pathlib import Path

from core.engine.verification.renames import Rename, files_in_question, leftovers, uses


def test_a_use_is_code_not_prose() -> None:
    python = 'import json\ncfg = json.load(open("c.json"))\nprint(cfg["port"])\n'
    assert uses("server.py", python, "port")
    assert not uses("server.py", "# the port to listen on\nPORT_HELP = 'a port'\n", "port")
    assert uses("calc.py", "def add_numbers(a, b):\n    return a + b\n", "add_numbers")
    assert uses("main.py", "from calc import add_numbers as plus\n", "add_numbers")
    assert uses("main.py", "import calc\ncalc.add_numbers(1, 2)\n", "add_numbers")
    assert not uses("main.py", "def add_numbers_total():\n    pass\n", "add_numbers")
    assert uses("broken.py", "def add_numbers(:\n", "add_numbers")  # does not parse: a word
    assert uses("config.json", '{"server": {"port": 8000}}', "port")
    assert not uses("config.json", '{"note": "port 8000"}', "port")
    assert uses("README.md", "Settings: `host`, `port`.\n", "port")
    assert not uses("README.md", "The port to listen on.\n", "port")


def test_the_files_in_question_are_those_named_else_every_text_file(tmp_path: Path) -> None:
    for name, text in {"calc.py": "def add_numbers(): pass\n", "test_calc.py": "add_numbers\n",
                       "notes.md": "`add_numbers`\n", ".git/config": "add_numbers\n",
                       "logo.png": "add_numbers"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    named = files_in_question(("calc.py", "test_calc.py", "gone.py"), tmp_path)
    assert list(named) == ["calc.py", "test_calc.py"]
    every = files_in_question((), tmp_path)
    assert list(every) == ["calc.py", "notes.md", "test_calc.py"]
    assert every["notes.md"] == "`add_numbers`\n"
    assert leftovers(every, Rename("add_numbers", "add")) == list(every)
