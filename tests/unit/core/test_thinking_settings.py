"""The thinking-model settings: declared once, flags generated, key in the secret store."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from core import appdirs, config
from core.cli.headless import build_parser, resolve_settings
from core.config import Settings
from core.engine.stages.roles import ModelRoles
from core.llm.factory import make_thinking_model
from core.llm.scripted import ScriptedModel


def test_the_thinking_key_goes_to_the_secret_store_never_the_file(isolated_home: Path) -> None:
    saved = Settings(base_url="http://127.0.0.1:9/v1", api_key="sk-main-000000000000000000",
                     thinking_base_url="http://127.0.0.1:8/v1", thinking_model="judge",
                     thinking_api_key="sk-think-11111111111111111")
    config.save(saved)
    text = appdirs.config_path().read_text()
    written = json.loads(text)
    assert written["thinking_base_url"] == "http://127.0.0.1:8/v1"
    assert written["thinking_model"] == "judge"
    assert "thinking_api_key" not in written and "sk-think" not in text and "sk-main" not in text
    key_file = appdirs.app_home()[0] / "thinking_api_key"
    assert key_file.read_text() == "sk-think-11111111111111111"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert (appdirs.app_home()[0] / "api_key").read_text() == "sk-main-000000000000000000"
    loaded, problems = config.load()
    assert problems == [] and loaded == saved

    config.save(Settings(thinking_base_url="http://127.0.0.1:8/v1"))  # the key cleared
    assert not key_file.exists()
    assert config.load()[0].thinking_api_key == ""


def test_a_thinking_base_url_must_be_http() -> None:
    with pytest.raises(ValueError, match="Thinking base URL: must start with http"):
        config.from_mapping({"thinking_base_url": "ftp://example.com"})


def test_headless_has_a_flag_for_each_thinking_setting(isolated_home: Path) -> None:
    args = build_parser().parse_args([
        "--headless", "--thinking-base-url", "http://127.0.0.1:7/v1",
        "--thinking-model", "judge", "--thinking-api-key", "sk-flag-22222222222222222", "go"])
    resolved = resolve_settings(args)
    assert (resolved.thinking_base_url, resolved.thinking_model, resolved.thinking_api_key) == \
        ("http://127.0.0.1:7/v1", "judge", "sk-flag-22222222222222222")


def test_no_thinking_fields_means_no_thinking_model() -> None:
    assert make_thinking_model(Settings(base_url="http://127.0.0.1:9/v1", model="m")) is None


def test_a_thinking_model_name_alone_needs_an_endpoint_when_the_main_model_is_offline() -> None:
    with pytest.raises(ValueError, match="set its base URL too"):
        make_thinking_model(Settings(provider="embedded", thinking_model="judge"))


def test_only_the_thinking_stages_go_to_the_thinking_model() -> None:
    main, thinking = ScriptedModel([], name="small"), ScriptedModel([], name="big")
    roles = ModelRoles(main, thinking)
    stages = ["request_analyser", "phase_planner", "plan", "judge", "think", "classic",
              "summarizer"]
    assert [roles.for_stage(s).name for s in stages] == \
        ["big", "big", "small", "big", "small", "small", "big"]
    assert [roles.label(s) for s in ("plan", "judge")] == ["small", "big (thinking)"]
    alone = ModelRoles(main)
    assert {alone.for_stage(s).name for s in stages} == {"small"}
    assert alone.failure("judge", "it broke") == "it broke"
    assert roles.failure("judge", "it broke") == "the thinking model (big): it broke"
    assert roles.failure("plan", "it broke") == "the main model (small): it broke"
