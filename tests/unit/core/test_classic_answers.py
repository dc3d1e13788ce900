"""Which text replies of the classic loop are no answer: a repeated tool message."""

from __future__ import annotations

from core.engine.classic.answers import echoed, named_tool

TOOL = {"role": "tool", "tool_call_id": "c1",
        "content": "wrote events.py (1,514 bytes, modified)\nFacts: events.py parses"}
MESSAGES = [{"role": "user", "content": "Implement EventBus in events.py"},
            {"role": "assistant", "content": "", "tool_calls": []}, TOOL]


def test_a_tool_message_repeated_in_markup_or_alone_is_an_echo() -> None:
    assert echoed("<tool_response>\nwrote events.py (1,514 bytes, modified)\n"
                  "Facts: events.py parses\n</tool_response>", MESSAGES)
    assert echoed("wrote events.py (1,514 bytes, modified) Facts: events.py parses", MESSAGES)
    assert echoed("<|im_end|>", MESSAGES)
    assert echoed("<tool_call>\n</tool_call>", MESSAGES)


def test_an_answer_in_words_is_not_an_echo() -> None:
    assert not echoed("Implemented EventBus in events.py; it parses.", MESSAGES)
    assert not echoed("", MESSAGES)
    assert not echoed("Implement EventBus in events.py", MESSAGES)  # the user's words
    assert not echoed("<tool_response>wrote events.py</tool_response>", MESSAGES)


def test_a_reply_that_only_names_an_offered_tool_names_it() -> None:
    names = ["search_code", "read_file", "list_files"]
    assert named_tool("search_code", names) == "search_code"
    assert named_tool(" `read_file`.\n", names) == "read_file"
    assert named_tool("list_files()", names) == "list_files"
    assert named_tool("search_code the bank", names) == ""
    assert named_tool("run_command", names) == ""  # not offered
    assert named_tool("", names) == ""
