"""Model-specific helpers ("assists"), each a named switch, all behind one facade.

Every mechanism that exists for a small model's habit rather than for the request lives here:
one module each, listed once in ``ASSISTS`` with what it does and the habit it answers. The
engines reach them only through ``Assists``' typed hooks (authoring, planning, answering,
executing), never by module name; each hook does nothing for an assist that is switched off
(setting ``assists_off``, headless ``--without NAME``, ``bench/evals/run.py --without
NAME``). The evaluation decides which stay: ``docs/evaluation.md`` shows what each changes.
A notice an assist raises names it (``Notice.assist``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.engine.assists import computed_files, write_reminder
from core.engine.authoring.replies import Authored
from core.events import Event, Notice


@dataclass(frozen=True)
class AssistInfo:
    name: str
    does: str
    habit: str


ASSISTS: tuple[AssistInfo, ...] = (
    AssistInfo("computed_files", "the authoring call of a data file the run creates may reply "
               "with a program that prints the content, run in a sandboxed copy of the workspace",
               "counts, sums and sorted lists worked out wrongly by the model itself"),
    AssistInfo("write_reminder", "the classic loop's one reminder to call write_file when it "
               "answers before writing what the request asks for",
               "answering about the code instead of changing it"),
)
NAMES: tuple[str, ...] = tuple(info.name for info in ASSISTS)
# Deleted after the evaluation showed they added nothing (docs/evaluation.md): a setting that
# still switches one off is accepted, and changes nothing.
REMOVED: tuple[str, ...] = ("missing_imports", "sketch_stripping", "overdue_write", "look_back",
                            "writes_after_reads")


def unknown(names: Iterable[str]) -> list[str]:
    """The names that are not assists."""
    return [name for name in names if name not in NAMES]


def parse_off(text: str) -> tuple[str, ...]:
    """The assists a comma-separated setting switches off (unknown names raise; the names of
    removed assists are dropped)."""
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",")
                                if n.strip() and n.strip() not in REMOVED))
    bad = unknown(names)
    if bad:
        raise ValueError(f"unknown assist {', '.join(bad)} (known: {', '.join(NAMES)})")
    return names


class Assists:
    """The run's assists: which are on, and the hooks the engines call."""

    def __init__(self, off: Iterable[str], emit: Callable[[Event], None]) -> None:
        self.off = frozenset(off)
        self.emit = emit
        self.fired: dict[str, int] = {}

    def on(self, name: str) -> bool:
        return name in NAMES and name not in self.off

    def notice(self, name: str, message: str, level: str = "info", stage: str = "") -> None:
        """A notice raised by assist ``name`` (counted in ``fired``)."""
        self.fired[name] = self.fired.get(name, 0) + 1
        self.emit(Notice(level=level, message=message, stage=stage, assist=name))  # type: ignore[arg-type]

    # authoring
    def program_offer(self, rel: str, sandbox_mode: str, new: bool) -> str:
        """The program form for ``rel``: a data file the run creates (``new``: it did not
        exist when the run began; an existing one, shown whole to the model, is edited as
        text)."""
        if not new or not self.on("computed_files") or \
                not computed_files.offers_program(rel, sandbox_mode):
            return ""
        return computed_files.program_offer(rel)

    async def computed(self, reply: str, rel: str, workspace: Path, sandbox_mode: str
                       ) -> Authored | None:
        authored = await computed_files.computed(reply, rel, workspace, sandbox_mode)
        if authored is not None:
            self.notice("computed_files", f"The reply for {rel} was a program; it ran in a "
                        "sandboxed copy of the workspace" + (
                            " and its output is the file's content." if authored.content
                            is not None else f", and failed: {authored.problem}"))
        return authored

    # answering (the classic loop)
    def reminder(self, owes: bool, files: tuple[str, ...]) -> tuple[str, str] | None:
        """The reminder to write (the message for the model, the file it names), once;
        ``files``: the request's target files."""
        if not owes or not self.on("write_reminder") or self.fired.get("write_reminder"):
            return None
        return write_reminder.reminder(files)

    # executing
    def program_note(self, program: str) -> str:
        return computed_files.program_note(program)

    def summary(self) -> str:
        """Which assists were off and which fired, for the run's record."""
        fired = ", ".join(f"{name} ×{count}" for name, count in self.fired.items())
        off = ", ".join(sorted(self.off))
        return "; ".join(filter(None, (f"fired: {fired}" if fired else "",
                                       f"off: {off}" if off else "")))


def describe(names: Sequence[str] = NAMES) -> str:
    """One line per assist, for help texts."""
    return "\n".join(f"{info.name}: {info.does}" for info in ASSISTS if info.name in names)
