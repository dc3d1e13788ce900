"""The guard that fails tests on undeclared warnings sorts what it is given as it should (its
wiring into pytest is in tests/conftest.py)."""

from __future__ import annotations

import logging

from tests.support.log_guard import WarningGuard


def guarded() -> tuple[WarningGuard, logging.Logger]:
    guard = WarningGuard()
    probe = logging.getLogger("tests.log_guard_probe.private")
    probe.propagate = False
    probe.setLevel(logging.DEBUG)
    probe.handlers = [guard]
    guard.start_test()
    return guard, probe


def test_undeclared_warnings_and_errors_are_reported_and_info_is_not() -> None:
    guard, probe = guarded()
    probe.info("fine")
    probe.warning("disk %s is full", "C")
    probe.error("gone")
    assert guard.take_unexpected() == ["WARNING tests.log_guard_probe.private: disk C is full",
                                       "ERROR tests.log_guard_probe.private: gone"]
    assert guard.take_unexpected() == []


def test_a_declared_warning_is_expected_and_must_come_as_often_as_declared() -> None:
    guard, probe = guarded()
    probe.warning("bridge.submit ignored: invalid JSON")  # in a fixture, before the declaration
    twice = guard.expect("bridge.submit ignored", count=2)
    some = guard.expect("could not start")
    assert len(twice.records) == 1
    assert guard.unmet() == [
        "expected 2 warning(s) containing 'bridge.submit ignored'; 1 logged",
        "expected a warning containing 'could not start'; none was logged"]
    probe.warning("bridge.submit ignored: empty")
    probe.error("could not start the run")
    probe.error("could not start the run")
    assert guard.unmet() == [] and guard.take_unexpected() == []
    probe.warning("bridge.submit ignored: not an object")
    assert guard.unmet() == [
        "expected 2 warning(s) containing 'bridge.submit ignored'; 3 logged"]
    assert len(some.records) == 2


def test_a_new_test_starts_with_nothing_declared() -> None:
    guard, probe = guarded()
    guard.expect("x")
    guard.start_test()
    probe.warning("x")
    assert guard.unmet() == [] and guard.take_unexpected() == ["WARNING tests.log_guard_probe"
                                                               ".private: x"]
