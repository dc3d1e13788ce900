"""The scenarios of ``bench_engines``: the same tool work for both engines, and its workspace.

A scenario is a list of phases, each a list of rounds, each a list of tool calls (with
dependencies inside a round). Writes are authored as the engines do them: ``write_file``
with a path and an instruction, the new content coming from a separate authoring call
whose reply (the file in a fenced block, named by its path) the scenario gives; a write in
``failing`` gets a reply without a block, so the task fails. A write's reply is what the
instruction asks for (an edit keeps the rest of the file), so the engine's own checks of a
write find nothing against it. The first write's reply is also the run's one-shot draft
(``engine_scripts``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.engine.phase.engine_verdict import draft_writes
from core.engine.stages.reading_schema import raw_reading

Call = tuple[str, dict[str, Any], list[int]]
Key = tuple[int, int, int]  # (phase, round, task), counted from 1
BENCH_REQUEST = "bench request: do the work described"
MODULES = 8
APP = "VERSION = 1\n" + "def f():\n    return 1\n" * 40
UTIL = "def util():\n    return 'u'\n" * 40
# the instruction of a write the phase engine plans itself from the draft (no Plan call)
DRAFT_INSTRUCTION = draft_writes(["report.md"])[0].arguments["instruction"]


@dataclass
class Scenario:
    name: str
    rounds: list[list[list[Call]]]  # phases → rounds → calls
    failing: frozenset[Key] = frozenset()  # writes whose authoring reply holds no file
    request: str = BENCH_REQUEST
    # each requirement with the words of the request it comes from
    requirements: tuple[tuple[str, str], ...] = (("The work described is done.",
                                                  "do the work described"),)
    contents: dict[str, str] = field(default_factory=dict)  # path → what the author writes
    workspace: Callable[[Path], None] = lambda root: make_workspace(root)
    # the analysis's reading of the request (its kind and files), as the model gives it
    reading: dict[str, Any] = field(default_factory=lambda: reading_of("question"))

    @property
    def changes_requested(self) -> bool:
        """Whether the request asks for files to change (as the analysis reads it)."""
        return raw_reading(self.reading).get("kind") in ("change", "both")

    def targets(self) -> list[str]:
        """The files the request's reading says to change or create."""
        return [f["path"] for f in self.reading.get("files", [])
                if f["role"] in ("change", "create")]

    def named_files(self) -> list[str]:
        """The workspace files the request's reading says to change."""
        with tempfile.TemporaryDirectory() as folder:
            self.workspace(Path(folder))
            return [f["path"] for f in self.reading.get("files", [])
                    if f["role"] == "change" and (Path(folder) / f["path"]).is_file()]

    def calls(self) -> list[tuple[Key, Call]]:
        return [((p, r, t), call) for p, phase in enumerate(self.rounds, start=1)
                for r, calls in enumerate(phase, start=1)
                for t, call in enumerate(calls, start=1)]


def reading_of(kind: str, files: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """The reading fields of an analysis reply, every one the schema offers (the full model
    fills them all): ``kind`` and ``files``, no examples, renames or tools."""
    return {"kind": kind, "files": files or [], "examples": [], "renames": [], "tools": []}


def read(path: str, deps: list[int] | None = None) -> Call:
    return ("read_file", {"path": path}, deps or [])


def write(path: str, instruction: str, deps: list[int] | None = None) -> Call:
    return ("write_file", {"path": path, "instruction": instruction}, deps or [])


def authored_reply(s: Scenario, key: Key, call: Call) -> dict[str, Any]:
    """The authoring call's reply for the write ``call``: the file in a fenced block (as a
    model writes it: a line before, the file's name, the block), or, for a failing write,
    a reply without one."""
    path = call[1]["path"]
    if key in s.failing:
        return {"text": f"I would change {path}, but I need to see more of the project first."}
    content = s.contents.get(path) or default_content(path, call[1]["instruction"])
    language = "python" if path.endswith(".py") else "markdown"
    return {"text": f"Here is the new file:\n\n{path}\n```{language}\n{content}```\n"}


def default_content(path: str, instruction: str) -> str:
    if path.endswith(".py"):
        return f'"""{instruction}"""\n\nVERSION = 3\n\n\ndef helper():\n    return VERSION\n'
    return f"# {path}\n\n{instruction}\n"


def report(modules: int) -> str:
    """A report of realistic length on ``modules`` modules (what the author writes)."""
    lines = ["# Report on the pipeline modules", "",
             "The modules form a small text pipeline: each stage takes the previous stage's "
             "output, validates it and hands on a normalised value.", "", "## Modules", ""]
    for n in range(1, modules + 1):
        lines.append(f"- `src/pkg/mod{n}.py`: stage {n}; `parse_{n}` splits the input on "
                     f"commas, `score_{n}` weighs each field by {n}, and `Stage{n}.run` "
                     "chains the two, raising `ValueError` on an empty field.")
    lines += ["", "## How they fit together", "",
              "Every stage exposes the same three names, so the pipeline can call them in "
              "order without knowing which stage it holds. Errors surface as `ValueError` "
              "with the stage number in the message.", "", "## Risks", "",
              "- No stage has tests in the workspace.",
              "- The weights are hard-coded; a change needs a new release.", ""]
    return "\n".join(lines)


def scenarios() -> list[Scenario]:
    bump = write("src/app.py", "Set VERSION to 2 and keep the rest of the file as it is.", [1])
    broken = write("src/util.py", "Add a function helper() that returns the VERSION of "
                                  "src/app.py.")
    fixed = write("src/util.py", "Add a function helper() returning 3 below the existing "
                                 "util() functions; keep them unchanged.")
    pair = [f"src/pkg/mod{n}.py" for n in (1, 2)]
    every = [f"src/pkg/mod{n}.py" for n in range(1, MODULES + 1)]
    return [
        Scenario("1-phase simple", [[[("list_files", {}, []), read("README.md")]]]),
        Scenario("3-phase with a failure", [
            [[read("src/app.py"), read("src/util.py"), read("README.md")]],
            [[read("src/app.py"), bump, broken], [fixed]],
            [[write("CHANGES.md", "Record the release: VERSION 2, helper() added.")]],
        ], failing=frozenset({(2, 1, 3)}), contents={
            "src/app.py": APP.replace("VERSION = 1", "VERSION = 2"),
            "src/util.py": UTIL + "\n\ndef helper():\n    return 3\n"}),
        Scenario("long 5-phase", [
            [[read(f"src/mod{p}{r}{i}.py") for i in range(3)] for r in range(2)]
            for p in range(5)]),
        Scenario("file-heavy", [
            [[read("data/big1.txt"), read("data/big2.txt"), read("data/big3.txt")],
             [read("data/big4.txt"), ("search_code", {"pattern": "needle"}, [])]],
            [[read("data/big5.txt"), write("notes.md", "Note where 'needle' occurs in data/.")]],
        ]),
        # The write ends it.
        Scenario("search then edit chain", [
            [[("search_code", {"pattern": "VERSION"}, []), read("src/app.py", [1])]],
            [[write("src/app.py", "Set VERSION to 2; keep the rest unchanged.")]],
        ], contents={"src/app.py": APP.replace("VERSION = 1", "VERSION = 2")}),
        Scenario("commands", [
            [[("run_command", {"command": "echo build"}, []),
              ("run_command", {"command": "ls src"}, [])]],
            [[("run_command", {"command": "echo test"}, [])]],
        ]),
        two_and_report("read 2 files + report", pair),
        two_and_report("read 2, then report", pair, later=True),
        two_and_report("read 8 files + report", every),
    ]


def two_and_report(name: str, paths: list[str], later: bool = False) -> Scenario:
    """Read the modules, write a report on them to report.md: one round when the reads and
    the write fit in one plan (8 tasks) and the write is not ``later``, else the reads and
    then the write. The request asks for a change, so after the reads (nothing written yet,
    the last phase) the phase engine plans that write itself from the one-shot draft, with
    its own instruction (``DRAFT_INSTRUCTION``)."""
    count = len(paths)
    instruction = (f"Write a Markdown report on the {count} modules read: what each one "
                   "does, how they fit together, and the risks you see.")
    reads = [read(p) for p in paths]
    if count + 1 <= 8 and not later:
        rounds = [reads + [write("report.md", instruction, list(range(1, count + 1)))]]
    else:
        rounds = [reads, [write("report.md", DRAFT_INSTRUCTION)]]
    listed = " and ".join(paths) if count == 2 else f"the {count} modules in src/pkg/"
    kept = paths if count == 2 else ["src/pkg"]  # a folder read keeps every file under it
    return Scenario(name, [rounds], request=f"Read {listed} and write a report on them to "
                    "report.md: what each module does, how they fit together, and any risks.",
                    requirements=(("report.md exists and describes each module read",
                                   "write a report on them to report.md"),
                                  ("report.md explains how the modules fit together",
                                   "how they fit together"),
                                  ("report.md lists the risks found", "any risks")),
                    contents={"report.md": report(count)}, workspace=small_project,
                    reading=reading_of("change", [
                        {"path": "report.md", "role": "create", "quote": "report.md"},
                        *({"path": p, "role": "read", "quote": ""} for p in kept)]))


def make_workspace(root: Path) -> None:
    (root / "src").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "README.md").write_text("# bench\n" + "Some words about the project.\n" * 20)
    (root / "src" / "app.py").write_text(APP)
    (root / "src" / "util.py").write_text(UTIL)
    for p in range(5):
        for r in range(2):
            for i in range(3):
                (root / "src" / f"mod{p}{r}{i}.py").write_text(f"# module {p}{r}{i}\n" * 60)
    for n in range(1, 6):
        (root / "data" / f"big{n}.txt").write_text(f"line {n} with a needle maybe\n" * 1500)


def small_project(root: Path) -> None:
    """The workspace of the report scenarios: a small package, its README and a test."""
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "README.md").write_text("# pipeline\n\nA text pipeline in eight stages; see "
                                    "src/pkg/.\n")
    (root / "src" / "pkg" / "__init__.py").write_text('"""The pipeline stages."""\n')
    (root / "tests" / "test_stages.py").write_text(
        "from pkg.mod1 import parse_1\n\n\ndef test_parse():\n"
        "    assert parse_1('a, b') == ['a', 'b']\n")
    for n in range(1, MODULES + 1):
        (root / "src" / "pkg" / f"mod{n}.py").write_text(module(n))


def module(n: int) -> str:
    """A small module of realistic shape (about 1,500 characters)."""
    return f'''"""Stage {n} of the text pipeline: parse a line, score its fields."""

from __future__ import annotations

from dataclasses import dataclass

WEIGHT = {n}


def parse_{n}(line: str) -> list[str]:
    """The comma-separated fields of ``line``, stripped; an empty field is an error."""
    fields = [part.strip() for part in line.split(",")]
    if any(not field for field in fields):
        raise ValueError(f"stage {n}: empty field in {{line!r}}")
    return fields


def score_{n}(fields: list[str]) -> int:
    """The weighted length of the fields."""
    return sum(len(field) * WEIGHT for field in fields)


@dataclass
class Stage{n}:
    """Parses and scores lines, remembering the best score seen."""

    best: int = 0

    def run(self, line: str) -> int:
        score = score_{n}(parse_{n}(line))
        self.best = max(self.best, score)
        return score

    def reset(self) -> None:
        self.best = 0
'''
