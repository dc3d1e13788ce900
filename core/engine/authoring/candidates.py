"""Candidates for a file whose first version fails a check the engine can run: several more
samples of the same prompt at a higher temperature, each checked as the first was, and the
one the checks prefer.

The checks are the engine's own (``evidence``): whether the file parses, the workspace's tests,
the request's examples, a test command. A candidate is eligible only when it parses and fails
no check the first version passed; of those, the one that passes the most checks is kept, and
only when it passes more than the first (any that parses, when the first does not): the first
version wins a tie, then the earlier candidate. The
samples go out together, up to the endpoint's parallel capacity; Stop cancels those still out.
"""

from __future__ import annotations

import asyncio
import difflib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from core.engine.authoring.draft import reply_tokens
from core.engine.authoring.draft_reply import drafted_files
from core.engine.authoring.evidence import Evidence
from core.engine.authoring.records import Candidate, FileRecord
from core.engine.authoring.replies import author_tokens, search_replace, whole_file
from core.llm.base import Message
from core.shapes.reading import Reading
from core.tools.text_files import Listing


class Called(Protocol):
    text: str
    problem: str


class Sampler(Protocol):
    """What candidates need of the authoring stage."""

    candidates: int
    temperature: float
    parallel: int
    draft_messages: list[Message]
    listing: Listing | None
    reading: Reading
    workspace: Path

    @property
    def exhausted(self) -> bool: ...

    async def ask_plain(self, messages: list[Message], limit: int, detail: str,
                        temperature: float) -> Called: ...

    async def evidence(self, rel: str, content: str, original: str | None) -> Evidence: ...


@dataclass(frozen=True)
class Tried:
    """One version of the file: where it came from ("draft", "candidate 2"), its content (None
    when the sample gave none, ``problem`` says why) and what the checks found."""

    source: str
    content: str | None
    evidence: Evidence | None = None
    problem: str = ""

    def counts(self) -> tuple[int, int]:
        """(checks passed, checks run): the tests' and the examples' that ran."""
        if self.evidence is None or not self.evidence.parses:
            return 0, 0
        runs = [run for run in (self.evidence.ran_tests, self.evidence.ran_examples) if run]
        return sum(r.passed for r in runs), sum(r.passed + r.failed for r in runs)

    def line(self, kept: bool, breaks: bool = False) -> str:
        """"candidate 2: passes 3 of 3 checks (kept)"; ``breaks``: it fails a check the first
        version passed."""
        if self.content is None:
            return f"{self.source}: no file ({self.problem})"
        if self.evidence is None or not self.evidence.parses:
            return f"{self.source}: does not parse"
        passed, total = self.counts()
        return (f"{self.source}: passes {passed} of {total} checks"
                + (", fails one the first version passed" if breaks else "")
                + (" (kept)" if kept else ""))


def tried_card(tried: Tried, kept: bool, before: str | None, path: str,
               first: Tried | None = None) -> dict[str, object]:
    """One version of the file at ``path`` as the task card lists it: its line (saying when it
    fails a check ``first`` passed), counts and diff from the file as it was."""
    passed, total = tried.counts()
    breaks = first is not None and tried is not first and tried.evidence is not None \
        and first.evidence is not None and tried.evidence.parses \
        and not failed_checks(tried.evidence) <= failed_checks(first.evidence)
    diff = ""
    if tried.content is not None:
        diff = "".join(difflib.unified_diff((before or "").splitlines(keepends=True),
                                            tried.content.splitlines(keepends=True),
                                            "before", tried.source))
    return {"source": tried.source, "path": path, "line": tried.line(kept, breaks),
            "passed": passed,
            "total": total, "kept": kept, "diff": diff[:20_000]}


def tried_line(tried: tuple[dict[str, object], ...]) -> str:
    """"4 candidates tried: candidate 2 passes 3 of 3 checks (kept); draft: passes 1 of 3"."""
    others = [t for t in tried if t.get("source") != tried[0].get("source")]
    return (f"{len(others)} candidate{'s' if len(others) != 1 else ''} tried: "
            + "; ".join(str(t["line"]) for t in [*others, tried[0]]))


def failed_checks(evidence: Evidence) -> set[str]:
    """The checks ``evidence`` fails, each named so that two versions can be compared."""
    failed: set[str] = set()
    tests, examples = evidence.ran_tests, evidence.ran_examples
    if tests and tests.failed:
        named = {f.split(" - ", 1)[0] for f in tests.failures}
        failed |= {f"test {name}" for name in named}
        if len(named) < tests.failed:
            failed.add(f"tests: {tests.failed} failing")
    if examples and examples.failed:
        failed |= {f"example {f.split(': the request says', 1)[0]}" for f in examples.failures}
    return failed


def runs_checks(evidence: Evidence) -> bool:
    """Whether a check the candidates can be weighed by ran on this version and failed, or the
    version does not even parse (a candidate that parses is better)."""
    tests, examples = evidence.ran_tests, evidence.ran_examples
    return not evidence.parses or bool(tests and tests.failed) \
        or bool(examples and examples.failed)


def best_of(first: Tried, tried: list[Tried]) -> Tried:
    """The version to keep (see the module's docstring); a first version that does not parse
    passes no check, so any candidate that parses beats it."""
    assert first.evidence is not None
    parses = first.evidence.parses
    broken_before = failed_checks(first.evidence)
    best = first
    for candidate in tried:
        evidence = candidate.evidence
        if candidate.content is None or evidence is None or not evidence.parses:
            continue
        if parses and not failed_checks(evidence) <= broken_before:
            continue  # it breaks a check the first version passed
        if best is first and not parses or candidate.counts()[0] > best.counts()[0]:
            best = candidate  # a tie keeps the earlier
    return best


async def sample(count: int, parallel: int, ask: Callable[[int], Awaitable[Tried]]) -> list[Tried]:
    """``count`` candidates, ``ask(n)`` for n = 1…count, at most ``parallel`` at a time, in
    order; a cancel (Stop), or one that raises (the run ends), cancels those still out, and
    they are finished before this returns or raises."""
    gate = asyncio.Semaphore(max(1, parallel))

    async def one(number: int) -> Tried:
        async with gate:
            return await ask(number)

    tasks = [asyncio.ensure_future(one(n)) for n in range(1, count + 1)]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def sampled(stage: Sampler, first: Candidate, record: FileRecord,
              messages: list[Message], edits: bool) -> Candidate:
    """``first`` or the best of ``stage.candidates`` more samples of its prompt (the
    one-shot prompt when ``messages`` is empty) at ``stage.temperature``, ``stage.parallel``
    at a time."""
    rel, old, count = first.path, first.before, stage.candidates
    oneshot = not messages
    prompt = stage.draft_messages if oneshot else _prompt(messages)
    limit = reply_tokens(stage.listing) if oneshot and stage.listing else \
        author_tokens(old, edits)

    async def ask(number: int) -> Tried:
        name = f"candidate {number}"
        if stage.exhausted:
            return Tried(name, None, problem="the iteration budget is spent")
        called = await stage.ask_plain(prompt, limit, f"{rel} · candidate {number} of {count}",
                                  stage.temperature)
        content = None if called.problem else _sample_file(stage, called.text, rel, old,
                                                           edits, oneshot)
        if content is None:
            return Tried(name, None, problem=called.problem or "the reply holds no file")
        return Tried(name, content, await stage.evidence(rel, content, record.original))

    tried = await sample(count, stage.parallel, ask)
    own = Tried(first.source, first.content, first.evidence)
    chosen = best_of(own, tried)
    listed = tuple(tried_card(t, t is chosen, old, rel, own) for t in [own, *tried])
    if chosen is own or chosen.content is None or chosen.evidence is None:
        return replace(first, tried=listed)
    return Candidate(rel, chosen.content, "", old, "candidate", False, chosen.evidence,
                     (f"{chosen.source} of {count} passes more checks than the first "
                      "version and fails none it passed",), tried=listed)


def _sample_file(stage: Sampler, text: str, rel: str, old: str | None, edits: bool,
                 oneshot: bool) -> str | None:
    """The content of ``rel`` a sampled reply gives (None when it gives none)."""
    if oneshot and stage.listing is not None:
        targets = list(stage.reading.targets()) or [rel]
        return drafted_files(text, stage.workspace, stage.listing, rel, targets).files.get(rel)
    authored = search_replace(text, old or "") if edits else whole_file(text, rel)
    return authored.content


def _prompt(messages: list[Message]) -> list[Message]:
    """``messages`` without the model's reply at their end."""
    return messages[:-1] if messages and messages[-1].get("role") == "assistant" else messages
