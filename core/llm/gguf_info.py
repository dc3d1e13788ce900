"""What a GGUF file says about itself, read from its header without loading the model.

Only the scalar metadata is kept (name, architecture, training context, …); arrays (the
tokenizer's vocabulary) are skipped. Reading stops at the end of the key-value section, so
this takes milliseconds even for a gigabyte file.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from core.llm.base import ModelError

MAGIC = b"GGUF"
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
            10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9
MAX_KEYS = 100_000


@dataclass(frozen=True)
class GgufInfo:
    path: Path
    metadata: dict[str, Any]

    @property
    def name(self) -> str:
        """The model's own name (``general.name``), else the file's name."""
        return str(self.metadata.get("general.name") or self.path.stem)

    @property
    def context_length(self) -> int | None:
        """The context the model was trained for (``<architecture>.context_length``)."""
        arch = self.metadata.get("general.architecture")
        value = self.metadata.get(f"{arch}.context_length")
        return int(value) if isinstance(value, int) and value > 0 else None


def read_info(path: Path) -> GgufInfo:
    """The header metadata of ``path``; ``ModelError`` when it is not a readable GGUF file."""
    try:
        with path.open("rb") as handle:
            if handle.read(4) != MAGIC:
                raise ModelError(f"{path} is not a GGUF model file")
            version, _tensors, count = struct.unpack("<IQQ", _exact(handle, 20))
            if version < 2 or count > MAX_KEYS:
                raise ModelError(f"{path}: unsupported GGUF header (version {version})")
            metadata: dict[str, Any] = {}
            for _ in range(count):
                key = _string(handle)
                kind = struct.unpack("<I", _exact(handle, 4))[0]
                value = _value(handle, kind)
                if value is not None:
                    metadata[key] = value
    except OSError as exc:
        raise ModelError(f"the model file could not be read: {exc}") from exc
    except (struct.error, UnicodeDecodeError) as exc:
        raise ModelError(f"{path}: damaged GGUF header ({exc})") from exc
    return GgufInfo(path, metadata)


def _exact(handle: BinaryIO, size: int) -> bytes:
    data = handle.read(size)
    if len(data) != size:
        raise ModelError(f"{handle.name}: the GGUF header ends early")
    return data


def _string(handle: BinaryIO) -> str:
    size = struct.unpack("<Q", _exact(handle, 8))[0]
    return _exact(handle, size).decode("utf-8")


def _value(handle: BinaryIO, kind: int) -> Any:
    """A scalar or string value; an array is skipped and read as ``None``."""
    if kind in _SCALARS:
        fmt = _SCALARS[kind]
        return struct.unpack(fmt, _exact(handle, struct.calcsize(fmt)))[0]
    if kind == _STRING:
        return _string(handle)
    if kind == _ARRAY:
        item, count = struct.unpack("<IQ", _exact(handle, 12))
        if item in _SCALARS:
            handle.seek(count * struct.calcsize(_SCALARS[item]), 1)
        else:
            for _ in range(count):
                _value(handle, item)
        return None
    raise ModelError(f"{handle.name}: unknown GGUF value type {kind}")
