"""The sandbox settings: declared once, checked, saved, given as headless flags, and handed to
the run's tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import appdirs, config
from core.cli.headless import build_parser, resolve_settings
from core.config import Settings
from core.engine.build import create_engine
from core.llm.scripted import ScriptedModel


def test_commands_are_sandboxed_without_network_by_default() -> None:
    assert (Settings().command_sandbox, Settings().command_network) == ("auto", False)


def test_an_unknown_sandbox_mode_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="Command sandbox: must be one of auto, off"):
        config.from_mapping({"command_sandbox": "on"})


def test_the_settings_are_saved_and_loaded(isolated_home: Path) -> None:
    config.save(Settings(command_sandbox="off", command_network=True))
    written = json.loads(appdirs.config_path().read_text())
    assert (written["command_sandbox"], written["command_network"]) == ("off", True)
    assert config.load()[0] == Settings(command_sandbox="off", command_network=True)


@pytest.mark.parametrize("flags, expected", [
    ([], ("auto", False)),
    (["--command-sandbox", "off"], ("off", False)),
    (["--command-network"], ("auto", True)),
    (["--command-sandbox", "auto", "--no-command-network"], ("auto", False)),
])
def test_headless_flags(isolated_home: Path, flags: list[str],
                        expected: tuple[str, bool]) -> None:
    config.save(Settings(command_network=True) if "--no-command-network" in flags
                else Settings())
    settings = resolve_settings(build_parser().parse_args(["--headless", *flags, "go"]))
    assert (settings.command_sandbox, settings.command_network) == expected


def test_a_bad_flag_value_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["--headless", "--command-sandbox", "maybe", "go"])
    assert exited.value.code == 2
    assert "invalid choice: 'maybe'" in capsys.readouterr().err


def test_the_run_hands_them_to_the_tools(tmp_path: Path) -> None:
    engine = create_engine(Settings(command_sandbox="off", command_network=True), tmp_path,
                           model=ScriptedModel([]))
    assert (engine.run_state.command_sandbox, engine.run_state.command_network) == ("off", True)
