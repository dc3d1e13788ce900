"""Fixtures of the tool tests: a real temporary workspace and a harness around it."""

from __future__ import annotations

from pathlib import Path

import pytest
from tool_harness import Harness

from core.tools import default_registry
from core.tools.base import RunState


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


@pytest.fixture
def harness(workspace: Path) -> Harness:
    return Harness(workspace, RunState(workspace=workspace, run_id="run-1"), default_registry())
