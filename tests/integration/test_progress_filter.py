"""``scripts/progress-filter.sh``, the llama.cpp build's progress in ``scripts/setup.sh``: each
step shows while the build still runs (an awk filter, mawk on Debian, held every line back
until the build ended), with its count and the time so far, and the end says where pip
cached the wheel."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILTER = ROOT / "scripts" / "progress-filter.sh"
CACHE = "/root/.cache/pip/wheels/4e/a1/0c"
WHEEL = "llama_cpp_python-0.3.36-cp311-cp311-linux_x86_64.whl"
# pip -v's output around a build: noise, the build's steps, the wheel and where it is cached.
# Before each step the producer waits (at most 30 s) until the test has seen the step before.
PRODUCER = f"""
import os, sys, time
def wait(name):
    deadline = time.monotonic() + 30
    while not os.path.exists(name) and time.monotonic() < deadline:
        time.sleep(0.02)
print("  -- Configuring done", flush=True)
for i in (1, 2, 3):
    print(f"  [{{i}}/3] Building C object vendor/ggml/src/part{{i}}.c.o", flush=True)
    print("  compiler noise", flush=True)
    wait(os.path.join(sys.argv[1], f"seen-{{i}}"))
print("  Created wheel for llama-cpp-python: filename={WHEEL} size=4 sha256=00", flush=True)
print("  Stored in directory: {CACHE}", flush=True)
"""


class Pipeline:
    """The producer piped into the filter; the filter's output read from ``fd``."""

    def __init__(self, tmp_path: Path, terminal: bool) -> None:
        self.tmp_path = tmp_path
        self.producer = subprocess.Popen([sys.executable, "-c", PRODUCER, str(tmp_path)],
                                         stdout=subprocess.PIPE)
        if terminal:
            self.fd, out = pty.openpty()
        else:
            self.fd, out = os.pipe()
        self.filter = subprocess.Popen(["bash", str(FILTER)], stdin=self.producer.stdout,
                                       stdout=out)
        os.close(out)
        assert self.producer.stdout is not None
        self.producer.stdout.close()
        self.text = ""

    def read_until(self, pattern: str, limit_s: float = 20) -> re.Match[str]:
        deadline = time.monotonic() + limit_s
        while not (found := re.search(pattern, self.text)):
            left = deadline - time.monotonic()
            assert left > 0, f"no {pattern!r} in {self.text!r}"
            if select.select([self.fd], [], [], min(left, 0.2))[0]:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:  # a pty whose other end closed
                    chunk = b""
                assert chunk or found, f"the filter ended without {pattern!r}: {self.text!r}"
                self.text += chunk.decode()
        return found

    def close(self) -> None:
        for process in (self.producer, self.filter):
            if process.poll() is None:
                process.kill()
            process.wait(10)
        os.close(self.fd)


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
def test_each_step_shows_while_the_build_still_runs(tmp_path: Path, terminal: bool) -> None:
    pipeline = Pipeline(tmp_path, terminal)
    try:
        for step in (1, 2, 3):
            shown = pipeline.read_until(rf"compiling \[{step}/3\] · (\d+):(\d\d) elapsed")
            assert pipeline.producer.poll() is None, f"step {step} showed only after the build"
            assert int(shown[1]) * 60 + int(shown[2]) < 30
            (tmp_path / f"seen-{step}").touch()
        pipeline.read_until(r"pip cached the wheel in .*\n")
        assert pipeline.filter.wait(10) == 0
        pipeline.read_until(r"\Z")
    finally:
        pipeline.close()
    lines = [line for line in re.split(r"[\r\n]+", pipeline.text) if line.strip()]
    assert lines[-1].strip() == f"pip cached the wheel in {CACHE}"
    assert WHEEL in lines[-2] and "noise" not in pipeline.text
    assert ("\r" in pipeline.text) is terminal  # a terminal's line is rewritten in place
