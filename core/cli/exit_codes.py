"""Exit codes of the command-line front ends, and how a finished run maps onto them.

A run's outcome is on its last event (``RunFinished``): ``status`` says how it ended (a
stop is ``cancelled``), ``outcome`` what it achieved.
"""

from __future__ import annotations

import textwrap

SUCCEEDED = 0
FAILED = 1
USAGE_ERROR = 2
UNVERIFIED = 3  # the work finished and nothing fails, but nothing checked it
STOPPED = 130  # as a shell reports a program that Ctrl+C (SIGINT) ended: 128 + 2

DESCRIPTIONS: tuple[tuple[int, str], ...] = (
    (SUCCEEDED, "succeeded: the run's outcome is 'succeeded', checked by tests or the "
                "request's examples (or the command did its work)"),
    (FAILED, "the run failed, was only partly done or asks for a clarification; or the "
             "command could not do its work (an undo refused, an endpoint not probed)"),
    (USAGE_ERROR, "usage error: an unknown flag, a flag's bad value, --headless without "
                  "--workspace, an empty request, an unknown or ambiguous run id"),
    (UNVERIFIED, "done, not verified: the work finished and nothing fails, but nothing "
                 "checked it (a script that accepts finished but unchecked work accepts 0 "
                 "and 3)"),
    (STOPPED, "stopped with Ctrl+C (the run still ends with its summary)"),
)


def run_exit_code(status: str, outcome: str) -> int:
    """The exit code of a run that ended with ``status`` and ``outcome``."""
    if status == "cancelled":
        return STOPPED
    if status == "clarification_needed":
        return FAILED
    return {"succeeded": SUCCEEDED, "unverified": UNVERIFIED}.get(outcome, FAILED)


def describe_exit_codes() -> str:
    """The exit codes and what each means, for ``--help``."""
    lines = ["exit codes:"]
    for code, text in DESCRIPTIONS:
        lines += textwrap.wrap(text, 88, initial_indent=f"  {code:<5}", subsequent_indent=" " * 7)
    return "\n".join(lines)
