"""The classic loop's one reminder to write (the ``write_reminder`` assist).

When the classic loop's model answers in text while nothing is written, though the request
asks for files to be created or changed (and does not forbid it) and write_file is offered,
the answer is kept and the model is asked once to call write_file for the file the request
names, or to say why it cannot; a second answer ends the run as before. (A 1.5B model
answered "The search code has already been called…" after two searches of the stub it was
asked to implement.)
"""

from __future__ import annotations



def write_nudge(path: str) -> str:
    """The reminder; ``path`` is the file the request names ("" for none)."""
    target = f"with the path {path}" if path else "with the file's path"
    return ("Nothing has been written yet, but the request asks for files to be created or "
            f"changed. If you can, call write_file now {target} and an instruction saying what "
            "it must contain or what must change (its content is written in a separate step). "
            "If it cannot be done, answer why.")


def reminder(files: tuple[str, ...]) -> tuple[str, str]:
    """(the message for the model, the first of the request's target ``files`` or "the
    files")."""
    return write_nudge(files[0] if files else ""), files[0] if files else "the files"
