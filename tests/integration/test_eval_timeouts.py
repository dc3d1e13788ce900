"""The runner's timeout of a run whose engine process has already ended: seen with 114 runs at
once, where the Ctrl+C of a timeout went to a process that no longer existed and its
ProcessLookupError ended the whole suite instead of that one run."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bench.evals import engine_run
from bench.evals.engine_run import RunResult, _run_engine


def test_a_timeout_after_the_engine_ended_stops_that_run_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = asyncio.create_subprocess_exec

    async def ended(*args: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        """A real engine process that has already ended, its output read, as the runner's
        timeout finds it when the end and the timeout come in the same moment."""
        process = await real(*args, **kwargs)
        await process.wait()
        await process.stdout.read()  # type: ignore[union-attr]
        process.stdout = asyncio.StreamReader()  # nothing more comes: the read times out
        return process

    monkeypatch.setattr(engine_run.asyncio, "create_subprocess_exec", ended)
    monkeypatch.setattr(engine_run, "GRACE_S", 0.2)
    result = RunResult("fix-total", "phase")
    summary = asyncio.run(_run_engine(["true"], {"PATH": "/usr/bin:/bin"}, tmp_path, result,
                                      0.2, lambda r, e: None))
    assert summary == ""
    assert result.status == "killed (timeout)"
