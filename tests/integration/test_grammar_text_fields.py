"""The embedded model's grammar, applied by llama.cpp itself to the SmolLM2 vocabulary: a
text field of a stage reply cannot end where a small model's bare quote would cut it, and a
tool's arguments keep every ending."""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from typing import Any

import llama_cpp
import pytest
from llama_cpp import Llama

from core.engine.stages.schemas import SUMMARIZER, judge_schema
from core.llm.embedded_grammar import bound_schema, schema_to_gbnf, with_tool_arguments
from core.llm.embedded_load import model_path

WRITE = {"type": "object", "required": ["path", "instruction"],
         "properties": {"path": {"type": "string"}, "instruction": {"type": "string"}}}


@pytest.fixture(scope="module")
def vocab() -> Iterator[Llama]:
    yield Llama(str(model_path("")), vocab_only=True, verbose=False)


def allowed(llm: Llama, schema: dict[str, Any], written: str, token_text: str) -> bool:
    """Whether llama.cpp's grammar sampler lets ``token_text`` follow ``written``."""
    vocab = llama_cpp.llama_model_get_vocab(llm.model)
    sampler = llama_cpp.llama_sampler_init_grammar(
        vocab, schema_to_gbnf(bound_schema(schema)).encode(), b"root")
    assert sampler, "llama.cpp rejected the grammar"
    try:
        for token in llm.tokenize(written.encode(), add_bos=False, special=False):
            llama_cpp.llama_sampler_accept(sampler, token)
        [token] = llm.tokenize(token_text.encode(), add_bos=False, special=False)
        data = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(token, 0.0, 0.0))
        array = llama_cpp.llama_token_data_array(data, 1, -1, False)
        llama_cpp.llama_sampler_apply(sampler, ctypes.byref(array))
        return data[0].logit != float("-inf")
    finally:
        llama_cpp.llama_sampler_free(sampler)


@pytest.mark.parametrize("written", [
    '{"final_summary": "It is raised by a raise ValueError(',  # seen: the answer was cut here
    '{"final_summary": "It raises the error ',
    '{"final_summary": "The setting is port=',
    '{"final_summary": "Done.", "requirements": [{"requirement": "Return a list of ',
])
def test_a_summary_cannot_end_where_a_bare_quote_would_cut_it(vocab: Llama, written: str) -> None:
    assert not allowed(vocab, SUMMARIZER, written, '"')
    assert allowed(vocab, SUMMARIZER, written, "\\")  # the quote, escaped
    assert allowed(vocab, SUMMARIZER, written, "'")


def test_a_summary_ends_after_a_word_or_a_full_stop(vocab: Llama) -> None:
    assert allowed(vocab, SUMMARIZER, '{"final_summary": "The function is withdraw.', '"')
    assert allowed(vocab, SUMMARIZER, '{"final_summary": "The function is withdraw', '"')
    assert allowed(vocab, SUMMARIZER, '{"final_summary": "It raises ValueError(\\"x\\")', '"')


def test_a_tools_arguments_keep_every_ending(vocab: Llama) -> None:
    schema, _ = with_tool_arguments(judge_schema(["write_file"]), {"write_file": WRITE})
    start = ('{"user_summary": "Read the guide.", "phase_completed": false, "next_tasks": '
             '[{"tool": "write_file", "arguments": {"path": "notes.md", "instruction": '
             '"Append the line port=')
    assert allowed(vocab, schema, start, '"')
    assert not allowed(vocab, schema, '{"user_summary": "The next step is ', '"')
