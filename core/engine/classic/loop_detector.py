"""Loop detection for the classic engine (seed 003 ``detect_tool_call_loop``)."""

from __future__ import annotations

import json
from collections import deque
from typing import Any

LOOP_WINDOW = 6


class LoopDetector:
    """Notices a (tool, arguments) signature repeated within the last ``window`` calls.

    ``strikes`` counts detections: the engine warns the model at the first and ends the
    loop at the second.
    """

    def __init__(self, window: int = LOOP_WINDOW) -> None:
        self._recent: deque[str] = deque(maxlen=window)
        self.strikes = 0

    @staticmethod
    def signature(tool: str, arguments: dict[str, Any]) -> str:
        return f"{tool}:{json.dumps(arguments, sort_keys=True, ensure_ascii=False)}"

    def seen(self, tool: str, arguments: dict[str, Any]) -> bool:
        key = self.signature(tool, arguments)
        if key in self._recent:
            self.strikes += 1
            return True
        self._recent.append(key)
        return False
