"""The setting that switches helpers off: a removed helper's name is accepted and changes
nothing (a person's saved settings keep working), an unknown name is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import Settings
from core.engine.assists import NAMES, REMOVED, parse_off
from core.engine.build import create_engine


def test_a_removed_helper_is_dropped_and_a_known_one_kept() -> None:
    assert parse_off("computed_files, writes_after_reads,look_back") == ("computed_files",)
    assert not set(REMOVED) & set(NAMES)


def test_an_unknown_name_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown assist nope .known: computed_files, "
                                         "write_reminder"):
        parse_off("computed_files, nope")


def test_saved_settings_that_switch_off_a_removed_helper_still_run(tmp_path: Path) -> None:
    engine = create_engine(Settings(assists_off="writes_after_reads"), tmp_path)
    assert engine.assists.off == frozenset()
