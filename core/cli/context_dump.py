"""``--dump-context DIR``: every model call's messages and tools, one JSON file per call."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from core.engine.base import EngineBase
from core.llm.base import Message
from core.secrets import redact


def attach_dump(engine: EngineBase, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    counter = [0]

    def write(stage: str, messages: list[Message], tools: list[dict[str, Any]]) -> None:
        counter[0] += 1
        data = {"call": counter[0], "stage": stage, "messages": messages, "tools": tools}
        path = folder / f"{counter[0]:03d}-{stage}.json"
        path.write_text(redact(json.dumps(data, ensure_ascii=False, indent=2)), encoding="utf-8")

    engine.caller.observers.append(write)
