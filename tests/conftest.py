"""Test-wide guards: an isolated app home, offscreen Qt, no network beyond loopback, Qt
objects that end with their test (``tests/support/qt_lifetimes``), and no warning logged that
the test did not declare (``tests/support/log_guard``)."""

from __future__ import annotations

import atexit
import gc
import ipaddress
import logging
import os
import shutil
import socket
import tempfile
from pathlib import Path
from collections.abc import Callable
from typing import Any, Iterator

import pytest

from tests.support.log_guard import ExpectedWarning, WarningGuard

# The whole session (collection, module fixtures, subprocesses) gets its own app home; each
# test then gets a fresh one below. Nothing a test runs reaches the person's history.
SESSION_HOME = tempfile.mkdtemp(prefix="phasedesk-tests-")
atexit.register(shutil.rmtree, SESSION_HOME, True)
os.environ["PHASEDESK_HOME"] = SESSION_HOME
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")
os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--disable-gpu --no-sandbox")

_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: Any) -> Any:
    if self.family in (socket.AF_INET, socket.AF_INET6):
        host = address[0]
        try:
            allowed = ipaddress.ip_address(host).is_loopback
        except ValueError:
            allowed = host == "localhost"
        if not allowed:
            raise OSError(f"tests may not reach the network: {host}")
    return _real_connect(self, address)


socket.socket.connect = _loopback_only  # type: ignore[method-assign]

WARNINGS = WarningGuard()
logging.getLogger().addHandler(WARNINGS)
NOT_JUDGED = pytest.StashKey[bool]()  # an earlier phase failed or skipped


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own config/data folder, never the person's real one."""
    home = tmp_path / "phasedesk-home"
    monkeypatch.setenv("PHASEDESK_HOME", str(home))
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    yield home


@pytest.fixture
def expect_warning() -> Callable[..., ExpectedWarning]:
    """``expect_warning(text, count=None)`` declares a WARNING-or-worse log the test provokes
    on purpose (``text``: a piece of its message; ``count``: exactly that many, else at least
    one). Returns the declaration, whose ``records`` fill as the warnings arrive."""
    return WARNINGS.expect


def _uses_qt(item: pytest.Item) -> bool:
    return "qapp" in getattr(item, "fixturenames", ())


@pytest.fixture(autouse=True)
def qt_objects_end_with_their_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """In a test that uses Qt, no garbage is collected until it ends (so never in a worker
    thread); then it is collected here, on the GUI thread, and the test fails if a QObject
    it made is still alive — a window, a page or a timer left for a later test to trip on."""
    if not _uses_qt(request.node):
        yield
        return
    from tests.support.qt_lifetimes import flush_deletes, live_qobjects

    gc.disable()
    try:
        yield
        flush_deletes()
        gc.collect()
        left = live_qobjects()
        assert left == [], f"Qt objects outlived the test: {left}"
    finally:
        gc.enable()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """After a Qt test, its fixtures' last references are gone: collect them here, on the
    GUI thread, rather than in whichever thread the next full collection happens to run."""
    WARNINGS.start_test()
    result = yield
    if _uses_qt(item):
        gc.collect()
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A test that passed fails when it logged a warning it did not declare (its fixtures'
    setup and its body are judged when the body ends, its teardown after that), or when a
    declared warning never came. A test that already failed or was skipped is left as it is."""
    report = yield
    if call.when == "setup" and report.passed:
        return report
    problems = WARNINGS.take_unexpected()
    if call.when == "teardown":
        problems += WARNINGS.unmet()
    if item.stash.get(NOT_JUDGED, False) or not report.passed:
        item.stash[NOT_JUDGED] = True
    elif problems:
        report.outcome = "failed"
        report.longrepr = ("Warnings logged and not declared, or declared and not logged "
                           "(see expect_warning):\n  " + "\n  ".join(problems))
    return report
