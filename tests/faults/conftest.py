"""The fault suite runs with the command sandbox on, as people run the app: a machine that
cannot sandbox fails here with the reason (scripts/setup.sh installs bubblewrap)."""

from __future__ import annotations

import pytest

from tests.support.proc_tree import require_sandbox


@pytest.fixture(autouse=True)
def sandbox_on() -> None:
    require_sandbox()
