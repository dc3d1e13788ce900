"""A file the request tells the agent to write ("Write totals.csv ...") is looked for by the
engine at the end, without a model: a run that leaves it unwritten does not end `succeeded`,
whatever the judge and the summary say, in both engines (issue 36), with the scripted model.
Seen on the embedded model: the classic loop wrote a script for ``csv-pipeline``, never ran
it, and ended `succeeded` saying totals.csv was written."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from tests.support.script import analysis, authored, files_workspace, judge, of, reading, run, \
    summary

SALES = "region,amount\nnorth,120\nsouth,80\nnorth,30\n"
TOTALS = "region,total\nnorth,150\nsouth,80\n"
SCRIPT = ("import csv\n\ntotals = {}\nfor row in csv.DictReader(open('sales.csv')):\n"
          "    totals[row['region']] = totals.get(row['region'], 0) + int(row['amount'])\n")
ASK = ("sales.csv lists sales with a region and an amount. Write totals.csv with the header "
       "\"region,total\" and one line per region with the sum of its amounts.")
CLAIM = "totals.csv is written with the totals of every region."
# The model's reading of ASK: totals.csv to create, sales.csv only read.
TOTALS_ASKED = reading("change", create=("totals.csv",), read=("sales.csv",))
CHECK = ("import csv\nfrom pathlib import Path\n\nHERE = Path(__file__).parent\n\n\n"
         "def test_totals_are_the_sums_per_region():\n"
         "    sums = {}\n"
         "    for row in csv.DictReader((HERE / 'sales.csv').open()):\n"
         "        sums[row['region']] = sums.get(row['region'], 0) + int(row['amount'])\n"
         "    lines = (HERE / 'totals.csv').read_text().splitlines()\n"
         "    assert lines[0] == 'region,total'\n"
         "    assert lines[1:] == [f'{region},{total}' for region, total in sums.items()]\n")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return files_workspace(tmp_path, {"sales.csv": SALES})


def test_the_classic_loop_that_never_writes_the_requested_file_ends_partial(ws: Path) -> None:
    events, _ = run([
        analysis("Write totals.csv", **TOTALS_ASKED),
        {"tool_calls": [{"tool": "write_file", "arguments": {
            "path": "totals.py", "instruction": "sum the amounts per region"}}]},
        {"text": "A script can sum the amounts."},  # the one-shot draft: no file in it
        authored(SCRIPT),
        {"text": CLAIM},
    ], ws, request=ASK, use_phase_task=False)
    assert (ws / "totals.py").read_text() == SCRIPT
    assert not (ws / "totals.csv").exists()
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == (
        "failing", "1 of 1 requested file is missing")
    assert "On the final files, 1 of 1 requested file is missing (totals.csv does not exist)." \
        in final.verification_sentences
    assert final.final_summary == CLAIM  # the model's words, under the engine's facts
    assert of(events, "run_finished")[0].outcome == "partial"


def test_a_run_that_writes_the_requested_file_is_not_held_back(ws: Path) -> None:
    """computed_files off: the draft writes totals.csv (else a program is asked to); the
    workspace's test of totals.csv, run by the test command, checks it."""
    (ws / "test_totals.py").write_text(CHECK, encoding="utf-8")
    events, _ = run([
        analysis("Write totals.csv", **TOTALS_ASKED),
        authored(TOTALS, "totals.csv", language="csv"),
        summary(CLAIM),
    ], ws, request=ASK, assists_off="computed_files",
        test_command=f"{shlex.quote(sys.executable)} -m pytest -q test_totals.py")
    assert (ws / "totals.csv").read_text() == TOTALS
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == ("verified", "1 test passes")
    assert not any("requested file" in s for s in final.verification_sentences)
    assert of(events, "run_finished")[0].outcome == "succeeded"


def test_the_judge_is_told_of_a_requested_file_the_phase_engine_left_unwritten(
        ws: Path) -> None:
    ask = ASK + " Also create NOTES.md that says how the totals were made."
    events, model = run([
        analysis("Write totals.csv and NOTES.md", **reading(
            "change", create=("totals.csv", "NOTES.md"), read=("sales.csv",))),
        authored(TOTALS, "totals.csv", language="csv"),  # the draft: NOTES.md left out
        judge([1], summary="totals.csv and NOTES.md are written."),
        summary("Both files are written."),
    ], ws, request=ask, max_rounds_per_phase=1, assists_off="computed_files")
    assert (ws / "totals.csv").read_text() == TOTALS
    assert not (ws / "NOTES.md").exists()
    judged = of(events, "judged")[0]
    assert not judged.by_engine
    judge_prompt = next(r for r in model.requests if "judge" in str(r["messages"][0]))
    assert "1 of 2 requested files is missing (NOTES.md does not exist)" in \
        judge_prompt["messages"][-1]["content"]
    final = of(events, "summary")[0]
    assert (final.verification, final.verification_line) == (
        "failing", "1 of 2 requested files is missing")
    assert of(events, "run_finished")[0].outcome == "partial"
