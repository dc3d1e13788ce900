"""Choosing the offline model's file: GGUF header metadata, the ``gguf`` setting (a path or an
installed model's name), the context it gets, and the thread count."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from core import config
from core.appdirs import models_dir
from core.llm.base import ModelError
from core.llm.embedded import EmbeddedModel
from core.llm.embedded_load import model_path, offline_model, thread_count
from core.llm.factory import make_model
from core.llm.gguf_info import read_info


def _string(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def write_gguf(path: Path, context: int, name: str = "Tiny Test Model") -> Path:
    """A GGUF header as llama.cpp writes one: scalars, strings and arrays (the vocabulary)."""
    items = [
        (_string("general.architecture"), 8, _string("llama")),
        (_string("general.name"), 8, _string(name)),
        (_string("llama.context_length"), 4, struct.pack("<I", context)),
        (_string("llama.rope.freq_base"), 6, struct.pack("<f", 10000.0)),
        (_string("tokenizer.ggml.tokens"), 9,
         struct.pack("<IQ", 8, 3) + _string("a") + _string("bb") + _string("<|im_end|>")),
        (_string("tokenizer.ggml.scores"), 9, struct.pack("<IQ", 6, 3) + b"\0" * 12),
        (_string("general.file_type"), 10, struct.pack("<Q", 15)),
    ]
    body = b"".join(key + struct.pack("<I", kind) + value for key, kind, value in items)
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(items)) + body + b"\0" * 64)
    return path


def test_the_header_gives_name_and_training_context(tmp_path: Path) -> None:
    info = read_info(write_gguf(tmp_path / "tiny.gguf", 131072))
    assert info.name == "Tiny Test Model" and info.context_length == 131072
    assert info.metadata["general.file_type"] == 15
    assert "tokenizer.ggml.tokens" not in info.metadata  # arrays are skipped


def test_the_bundled_model_says_it_was_trained_for_8192_tokens() -> None:
    info = read_info(model_path())
    assert info.context_length == 8192 and "135M" in info.name


@pytest.mark.parametrize("damage", ["magic", "truncated", "empty"])
def test_a_damaged_file_is_a_clear_model_error(tmp_path: Path, damage: str) -> None:
    path = write_gguf(tmp_path / "x.gguf", 4096)
    raw = path.read_bytes()
    path.write_bytes({"magic": b"GGML" + raw[4:], "truncated": raw[:60], "empty": b""}[damage])
    with pytest.raises(ModelError, match="not a GGUF model file|ends early"):
        read_info(path)


def test_the_context_is_the_files_at_most_the_setting(tmp_path: Path) -> None:
    big = str(write_gguf(tmp_path / "big.gguf", 131072))
    small = str(write_gguf(tmp_path / "small.gguf", 4096))
    assert EmbeddedModel(choice=big).context_window == 32768
    assert EmbeddedModel(choice=big, max_context=16384).context_window == 16384
    assert EmbeddedModel(choice=small).context_window == 4096
    assert EmbeddedModel().context_window == 8192  # the bundled SmolLM2
    assert EmbeddedModel(choice=small).name == "Tiny Test Model (offline)"


def test_the_gguf_setting_picks_a_path_or_an_installed_model(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own = write_gguf(tmp_path / "mine.gguf", 2048)
    installed = write_gguf(models_dir() / "coder-1b.gguf", 32768, "Coder 1B")
    monkeypatch.setenv("PHASEDESK_GGUF", str(own))
    assert model_path() == own  # no setting: the environment
    assert model_path("coder-1b") == installed  # the setting wins
    assert model_path(str(own)) == own
    settings = config.from_mapping({"provider": "embedded", "gguf": "coder-1b"})
    model = make_model(settings)
    assert model.name == "Coder 1B (offline)" and model.provider == "embedded"


def test_a_missing_model_names_the_installed_ones_and_how_to_install(tmp_path: Path) -> None:
    write_gguf(models_dir() / "coder-1b.gguf", 4096)
    with pytest.raises(ModelError) as raised:
        model_path("qwen-huge")
    assert "'qwen-huge' does not exist" in raised.value.message
    assert "installed models: coder-1b" in raised.value.message
    assert "setup.sh --model qwen2.5-coder-1.5b" in raised.value.message
    missing = EmbeddedModel(choice=str(tmp_path / "gone.gguf"))
    assert missing.name == "embedded model (offline)" and missing.context_window == 8192


def test_a_path_with_a_line_break_is_refused_by_the_setting() -> None:
    with pytest.raises(ValueError, match="Offline model file: a file path cannot hold"):
        config.from_mapping({"gguf": "a.gguf\nrm -rf /"})


def test_threads_use_the_free_cores_and_never_fewer_than_one() -> None:
    cores = len(os.sched_getaffinity(0))
    assert 1 <= thread_count() <= cores


def test_the_installed_coder_model_is_the_default_and_the_header_names_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PHASEDESK_GGUF", raising=False)
    bundled = model_path()
    assert bundled.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert offline_model() == (read_info(bundled).name, True)  # only the demo model
    coder = write_gguf(models_dir() / "qwen2.5-coder-1.5b.gguf", 32768,
                       "Qwen2.5 Coder 1.5B Instruct GGUF")
    assert model_path() == coder  # installed: used when nothing else is chosen
    assert offline_model() == ("Qwen2.5 Coder 1.5B Instruct", False)
    assert offline_model(str(bundled)) == (read_info(bundled).name, True)  # chosen explicitly
