"""The tool catalogue of the phase engine's system prompt: one short line per tool."""

from __future__ import annotations

from pathlib import Path

from core.config import Settings
from core.engine.stages.instructions import first_sentence, tool_catalogue
from core.engine.build import create_engine
from core.llm.scripted import ScriptedModel


def test_a_description_is_cut_after_its_first_sentence() -> None:
    assert first_sentence("Read a text file with numbered lines. Output is cut at 64 KiB.") \
        == "Read a text file with numbered lines."
    assert first_sentence("List files; names end with '/'. .git is skipped.") \
        == "List files; names end with '/'."
    assert first_sentence("Search, e.g. for a name. Prints matches.") == "Search, e.g. for a name."
    assert first_sentence("Version 1.2 is here\nSecond line.") == "Version 1.2 is here"
    assert first_sentence("No full stop at all") == "No full stop at all"


def test_the_catalogue_lists_every_offered_tool_with_its_parameters(tmp_path: Path) -> None:
    engine = create_engine(Settings(), tmp_path, model=ScriptedModel([]))
    lines = tool_catalogue(engine.tools.schemas()).splitlines()
    assert [line.split("(")[0] for line in lines] == [
        "- list_files", "- read_file", "- search_code", "- write_file", "- run_command"]
    read = next(line for line in lines if line.startswith("- read_file"))
    assert read == ("- read_file(path: string, start_line?: integer, end_line?: integer) — "
                    "Read a text file with numbered lines.")
    write = next(line for line in lines if line.startswith("- write_file"))
    assert write.startswith("- write_file(path: string, instruction: string) — Create a file")
    assert all(len(line) < 180 for line in lines)
