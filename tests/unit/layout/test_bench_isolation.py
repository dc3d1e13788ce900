"""Benchmarks and test processes keep away from the person's PhaseDesk data."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MARK = "import bench.isolation"


TASKS = ROOT / "bench" / "evals" / "tasks"  # the evaluation tasks' workspaces and checkers
# copied into each generated HumanEval task as its check.py; it imports nothing of the app
HUMANEVAL_CHECK = ROOT / "bench" / "evals" / "humaneval_check.py"


def _scripts() -> list[Path]:
    return sorted(p for p in (ROOT / "bench").rglob("*.py")
                  if 'if __name__ == "__main__"' in p.read_text(encoding="utf-8")
                  and not p.is_relative_to(TASKS) and p != HUMANEVAL_CHECK)


def test_every_bench_script_takes_its_own_app_home_before_it_imports_the_app() -> None:
    scripts = _scripts()
    assert scripts, "no benchmark scripts found"
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        assert MARK in text, f"{script.relative_to(ROOT)} does not import bench.isolation"
        first_app_import = min((text.find(f"\nfrom {pkg}") for pkg in ("core", "ui", "tests")
                                if f"\nfrom {pkg}" in text), default=len(text))
        assert text.find(MARK) < first_app_import, \
            f"{script.relative_to(ROOT)} imports the app before bench.isolation"


def test_a_bench_process_records_nothing_in_the_persons_home(tmp_path: Path) -> None:
    person = tmp_path / "person"
    code = ("import sys; sys.path.insert(0, %r); import bench.isolation as i; "
            "from core.appdirs import data_dir; from core.store.history import Store; "
            "s = Store(); s.create_conversation('bench run'); s.close(); print(data_dir())"
            % str(ROOT))
    env = {**os.environ, "PHASEDESK_HOME": str(person)}
    env.pop("PHASEDESK_BENCH_HOME", None)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    used = Path(done.stdout.strip())
    assert not person.exists() and not used.exists()  # its temporary home is gone at exit

