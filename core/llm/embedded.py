"""The embedded offline model: a local GGUF file run in-process by llama.cpp.

By default the bundled SmolLM2-135M-Instruct; the ``gguf`` setting picks any other file
(``--gguf PATH`` or the name of a model installed into the data folder). The context is what
the file was trained for (its GGUF metadata, at most the ``context_window`` setting), layers go
to the GPU when the installed llama.cpp can offload, and each call uses the cores that are free.

Loading and inference run on one worker thread owned by the model, so the asyncio loop
(and the Qt window on it) never blocks; calls are served one at a time. Tool calls are
produced by constraining generation with a grammar built from a bounded copy of the
tool's parameter schema (see ``embedded_grammar``); the conversation, tool traffic
included, is rendered as plain chat turns (see ``embedded_prompt``); the gguf file is
found and loaded by ``embedded_load``. llama.cpp keeps the previous call's tokens in its KV
cache and evaluates only what follows the longest shared prefix, when that prefix is at least
half the prompt (else the whole prompt, so a greedy reply does not depend on the call before);
each reply's ``usage.cached_tokens`` says how many prompt tokens that saved.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from core.llm import embedded_grammar as grammar
from core.llm import embedded_prompt as prompt
from core.llm.base import NO_OPTIONS, CallOptions, Capabilities, Message, ModelError, Reply, ToolCall, \
    Usage
from core.llm.embedded_load import (
    INSTALL_HINT,
    Loaded,
    context_tokens,
    load_model,
    model_path,
    thread_count,
    use_threads,
)
from core.llm.gguf_info import GgufInfo, read_info

__all__ = ["INSTALL_HINT", "EmbeddedModel", "model_path"]

MAX_CONTEXT_TOKENS = 32768
TEXT_TOKENS = 512  # plain replies that do not say how long they may be
TOOL_TOKENS_CAP = 2048  # longest constrained reply
TEMPERATURE = 0.0  # the most likely reply: what code and stage answers want
SEED = 7  # the same conversation gets the same greedy reply, which makes runs reproducible
REPEAT_PENALTY = 1.1  # without it the model loops inside JSON strings ("1.1.1.1...")
TEXT_REPEAT_PENALTY = 1.0  # code repeats tokens (indentation, names) by nature
PROMPT_MARGIN_TOKENS = 32
# A sampled call draws from every token at least MIN_P as likely as the best (min-p), without
# llama.cpp's default nucleus (top_p 0.95, cut before the temperature: one token is left
# wherever the best holds 95% of the mass). In 7 of the 11 exercise runs whose Qwen retried a
# file, every sampled retry was byte-identical to the first reply. (A greedy call, at
# temperature 0, takes the best token whatever these say.)
TOP_P = 1.0
MIN_P = 0.05


class EmbeddedModel:
    """``ChatModel`` on a local gguf file; the file is loaded on the first call."""

    def __init__(self, path: Path | None = None, *, choice: str = "",
                 max_context: int = MAX_CONTEXT_TOKENS, n_threads: int | None = None,
                 tool_parameters: dict[str, dict[str, Any]] | None = None) -> None:
        """``path`` or ``choice`` (the ``gguf`` setting, see ``model_path``) names the file;
        neither is looked at before it is needed. ``n_threads`` fixes the thread count (else
        each call uses the free cores). ``tool_parameters`` (workspace tool name → parameter
        schema) lets a forced call whose schema picks a ``tool`` with free-form ``arguments``
        (a plan) constrain each task's arguments to that tool's parameters."""
        self._path = path
        self._choice = choice
        self._tool_parameters = dict(tool_parameters or {})
        self._max_context = max_context
        self._fixed_threads = n_threads
        self._info: GgufInfo | None = None
        self._loaded: Loaded | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._lock: asyncio.Lock | None = None
        self._lock_loop: asyncio.AbstractEventLoop | None = None
        self._ids = itertools.count(1)
        self._draws = itertools.count(1)  # sampled calls so far: each gets its own seed
        self._parsed: set[str] = set()
        self.load_seconds: float | None = None

    @property
    def name(self) -> str:
        """The model's own name from its file (``"embedded model"`` when there is none)."""
        try:
            return f"{self._file_info().name} (offline)"
        except ModelError:
            return "embedded model (offline)"

    @property
    def provider(self) -> str:
        return "embedded"

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(clarification_trusted=False)

    @property
    def context_window(self) -> int:
        """Tokens the model sees at once; longer conversations are cut to fit."""
        try:
            return context_tokens(self._file_info(), self._max_context)
        except ModelError:
            return context_tokens(GgufInfo(Path(), {}), self._max_context)

    def _file_info(self) -> GgufInfo:
        if self._info is None:
            self._info = read_info(self._path or model_path(self._choice))
        return self._info

    async def complete(self, messages: list[Message], tools: list[dict[str, Any]],
                       tool_choice: dict[str, Any] | str | None,
                       options: CallOptions = NO_OPTIONS) -> Reply:
        stop = threading.Event()
        loop = asyncio.get_running_loop()
        async with self._turn(loop):
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="embedded-model")
            try:
                return await loop.run_in_executor(self._executor, self._serve, messages, tools,
                                                  tool_choice, stop, options)
            except asyncio.CancelledError:
                stop.set()
                raise
            except ModelError:
                raise
            except Exception as exc:
                raise ModelError(f"the embedded model failed: {type(exc).__name__}: {exc}",
                                 retryable=False) from exc

    async def aclose(self) -> None:
        """Free the model; a later call loads it again."""
        loop = asyncio.get_running_loop()
        async with self._turn(loop):
            executor, self._executor = self._executor, None
            if executor is not None:
                await loop.run_in_executor(executor, self._unload)
                executor.shutdown(wait=False)

    async def clear_cache(self) -> None:
        """Forget the tokens kept from earlier calls: the next call evaluates its whole prompt
        (``bench/bench_embedded.py`` measures what the reuse saves)."""
        loop = asyncio.get_running_loop()
        async with self._turn(loop):
            if self._executor is not None and self._loaded is not None:
                await loop.run_in_executor(self._executor, self._loaded.llama.reset)

    def _turn(self, loop: asyncio.AbstractEventLoop) -> asyncio.Lock:
        if self._lock is None or (self._lock_loop is not loop and not self._lock.locked()):
            self._lock, self._lock_loop = asyncio.Lock(), loop
        return self._lock

    def _unload(self) -> None:
        if self._loaded is not None:
            self._loaded.llama.close()
            self._loaded = None

    def _load(self) -> Loaded:
        if self._loaded is None:
            path = self._path or model_path(self._choice)
            if not path.is_file():
                raise ModelError(f"{INSTALL_HINT} ({path} does not exist)")
            started = time.perf_counter()
            self._loaded = load_model(path, self.context_window, self._threads())
            self.load_seconds = time.perf_counter() - started
        return self._loaded

    def _threads(self) -> int:
        return self._fixed_threads or thread_count()

    def _serve(self, messages: list[Message], tools: list[dict[str, Any]],
               tool_choice: dict[str, Any] | str | None, stop: threading.Event,
               options: CallOptions = NO_OPTIONS) -> Reply:
        """Runs on the worker thread: one whole call, from loading to the mapped reply."""
        if stop.is_set():
            raise ModelError("the call was cancelled")
        loaded = self._load()
        turns = prompt.render_conversation(messages)
        offered = [t for t in tools or [] if t.get("function", t).get("name")]
        if isinstance(tool_choice, dict):
            return self._forced(loaded, turns, offered, tool_choice, stop)
        if tool_choice in ("auto", "required") and offered:
            return self._auto(loaded, turns, offered, tool_choice == "auto", stop)
        return self._text(loaded, turns, stop, options)

    def _forced(self, loaded: Loaded, turns: list[prompt.ChatTurn], tools: list[dict[str, Any]],
                tool_choice: dict[str, Any], stop: threading.Event) -> Reply:
        wanted = tool_choice.get("function", {}).get("name", "")
        tool = next((t for t in tools if t.get("function", t)["name"] == wanted), None)
        if tool is None:
            raise ModelError(f"tool_choice names {wanted!r}, which is not among the offered tools")
        function = tool.get("function", tool)
        parameters = function.get("parameters") or {"type": "object", "properties": {}}
        instruction = prompt.forced_instruction(tool, grammar.bound_schema(parameters))
        detailed, used = grammar.with_tool_arguments(parameters, self._tool_parameters)
        if used:
            instruction += "\n" + prompt.arguments_note(used, self._tool_parameters)
        schema = grammar.bound_schema(detailed)
        text, usage, finish = self._generate(loaded, turns, instruction, schema, stop)
        call = ToolCall(id=f"call_{next(self._ids)}", name=wanted, arguments=text.strip())
        return Reply(text=None, tool_calls=(call,), usage=usage,
                     finish_reason="tool_calls" if finish == "stop" else finish)

    def _auto(self, loaded: Loaded, turns: list[prompt.ChatTurn], tools: list[dict[str, Any]],
              allow_answer: bool, stop: threading.Event) -> Reply:
        schema = grammar.answer_or_tool_schema(tools, allow_answer)
        bounded = {t.get("function", t)["name"]: grammar.bound_schema(
            t.get("function", t).get("parameters") or {"type": "object", "properties": {}})
            for t in tools}
        standing = prompt.auto_instruction(tools, bounded, allow_answer)
        text, usage, finish = self._generate(loaded, turns, prompt.AUTO_REMINDER, schema, stop,
                                             standing)
        try:
            choice = json.loads(text)
        except ValueError as exc:
            raise ModelError(f"the embedded model's reply was cut off ({finish}): {exc}",
                             retryable=True) from exc
        if "tool" in choice:
            call = ToolCall(id=f"call_{next(self._ids)}", name=choice["tool"],
                            arguments=json.dumps(choice.get("arguments", {}), ensure_ascii=False))
            return Reply(text=None, tool_calls=(call,), usage=usage, finish_reason="tool_calls")
        return Reply(text=choice.get("answer", ""), usage=usage, finish_reason="stop")

    def _text(self, loaded: Loaded, turns: list[prompt.ChatTurn], stop: threading.Event,
              options: CallOptions) -> Reply:
        """A plain reply (no grammar): as long as ``options.max_tokens`` allows, at its
        temperature, without a repeat penalty."""
        sampling = Sampling(max_tokens=options.max_tokens or TEXT_TOKENS,
                            temperature=TEMPERATURE if options.temperature is None
                            else options.temperature, repeat_penalty=TEXT_REPEAT_PENALTY)
        text, usage, finish = self._generate(loaded, turns, "", None, stop, sampling=sampling)
        return Reply(text=text.strip(), usage=usage, finish_reason=finish)

    def _generate(self, loaded: Loaded, turns: list[prompt.ChatTurn], instruction: str,
                  schema: dict[str, Any] | None, stop: threading.Event,
                  standing: str = "", sampling: Sampling | None = None
                  ) -> tuple[str, Usage, str]:
        """Fit the prompt, generate (under a grammar when a schema is given), report usage.
        ``instruction`` ends the last user turn; ``standing`` (the same on every call of a run,
        such as the offered tools) ends the system turn, where it stays in the cached prefix."""
        from llama_cpp.llama import StoppingCriteriaList
        from llama_cpp.llama_grammar import LlamaGrammar

        sampling = sampling or Sampling()
        if schema is None:
            max_tokens, constraint = sampling.max_tokens, None
        else:
            max_tokens = min(TOOL_TOKENS_CAP, grammar.max_json_chars(schema) + 32)
            gbnf = grammar.schema_to_gbnf(schema)
            if gbnf not in self._parsed:
                if not grammar.grammar_parses(loaded.llama, gbnf):
                    raise ModelError("the embedded model cannot follow this tool schema "
                                     "(llama.cpp rejected the grammar built from it)")
                self._parsed.add(gbnf)
            constraint = LlamaGrammar.from_string(gbnf, verbose=False)
        budget = self.context_window - max_tokens - PROMPT_MARGIN_TOKENS
        tokens, stops = self._prompt_tokens(loaded, turns, instruction, budget, standing)
        criteria = StoppingCriteriaList([lambda _ids, _logits: stop.is_set(), *stops])
        cached = _reused_prefix(loaded, tokens)
        use_threads(loaded, self._threads())
        # A sampled call is asked for because the likely reply did not do: with one fixed
        # seed, the same conversation would draw the same reply again.
        seed = SEED + next(self._draws) if sampling.temperature > 0 else SEED
        try:
            result = loaded.llama.create_completion(
                prompt=tokens, grammar=constraint, max_tokens=max_tokens,
                temperature=sampling.temperature, top_p=TOP_P,
                min_p=MIN_P, repeat_penalty=sampling.repeat_penalty, seed=seed,
                stop=loaded.stop_text, stopping_criteria=criteria)
        except (ValueError, RuntimeError) as exc:
            raise ModelError(f"the embedded model failed: {exc}") from exc
        if stop.is_set():
            raise ModelError("the call was cancelled")
        completion = cast("dict[str, Any]", result)  # not streamed: one response object
        choice = completion["choices"][0]
        usage = completion.get("usage") or {}
        return (choice.get("text") or "",
                Usage(usage.get("prompt_tokens", len(tokens)), usage.get("completion_tokens", 0),
                      cached_tokens=cached),
                choice.get("finish_reason") or "stop")

    def _prompt_tokens(self, loaded: Loaded, turns: list[prompt.ChatTurn], instruction: str,
                       budget: int, standing: str = "") -> tuple[list[int], list[Any]]:
        """The prompt as tokens of the model's own chat template, shrunk until it fits."""
        llama = loaded.llama

        def count(text: str) -> int:
            return len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

        reserve = sum(count(text) + prompt.TURN_OVERHEAD_TOKENS
                      for text in (instruction, standing) if text)
        tokens: list[int] = []
        for attempt in range(4):
            fitted = prompt.fit_turns(turns, count, (budget - reserve) * (4 - attempt) // 4)
            chat = prompt.with_standing(fitted, standing) if standing else fitted
            chat = prompt.with_instruction(chat, instruction) if instruction else chat
            if not chat or chat[-1]["role"] != "user":
                chat.append({"role": "user", "content": "Continue."})
            rendered = loaded.formatter(messages=cast(Any, chat))
            tokens = llama.tokenize(rendered.prompt.encode("utf-8"),
                                    add_bos=not rendered.added_special, special=True)
            if len(tokens) <= budget:
                return tokens, list(rendered.stopping_criteria or [])
        raise ModelError(f"the conversation does not fit the embedded model's context "
                         f"({len(tokens)} tokens, {budget} available)")


@dataclass(frozen=True)
class Sampling:
    max_tokens: int = TEXT_TOKENS
    temperature: float = TEMPERATURE
    repeat_penalty: float = REPEAT_PENALTY


def _reused_prefix(loaded: Loaded, tokens: list[int]) -> int:
    """The prompt tokens the call takes from the KV cache: the shared prefix when it is at
    least half the prompt; else none (the cache is reset and the prompt evaluated whole), so
    at temperature 0 a prompt gets the same reply whatever the previous call left there.
    llama.cpp's sums differ with how a prompt is split into evaluations, and greedy decoding
    follows them: the phase engine's draft (3 tokens reused) and the one-shot call (44) sent
    the same prompt and wrote different files on 7 of 13 tasks of the embedded evaluation."""
    cached = _cached_prefix(loaded, tokens)
    if cached and cached * 2 < len(tokens):
        loaded.llama.reset()
        return 0
    return cached


def _cached_prefix(loaded: Loaded, tokens: list[int]) -> int:
    """Prompt tokens llama.cpp will take from its KV cache: the longest prefix shared with what
    the previous call left there (it evaluates at least the last token again)."""
    previous = loaded.llama.input_ids[: loaded.llama.n_tokens]
    shared = 0
    for old, new in zip(previous, tokens):
        if old != new:
            break
        shared += 1
    return min(shared, max(len(tokens) - 1, 0))
