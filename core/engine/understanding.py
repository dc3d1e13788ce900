"""What a run holds of the request: its reading, taken once (``apply_reading``) and revised only
by the draft's witness (``witness_draft``) and by a plan that will not run the tools it names
(``release_tools``), and what the run may write because of it.

``EngineBase`` mixes this in; the reading reaches the tracker, the authoring stage and the
kept inputs from here, so no other module reads the request's words to decide what it asks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from core.engine.authoring.stage import AuthoringStage
from core.engine.execution.kept_inputs import KeptInputs
from core.engine.execution.offered import OfferedTools
from core.engine.reading import reading_of
from core.engine.summary import RunTally
from core.engine.verification.tracker import Tracker
from core.events import Event, Notice
from core.shapes.reading import Reading
from core.tools.base import RunState
from core.tools.snapshots import snapshot


class RequestHolder:
    """The request's reading and what follows from it, for an engine."""

    authoring: AuthoringStage | None
    tracker: Tracker
    tally: RunTally
    inputs: KeptInputs
    tools: OfferedTools
    run_state: RunState
    request: str
    reading: Reading
    changes_forbidden: str
    shown_paths: set[str]
    _language: str

    def emit(self, event: Event) -> None:
        raise NotImplementedError

    @property
    def language(self) -> str:
        """The person's language, once the engine knows it ("" reads as English)."""
        return self._language

    @language.setter
    def language(self, value: str) -> None:
        self._language = value
        if self.authoring is not None:
            self.authoring.language = value

    def write_refused(self, paths: set[str]) -> str:
        """The error for a call that writes ``paths`` when the request forbids changes or
        only reads one of them; "" when it may run."""
        if self.changes_forbidden and paths:
            return f"not run: {self.changes_forbidden}; no file is changed in this run"
        return self.inputs.refused(paths)

    def apply_reading(self, reading: Reading) -> None:
        """Take ``reading`` as what the request asks: the checks, the files kept as they are,
        whether changes are asked or forbidden. The one place the reading enters the run."""
        self.reading = reading
        self.tracker.examples = reading.examples
        self.tracker.renames = reading.renames
        self.tracker.to_write = reading.create
        self.tracker.in_question = reading.named or reading.targets()
        self.tracker.declared = reading.declared
        if self.authoring is not None:
            self.authoring.reading = reading
            self.authoring.examples = reading.examples
        self.tally.changes_requested = bool(reading.asks_change)
        self.changes_forbidden = (f"the request says not to change any file "
                                  f"(\"{reading.quote('forbid', '*')}\")"
                                  if reading.forbids_all else "")
        self.inputs.keep(reading)
        if reading.dropped:
            self.emit(Notice(level="info", stage="request_analyser", message=(
                "Left out of the reading of the request, as the request and the workspace do "
                "not bear them out: " + "; ".join(reading.dropped[:8]) + ".")))

    def release_tools(self, names: tuple[str, ...]) -> None:
        """Stop holding writes for the tools ``names`` that the reading says the request needs
        first (the plan would not run them): the reading keeps its other tools."""
        self.reading = replace(self.reading, tools=tuple(
            name for name in self.reading.tools if name not in names))
        if self.authoring is not None:
            self.authoring.reading = self.reading

    async def read_request(self, raw: dict[str, Any], requirements: list[tuple[str, str]]
                           ) -> Reading:
        """The checked reading of the request from the model's ``raw`` reading ({}: none)."""
        return await reading_of(self.run_state.workspace, self.request, raw, requirements,
                                frozenset(self.tools.offered_names()))

    def witness_draft(self, wrote: bool) -> None:
        """The draft's reply decides what the request is: file blocks make it a change, prose
        an answer, whatever the reading said (not when changes are forbidden)."""
        if not wrote and self.authoring is not None and self.authoring.drafted is not None:
            self.tally.draft_answer = self.authoring.drafted.answer
        if self.changes_forbidden or wrote == self.tally.changes_requested:
            return
        self.tally.changes_requested = wrote
        self.emit(Notice(level="info", stage="draft", message=(
            "The draft " + ("wrote files, so the run treats the request as a change."
                            if wrote else "answered in words and wrote no file, so the run "
                            "treats the request as a question."))))

    @property
    def writes_wanted(self) -> bool:
        """Whether the request asks for files to change and does not forbid it."""
        return self.tally.changes_requested and not self.changes_forbidden

    def read_texts(self) -> dict[str, str]:
        """The text of every file whose content the run showed the model (a prompt carried it
        or a task read it), as it is now (reads the workspace: run it in a thread)."""
        paths = set(self.shown_paths)
        if self.authoring is not None and self.authoring.listing is not None:
            paths.update(self.authoring.listing.paths)
        paths.update(str(t.arguments.get("path", "")) for r in self.tally.records
                     for t in r.phase.tasks if t.tool == "read_file" and t.status == "done")
        texts = snapshot(self.run_state.workspace, {p for p in paths if p})
        return {path: text for path, text in texts.items() if text is not None}
