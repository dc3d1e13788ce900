"""The hidden check of one HumanEval task, copied as ``check.py`` into every generated task
folder beside ``problem.json`` (its entry point and limits) and ``test.py`` (the problem's
``test`` code).

``check.py WORKSPACE SUMMARY_FILE`` copies ``WORKSPACE/ENTRY_POINT.py`` into a temporary folder
outside the workspace beside the test code, and runs ``check(ENTRY_POINT)`` there in a child
process with a time and a memory limit; the test sees the module's names (helpers such as
``encode_cyclic``), as the package's own harness gives them. It prints ``PASS`` and exits 0, or
prints ``FAIL: why`` on its last line and exits 1. It imports nothing from the repository.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

TIME_LIMIT_S = 15  # the defaults of problem.json's time_limit_s and memory_limit_gib
MEMORY_LIMIT_GIB = 2  # of address space (RLIMIT_AS)
SHOWN = 200  # characters of a failing line or error shown
TEST_FILE = "humaneval_test.py"
PASSED = "PASS"


def run_check(workspace: Path, here: Path) -> str:
    """``""`` when the check passes on ``workspace``, else why it did not."""
    problem = json.loads((here / "problem.json").read_text(encoding="utf-8"))
    entry = problem["entry_point"]
    seconds = float(problem.get("time_limit_s", TIME_LIMIT_S))
    memory = str(problem.get("memory_limit_gib", MEMORY_LIMIT_GIB))
    module = workspace / f"{entry}.py"
    if not module.is_file():
        return f"{entry}.py does not exist"
    with tempfile.TemporaryDirectory(prefix="phasedesk-humaneval-") as scratch:
        folder = Path(scratch)
        shutil.copyfile(module, folder / module.name)
        shutil.copyfile(here / "test.py", folder / TEST_FILE)
        output = folder / "output.txt"
        token = secrets.token_hex(8)  # the child's last line when the test passed
        with output.open("wb") as sink:
            child = subprocess.Popen(
                [sys.executable, "-I", str(Path(__file__).resolve()), "--child", str(folder),
                 entry, token, memory], cwd=folder, stdin=subprocess.DEVNULL, stdout=sink,
                stderr=subprocess.STDOUT, start_new_session=True)
            try:
                code = child.wait(timeout=seconds)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):  # it may have just ended
                    os.killpg(child.pid, signal.SIGKILL)
                child.wait()
                return f"check({entry}) took longer than {seconds:g} s"
        last = _last_line(output)
    if code == 0 and last == f"{PASSED} {token}":
        return ""
    if code < 0:
        return f"check({entry}) was ended by signal {-code}" + (f": {last}" if last else "")
    if code == 0 or not last:
        return f"check({entry}) ended (exit {code}) before the test finished"
    return last


def _last_line(output: Path) -> str:
    with output.open("rb") as file:
        file.seek(max(output.stat().st_size - 65536, 0))
        lines = file.read().decode("utf-8", "replace").strip().splitlines()
    return lines[-1].strip()[:SHOWN * 2] if lines else ""


def run_child(folder: Path, entry: str, token: str, memory_gib: float) -> int:
    """In the child: the memory limit set, the module imported, the test run on it; the last
    line printed says how it went (``PASS TOKEN`` when the test passed)."""
    import resource

    limit = int(memory_gib * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    spec = importlib.util.spec_from_file_location(entry, folder / f"{entry}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[entry] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # noqa: BLE001  (whatever the module does, it fails the check)
        print(f"\n{entry}.py does not import: {_describe(exc, memory_gib)}", flush=True)
        return 1
    function = getattr(module, entry, None)
    if not callable(function):
        print(f"\n{entry}.py defines no function {entry}", flush=True)
        return 1
    test_file = folder / TEST_FILE
    test_source = test_file.read_text(encoding="utf-8")
    namespace = dict(vars(module))
    namespace["__name__"] = "humaneval_test"
    try:
        exec(compile(test_source, str(test_file), "exec"), namespace)  # noqa: S102  (the test)
        namespace["check"](function)
    except BaseException as exc:  # noqa: BLE001
        print(f"\n{_failure(entry, exc, test_file, test_source, memory_gib)}", flush=True)
        return 1
    print(f"\n{PASSED} {token}", flush=True)
    return 0


def _failure(entry: str, exc: BaseException, test_file: Path, test_source: str,
             memory_gib: float) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    in_test = [f for f in frames if f.filename == str(test_file) and f.lineno]
    if isinstance(exc, AssertionError) and in_test and frames[-1] is in_test[-1]:
        number = in_test[-1].lineno or 0
        line = test_source.splitlines()[number - 1].strip()
        return f"check({entry}) failed at line {number} of the test: {line[:SHOWN]}"
    return f"check({entry}) raised {_describe(exc, memory_gib)}"


def _describe(exc: BaseException, memory_gib: float) -> str:
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if isinstance(exc, MemoryError):
        text += f" (the limit is {memory_gib:g} GiB)"
    where = [f for f in traceback.extract_tb(exc.__traceback__)
             if Path(f.filename).name != Path(__file__).name]
    if where and not isinstance(exc, SyntaxError):  # a SyntaxError names its line itself
        text += f" ({Path(where[-1].filename).name}, line {where[-1].lineno})"
    return text.replace("\n", " ")[:SHOWN]


def main(argv: list[str]) -> int:
    if len(argv) == 5 and argv[0] == "--child":
        return run_child(Path(argv[1]), argv[2], argv[3], float(argv[4]))
    if len(argv) != 2:
        print("usage: check.py WORKSPACE SUMMARY_FILE", file=sys.stderr)
        return 2
    why = run_check(Path(argv[0]), Path(__file__).resolve().parent)
    print(f"FAIL: {why}" if why else PASSED)
    return 1 if why else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
