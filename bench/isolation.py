"""Benchmarks never touch the person's PhaseDesk data: importing this module gives the
process (and every subprocess it starts) its own app home.

Runs, history rows and undo checkpoints that a benchmark makes would otherwise land in the
person's data dir and fill the window's conversation list. ``PHASEDESK_BENCH_HOME`` names a
folder to keep them in (to look at afterwards); without it a temporary folder is used and
removed when the benchmark exits. Every script under ``bench/`` imports this first
(``tests/unit/layout/test_bench_isolation.py`` checks it).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from core.appdirs import app_home

# The person's data folder (where `setup.sh --model NAME` installs models), found before the
# benchmark's own home replaces it; nothing is created there.
PERSON_DATA_DIR = app_home()[1]


def isolate() -> Path:
    """Point ``PHASEDESK_HOME`` at the benchmark's own folder and return it."""
    kept = os.environ.get("PHASEDESK_BENCH_HOME")
    if kept:
        home = Path(kept)
        home.mkdir(parents=True, exist_ok=True)
    else:
        home = Path(tempfile.mkdtemp(prefix="phasedesk-bench-"))
        atexit.register(shutil.rmtree, home, True)
    os.environ["PHASEDESK_HOME"] = str(home)
    return home


HOME = isolate()
