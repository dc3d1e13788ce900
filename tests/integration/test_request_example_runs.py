"""The examples a request states are the person's own checks: the reading writes those stated
in prose as code, the engine runs them against the draft (round 1 of a request to change files
writes it, with no Plan call), samples candidates of the same prompt when the draft gives
something else, keeps a candidate only when it meets more of them, and says on the run's end
whether the final file meets them (issues 35 and 36), with the scripted model."""

from __future__ import annotations

from pathlib import Path

from core.events import Event
from tests.support.script import analysis, authored, files_workspace, of, phases, plan, \
    reading, run, summary, task

STUB = "def is_leap(year):\n    raise NotImplementedError\n"
PRINTS = ("def is_leap(year):\n    if year % 4 == 0:\n        print('Leap year')\n"
          "    else:\n        print('Not a leap year')\n")
RIGHT = "def is_leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"
ROUGH = "def is_leap(year):\n    return year % 4 == 0\n"
ASK = ("Implement is_leap(year) in leap.py: given a year, report if it is a leap year. "
       "is_leap(2000) is True, is_leap(1900) is False, is_leap(2023) is False.")
# The model's reading of ASK: leap.py to change, and the examples it states in prose as code.
EXAMPLES = ("is_leap(2000) == True", "is_leap(1900) == False", "is_leap(2023) == False")
LEAP = reading("change", change=("leap.py",), examples=EXAMPLES)


def test_a_draft_that_misses_the_requests_examples_is_replaced_by_a_candidate(
        tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"leap.py": STUB})
    events, model = run([
        analysis("Implement is_leap", **LEAP),
        authored(PRINTS, "leap.py"),
        authored(RIGHT, "leap.py", before="Fixed:"),
        summary("is_leap returns whether a year is a leap year; the examples pass."),
    ], ws, request=ASK, candidates=1)
    assert (ws / "leap.py").read_text() == RIGHT
    draft, candidate = model.requests[1], model.requests[2]  # the same prompt, sampled hot
    assert candidate["messages"] == draft["messages"] and candidate["temperature"] == 0.8
    assert draft["messages"][1]["content"].startswith(f"Request:\n{ASK}")
    finished = of(events, "task_finished")[0]
    assert "A candidate: the first version failed a check this one passes." in finished.result
    assert "1 candidate tried: candidate 1: passes 3 of 3 checks (kept); draft: passes 0 of 3 " \
           "checks" in finished.result
    assert "the request's 3 examples give what it says" in finished.result
    assert [(c["source"], c["kept"]) for c in finished.candidates] == [
        ("draft", False), ("candidate 1", True)]
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == (
        "verified", "3 checks of the request's examples pass")
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_a_candidate_that_meets_fewer_examples_leaves_the_draft_and_the_run_says_so(
        tmp_path: Path) -> None:
    """The draft's round, its one candidate no better: the engine ends the phase itself with
    what fails (no judge, no further round on a guess), and the run says so."""
    ws = files_workspace(tmp_path, {"leap.py": STUB})
    events, model = run([
        analysis("Implement is_leap", **LEAP),
        authored(ROUGH, "leap.py"),
        authored(PRINTS, "leap.py"),
        summary("is_leap is implemented."),
    ], ws, request=ASK, candidates=1)
    assert (ws / "leap.py").read_text() == ROUGH  # 2 of 3 examples beat 1 of 3
    assert model.remaining == 0
    assert [e.stage for e in of(events, "llm_call")] == [
        "request_analyser", "author", "author", "summarizer"]
    judged = of(events, "judged")[0]
    assert judged.by_engine and judged.next_action == "end_phase"
    finished = of(events, "phase_finished")[0]
    assert finished.status == "incomplete"
    assert "The draft fails it and no candidate did better; no further round is run on a " \
           "guess." in finished.summary
    assert "1 of 3 checks of the request's examples fails" in finished.summary
    task_done = of(events, "task_finished")[0]
    assert "1 candidate tried: candidate 1: passes 0 of 3 checks, fails one the first version " \
           "passed; draft: passes 2 of 3 checks (kept)" in task_done.result
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == (
        "failing", "1 of 3 checks of the request's examples fails")
    assert any("On the final files, 1 of 3 checks of the request's examples fails" in line
               for line in final.verification_sentences)
    assert of(events, "run_finished")[0].outcome == "partial"


def test_a_request_without_examples_runs_no_example_check(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"leap.py": STUB})
    events, model = run([
        analysis("Implement is_leap", **reading("change", change=("leap.py",))),
        authored(PRINTS, "leap.py"),
        summary("is_leap is implemented."),
    ], ws, request="Implement is_leap(year) in leap.py: report if a year is a leap year.")
    assert (ws / "leap.py").read_text() == PRINTS
    assert [c.stage for c in of(events, "llm_call")] == ["request_analyser", "author",
                                                         "summarizer"]
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("unverified", "not verified")
    assert model.remaining == 0


def test_later_phases_are_not_run_when_the_draft_settles_the_request(tmp_path: Path) -> None:
    """ex-ipv4 on the embedded model: the phase planner split one file into three phases; the
    draft wrote it whole in phase 1 and the request's example passed; phases 2 and 3 then
    spent 11 calls and could not replace the file (a later write needs better evidence). The
    draft is now round 1 of phase 1 itself."""
    ws = files_workspace(tmp_path, {"leap.py": STUB})
    events, model = run([
        analysis("Implement is_leap", phases=3, **LEAP),
        phases((1, "Prepare", []), (2, "Implement is_leap", [1]), (3, "Test it", [2])),
        authored(RIGHT, "leap.py"),
        summary("is_leap is implemented."),
    ], ws, request=ASK)
    assert (ws / "leap.py").read_text() == RIGHT
    assert [c.stage for c in of(events, "llm_call")] == [
        "request_analyser", "phase_planner", "author", "summarizer"]
    assert [(f.phase_id, f.status) for f in of(events, "phase_finished")] == [
        (1, "completed"), (2, "superseded"), (3, "superseded")]
    assert ("Phases 2, 3 are not run: the draft wrote leap.py, every file the request names, "
            "and no check fails on it; a later write would replace it only on better "
            "evidence.") in [n.message for n in of(events, "notice")]
    finished = of(events, "run_finished")[0]
    assert (finished.outcome, finished.verification) == ("succeeded", "verified")
    assert model.remaining == 0


def test_a_new_file_the_request_names_keeps_its_phase_when_the_draft_leaves_it_out(
        tmp_path: Path) -> None:
    """The draft wrote config.py but not NOTES.md, which the request names and the workspace
    does not hold yet: the request is not settled, so phase 2 runs and writes it."""
    ws = files_workspace(tmp_path, {"config.py": "PORT = 80\n"})
    events, model = run([
        analysis("Set the port and write the notes", phases=2,
                 **reading("change", change=("config.py",), create=("NOTES.md",))),
        phases((1, "Port", []), (2, "Notes", [1])),
        authored("PORT = 8080\n", "config.py"),
        plan(task(1, "write_file", path="NOTES.md", instruction="say the port changed")),
        authored("# Notes\n\nThe port is 8080.\n", "NOTES.md"),
        summary("Port set, notes written."),
    ], ws, request="Set the port to 8080 in config.py, then write the changelog NOTES.md.",
        assists_off="computed_files")
    assert (ws / "NOTES.md").read_text() == "# Notes\n\nThe port is 8080.\n"
    assert [(f.phase_id, f.status) for f in of(events, "phase_finished")] == [
        (1, "completed"), (2, "completed")]
    assert model.remaining == 0


def test_a_draft_a_check_fails_leaves_the_later_phases_to_run(tmp_path: Path) -> None:
    ws = files_workspace(tmp_path, {"leap.py": STUB})
    events, model = run([
        analysis("Implement is_leap", phases=2, **LEAP),
        phases((1, "Write", []), (2, "Fix", [1])),
        authored(ROUGH, "leap.py"),
        authored(ROUGH, "leap.py"),  # the one candidate: no better; the engine ends phase 1
        plan(task(1, "write_file", path="leap.py", instruction="mind the centuries")),
        authored(RIGHT, "leap.py"),  # a clean write: the engine decides, no judge call
        summary("is_leap is implemented."),
    ], ws, request=ASK, candidates=1)
    assert (ws / "leap.py").read_text() == RIGHT  # phase 2 fixed it: more examples pass
    assert [(f.phase_id, f.status) for f in of(events, "phase_finished")] == [
        (1, "incomplete"), (2, "completed")]
    assert of(events, "run_finished")[0].verification == "verified"
    assert model.remaining == 0


def lowered_by_the_summarizer(tmp_path: Path, request: str, examples: tuple[str, ...] = ()
                              ) -> list[Event]:
    """leap.py written right, and a summary that marks the requirement failed; ``examples``:
    those the reading gives."""
    ws = files_workspace(tmp_path, {"leap.py": STUB})
    said = summary("is_leap is implemented.")
    said["arguments"]["requirements"] = [{"requirement": "Implement is_leap", "status": "failed",
                                          "evidence": "not sure"}]
    events, _ = run([
        analysis("Implement is_leap", requirements=[
            {"requirement": "Implement is_leap", "quote": "Implement is_leap(year) in leap.py"}],
            **reading("change", change=("leap.py",), examples=examples)),
        authored(RIGHT, "leap.py"),
        said,
    ], ws, request=request)
    return events


def test_a_verified_run_is_not_lowered_by_the_summarizers_word(tmp_path: Path) -> None:
    """fix-total on the embedded model: the workspace's tests passed on the final file, and the
    summarizer marked the requirement failed; the run ended partial though it had passed."""
    events = lowered_by_the_summarizer(tmp_path, ASK, EXAMPLES)
    final = of(events, "summary")[0]
    assert [r["status"] for r in final.requirements] == ["done"]
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_an_unverified_run_is_lowered_by_the_summarizers_word(tmp_path: Path) -> None:
    events = lowered_by_the_summarizer(
        tmp_path, "Implement is_leap(year) in leap.py: report if a year is a leap year.")
    final = of(events, "summary")[0]
    assert [r["status"] for r in final.requirements] == ["failed"]
    assert final.requirements[0]["evidence"].startswith("The summarizer found it not met.")
    assert of(events, "run_finished")[0].outcome == "partial"


def test_examples_of_one_function_do_not_verify_a_file_with_another_the_request_names(
        tmp_path: Path) -> None:
    """to_int has an example, parse_ipv4 none: the example passes, and the run says that
    nothing ran parse_ipv4 instead of calling the file verified."""
    ws = files_workspace(tmp_path, {"ipv4.py": "def parse_ipv4(text):\n    pass\n"})
    written = ("def parse_ipv4(text):\n    return tuple(int(p) for p in text.split('.'))\n\n\n"
               "def to_int(text):\n    a, b, c, d = parse_ipv4(text)\n"
               "    return (a << 24) + (b << 16) + (c << 8) + d\n")
    events, _ = run([
        analysis("Implement parse_ipv4 and to_int", **reading(
            "change", change=("ipv4.py",), examples=('to_int("1.2.3.4") == 16909060',))),
        authored(written, "ipv4.py"),
        summary("parse_ipv4 and to_int are implemented."),
    ], ws, request=("Implement parse_ipv4(text) and to_int(text) in ipv4.py. parse_ipv4 "
                    "returns the four numbers of an address; to_int(\"1.2.3.4\") is 16909060."))
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("unverified", "not verified")
    assert "No example of the request calls parse_ipv4 in ipv4.py." in \
        final.verification_sentences
    assert any("1 check of the request's examples passes" in line
               for line in final.verification_sentences)
