"""A run named by any start of its id, as git names a commit: on a real history file."""

from __future__ import annotations

import itertools
import uuid
from types import SimpleNamespace

import pytest

from core.store import history
from core.store.history import Store
from core.store.run_ids import SHOWN_MATCHES, RunIdError

IDS = ["fca1e85b-0000-4000-8000-000000000001", "fca1e85b-0000-4000-8000-000000000002",
       "fca1ffff-0000-4000-8000-000000000003", "0b1c2d3e-0000-4000-8000-000000000004"]


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Four runs in the history file, recorded in the order of ``IDS``, with those ids."""
    fixed = iter(IDS)
    monkeypatch.setattr(history, "uuid", SimpleNamespace(uuid4=lambda: next(fixed)))
    with Store() as store:
        conversation = store.create_conversation("ids")
        for number, _ in enumerate(IDS):
            store.start_run(conversation, f"request number {number}", "phase", "scripted",
                            "script", {})
    return IDS


def test_a_full_id_a_unique_start_and_any_case_name_their_run(runs: list[str]) -> None:
    with Store() as store:  # a fresh connection to the file the runs were written to
        assert store.resolve_run_id(runs[0]) == runs[0]
        assert store.resolve_run_id("fca1f") == runs[2]
        assert store.resolve_run_id("  0B1C2D3E ") == runs[3]
        assert store.resolve_run_id("fca1e85b-0000-4000-8000-000000000002") == runs[1]


def test_a_shared_start_is_refused_with_every_run_it_matches(runs: list[str]) -> None:
    with Store() as store:
        with pytest.raises(RunIdError) as short:
            store.resolve_run_id("fca1e85b")
        with pytest.raises(RunIdError) as shorter:
            store.resolve_run_id("FCA")
    assert [run["id"] for run in short.value.matches] == [runs[1], runs[0]]  # newest first
    assert [run["request"] for run in short.value.matches] == [
        "request number 1", "request number 0"]
    assert short.value.message == "the run id 'fca1e85b' is ambiguous: 2 runs start with it"
    assert [run["id"] for run in shorter.value.matches] == [runs[2], runs[1], runs[0]]
    assert not shorter.value.more


@pytest.mark.parametrize("text, message", [
    ("fca1e85c", "no recorded run has an id starting with 'fca1e85c'"),
    ("", "the run id is empty"),
    ("   ", "the run id is empty"),
    ("%", "no recorded run has an id starting with '%'"),  # no LIKE pattern: literal text
])
def test_an_unknown_or_empty_id_names_no_run(runs: list[str], text: str, message: str) -> None:
    with Store() as store, pytest.raises(RunIdError) as refused:
        store.resolve_run_id(text)
    assert refused.value.message == message and refused.value.matches == []


def test_many_matches_are_cut_and_say_there_are_more(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = itertools.count()
    monkeypatch.setattr(history, "uuid", SimpleNamespace(
        uuid4=lambda: str(uuid.UUID(int=next(counter))).replace("00000000", "abcd0000", 1)))
    with Store() as store:
        conversation = store.create_conversation("many")
        made = [store.start_run(conversation, "r", "phase", "scripted", "script", {})
                for _ in range(SHOWN_MATCHES + 2)]
        with pytest.raises(RunIdError) as refused:
            store.resolve_run_id("abcd")
    assert len(refused.value.matches) == SHOWN_MATCHES and refused.value.more
    assert refused.value.message == (f"the run id 'abcd' is ambiguous: more than "
                                     f"{SHOWN_MATCHES} runs start with it")
    assert {run["id"] for run in refused.value.matches} <= set(made)
