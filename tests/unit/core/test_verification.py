"""The verification state from the checks that ran, the claims held to it, and the requirements
the person's words bear out (core/engine/verification)."""

from __future__ import annotations

from core.engine.verification.claims import claims, held_to, held_to_changes
from core.engine.verification.requirements import grounded
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


def test_a_sentence_that_says_a_missing_file_is_there_is_replaced() -> None:
    state = VerificationState("failing", "1 of 1 requested file is missing", (),
                              ("totals.csv",), True)
    text = "## Done\n\n- totals.csv is written.\n- The script sums the amounts."
    assert held_to(text, state) == ("## Done\n\n- totals.csv does not exist: the run did not "
                                    "write it.\n- The script sums the amounts.", True)
    assert held_to("totals.csv was not written.", state) == ("totals.csv was not written.", False)
    assert held_to("totals.csv is written.", VerificationState()) == (
        "totals.csv is written.", False)


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


def test_a_claim_of_tests_is_replaced_when_nothing_ran() -> None:
    text = ("Implemented add in calc.py. The function was tested with various inputs and "
            "passed all tests. It returns the sum.")
    held, replaced = held_to(text, verify(FINAL, []))
    assert replaced
    assert held == ("Implemented add in calc.py. No test or check ran on the final files, so "
                    "this is not verified. It returns the sum.")


def test_claims_stand_when_verified_and_a_failing_run_replaces_only_claims_of_passing() -> None:
    text = "- All tests pass.\n- calc.py changed."
    verified = VerificationState("verified", "3 tests pass")
    assert held_to(text, verified) == (text, False)
    failing = VerificationState("failing", "1 of 3 tests fail")
    held, replaced = held_to(text, failing)
    assert replaced and held == "- On the final files, 1 of 3 tests fail.\n- calc.py changed."
    assert held_to("The tests ran: 1 of 3 fail.", failing) == ("The tests ran: 1 of 3 fail.",
                                                               False)


def test_sentences_that_say_nothing_ran_are_not_claims() -> None:
    assert not claims("No test or check ran on the final files.")
    assert not claims("The tests were not run.")
    assert not claims("Added tests for slugify to test_textutils.py.")
    assert claims("Verified that the port is 8080.")
    assert claims("I ran pytest and everything is green.")



def test_a_negation_turns_only_what_it_stands_before() -> None:
    # Seen on llama-server (ex-flatten-dict): shown as written beside "2 of 3 checks fail".
    sentence = ("The implementation passed all the provided checks and did not change the "
                "input dictionaries.")
    assert claims(sentence)
    failing = VerificationState("failing", "2 of 3 checks of the request's examples fail")
    held, replaced = held_to(f"Implemented flatten. {sentence} Done.", failing)
    assert replaced
    assert held == ("Implemented flatten. On the final files, 2 of 3 checks of the request's "
                    "examples fail. Done.")
    assert not claims("The code was written but not tested.")
    assert not claims("No tests exist yet, so nothing was checked.")
    assert not claims("The tests didn't pass.")
    # "password" and "workspace" are not "pass" and "work" (llama-server, ex-password-check)
    assert not claims("The function checks the rules for a strong password, with no digit.")
    assert not claims("The checks cover the workspace.")


def test_a_sentence_that_vouches_for_the_result_claims_it() -> None:
    assert claims("The implementation is complete and works as expected.")
    assert claims("The parser now behaves correctly and is fully working.")
    assert not claims("It does not work as expected for empty input.")
    assert not claims("The function works on lists and tuples.")
    held, replaced = held_to("Implemented EventBus in events.py. It works as expected.",
                             verify(FINAL, []))
    assert replaced
    assert held == ("Implemented EventBus in events.py. No test or check ran on the final "
                    "files, so this is not verified.")
    verified = VerificationState("verified", "3 tests pass")
    assert held_to("It works as expected.", verified) == ("It works as expected.", False)

def test_requirements_are_grounded_in_the_persons_words() -> None:
    request = "Implement add in calc.py so it returns the sum"
    assert grounded("add returns the sum of its arguments", "", request)
    assert grounded("Report whether a year is a leap year", "so it returns the sum", request)
    assert not grounded("Handle both integer and floating-point inputs", "", request)
    assert not grounded("Read the DNA strands from the input files", "",
                        "Calculate the Hamming distance between two DNA strands in hamming.py")
    assert not grounded("close all existing connections", "", "Switch to port 8080")


def test_a_replaced_line_keeps_its_line_break() -> None:
    text = "Changed the files.\n\nChecked:\n- config.py\n- the folder"
    held, replaced = held_to(text, verify(FINAL, []))
    assert replaced
    assert held == ("Changed the files.\n\nNo test or check ran on the final files, so this is "
                    "not verified.\n- config.py\n- the folder")


def test_a_change_spoken_of_as_made_when_no_file_changed_is_replaced() -> None:
    nothing = verify({}, [])
    text = ("The run has ended. The implementation of check_password in password.py has "
            "been completed.\n- It now returns None for a strong password.\n"
            "- password.py was not written.")
    held, replaced = held_to_changes(text, nothing, asked=True)
    assert replaced and held == ("The run has ended. No file was changed: nothing the request "
                                 "asks for was written.\n- password.py was not written.")
    assert held_to_changes(text, nothing, asked=False) == (text, False)  # a question
    changed = verify(FINAL, [])
    assert held_to_changes(text, changed, asked=True) == (text, False)
    denied = "password.py was not written. Nothing was changed."
    assert held_to_changes(denied, nothing, asked=True) == (denied, False)
