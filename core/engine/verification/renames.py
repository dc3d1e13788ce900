"""Where the old name of a rename the request asks for (``core.shapes.reading.Rename``, from
the request's reading) is still in use.

After the run, the files in question should no longer use the old name.
Where a name counts as used depends on the file: in Python, a definition, a name, an
attribute, an import, a parameter or a string that is exactly the name (``cfg["port"]``);
in JSON, a key; in any other text, the name in backticks (```port```). A word in prose is
not a use ("the port to listen on" may stay). The files in question are those the request
names, or every text file of the workspace when it names none.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from core.tools.snapshots import snapshot
from core.shapes.reading import Rename
from core.tools.text_files import file_paths

TEXT_SUFFIXES = {".py", ".json", ".md", ".txt", ".rst", ".toml", ".cfg", ".ini", ".yaml",
                 ".yml", ".js", ".ts", ".html", ".css", ".sh"}
MAX_FILES = 400


def files_in_question(named: tuple[str, ...], workspace: Path) -> dict[str, str]:
    """The text of the workspace's files the request names (``named``), else of all its text
    files (at most ``MAX_FILES``), by relative path."""
    texts = {rel: text for rel, text in snapshot(workspace, set(named)).items()
             if text is not None}
    if texts:
        return texts
    every = [rel for rel in file_paths(workspace) if Path(rel).suffix.lower() in TEXT_SUFFIXES]
    return {rel: text for rel, text in snapshot(workspace, set(every[:MAX_FILES])).items()
            if text is not None}


def leftovers(texts: Mapping[str, str], rename: Rename) -> list[str]:
    """The files among ``texts`` (relative path → text) that still use ``rename.old``."""
    return [rel for rel, text in texts.items() if uses(rel, text, rename.old)]


def uses(rel: str, text: str, name: str) -> bool:
    """Whether the file ``rel`` with ``text`` uses ``name`` (see the module's docstring)."""
    if name not in text:
        return False
    suffix = Path(rel).suffix.lower()
    if suffix == ".py":
        return _python_uses(text, name)
    if suffix == ".json":
        try:
            return _json_keys(json.loads(text), name)
        except ValueError:
            return f'"{name}"' in text
    return f"`{name}`" in text


def _python_uses(text: str, name: str) -> bool:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return re.search(rf"\b{re.escape(name)}\b", text) is not None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node.name == name:
            return True
        if isinstance(node, ast.Name) and node.id == name \
                or isinstance(node, ast.Attribute) and node.attr == name \
                or isinstance(node, ast.arg) and node.arg == name \
                or isinstance(node, ast.keyword) and node.arg == name \
                or isinstance(node, ast.Constant) and node.value == name:
            return True
        if isinstance(node, ast.alias) and name in (node.name, node.asname):
            return True
    return False


def _json_keys(value: Any, name: str) -> bool:
    if isinstance(value, dict):
        return name in value or any(_json_keys(item, name) for item in value.values())
    if isinstance(value, list):
        return any(_json_keys(item, name) for item in value)
    return False
