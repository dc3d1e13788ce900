"""The verification state from the checks that ran (core/engine/verification/state.py)."""

from __future__ import annotations

from core.engine.verification.state import Check, VerificationState, digest, verify

FINAL = {"calc.py": "def add(a, b):\n    return a + b\n"}


def test_nothing_changed_or_checked_is_unverified() -> None:
    assert verify({}, []).state == "unverified"
    state = verify(FINAL, [])
    assert (state.state, state.line) == ("unverified", "not verified")
    assert state.sentences == ("Nothing checked calc.py as it is now.",)


def test_tests_on_the_final_files_verify_and_an_earlier_run_does_not() -> None:
    now = {"calc.py": digest(FINAL["calc.py"])}
    ran = Check("tests", now, 12, 0, "the workspace's tests, run by the engine")
    state = verify(FINAL, [ran])
    assert (state.state, state.line) == ("verified", "12 tests pass")
    assert state.sentences == ("On the final files, 12 tests pass (the workspace's tests, run by "
                               "the engine).",)
    before = Check("command", {"calc.py": digest("def add(a, b):\n    pass\n")}, 3, 0, "task 1")
    assert verify(FINAL, [before]).state == "unverified"


def test_a_failing_check_on_the_final_files_is_failing_and_says_how_many() -> None:
    now = {"calc.py": digest(FINAL["calc.py"])}
    state = verify(FINAL, [Check("tests", now, 10, 2, "task 3")])
    assert (state.state, state.line) == ("failing", "2 of 12 tests fail")


def test_a_missing_file_fails_the_run_and_says_which_files_it_is_about() -> None:
    now = {"calc.py": digest(FINAL["calc.py"])}
    gone = Check("files", now, 1, 1, "NOTES.md does not exist", covers_all=False,
                 missing=("NOTES.md",))
    state = verify(FINAL, [gone])
    assert (state.state, state.line, state.missing, state.only_missing) == (
        "failing", "1 of 2 requested files is missing", ("NOTES.md",), True)
    two = Check("files", now, 0, 2, "a.txt, b.txt do not exist", covers_all=False,
                missing=("a.txt", "b.txt"))
    assert verify(FINAL, [two]).line == "2 of 2 requested files are missing"
    tests = Check("tests", now, 3, 1, "task 2")
    both = verify(FINAL, [gone, tests])
    assert (both.missing, both.only_missing) == (("NOTES.md",), False)  # a test fails too


def test_examples_cover_only_their_file() -> None:
    final = {**FINAL, "notes.txt": "done\n"}
    examples = Check("examples", {"calc.py": digest(FINAL["calc.py"])}, 4, 0, "examples",
                     covers_all=False)
    state = verify(final, [examples])
    assert state.state == "unverified"
    assert "Nothing checked notes.txt as it is now." in state.sentences
    assert verify(FINAL, [examples]).line == "4 checks of the request's examples pass"


def test_examples_that_leave_a_named_function_unrun_do_not_verify_its_file() -> None:
    now = {"calc.py": digest(FINAL["calc.py"])}
    some = Check("examples", now, 1, 0, "run by the engine on calc.py", covers_all=False,
                 unchecked=("parse", "is_private"))
    state = verify(FINAL, [some])
    assert (state.state, state.line) == ("unverified", "not verified")
    assert state.sentences == (
        "On the final files, 1 check of the request's examples passes (run by the engine on "
        "calc.py).", "No example of the request calls parse or is_private in calc.py.",
        "Nothing checked calc.py as it is now.")
    failing = Check("examples", now, 0, 1, "run by the engine", covers_all=False,
                    unchecked=("parse",))
    assert verify(FINAL, [failing]).state == "failing"
    tests = Check("tests", now, 5, 0, "the workspace's tests, run by the engine")
    assert verify(FINAL, [some, tests]).state == "verified"

