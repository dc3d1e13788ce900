"""The classic reasoning loop on a scripted model and a real temp workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.script import analysis, authored, kinds, of, reading, run, summary

QUESTION = analysis("Answer the question", **reading("question"))


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    (folder / "places").mkdir(parents=True)
    (folder / "places" / "park.txt").write_text("Wanlv Park: 110.31,20.03\n")
    (folder / "hotels.txt").write_text("110.31,20.03: Shangri-La, Renaissance\n")
    (folder / "museum.txt").write_text("Hainan Museum: Qiongshan\n")
    return folder


def calls(*specs: tuple[str, dict]) -> dict:
    return {"tool_calls": [{"tool": name, "arguments": args} for name, args in specs]}


def test_dependent_chain_uses_the_first_result_for_the_second_call(ws: Path) -> None:
    events, model = run([QUESTION,
        calls(("search_code", {"pattern": "Wanlv"})),
        calls(("search_code", {"pattern": "110.31,20.03: "})),
        {"text": "Hotels near Wanlv Park: Shangri-La and Renaissance."},
    ], ws, request="hotels near Wanlv Park", use_phase_task=False)
    final, finished = events[-2], events[-1]
    assert kinds(events)[-2:] == ["summary", "run_finished"]
    assert finished.status == "completed" and finished.llm_calls == 4  # analysis + 3
    assert final.generated_by == "model" and "Shangri-La" in final.final_summary
    second = model.requests[2]["messages"]
    assert "110.31,20.03" in second[-1]["content"]  # the first result is in context
    assert model.requests[1]["tool_choice"] == "auto"
    offered = {t["function"]["name"]: t["function"] for t in model.requests[1]["tools"]}
    assert sorted(offered) == ["list_files", "read_file", "run_command", "search_code",
                               "write_file"]  # edits are written by the authoring step
    assert set(offered["write_file"]["parameters"]["properties"]) == {"path", "instruction"}
    assert [e.round for e in of(events, "tasks_planned")] == [1, 2]


def test_independent_pair_runs_in_one_batch(ws: Path) -> None:
    events, model = run([QUESTION,
        calls(("read_file", {"path": "places/park.txt"}), ("read_file", {"path": "museum.txt"})),
        {"text": "Both places found."},
    ], ws, request="where are the park and the museum", use_phase_task=False)
    planned = of(events, "tasks_planned")
    assert len(planned) == 1 and len(planned[0].tasks) == 2
    assert [e.status for e in of(events, "task_finished")] == ["done", "done"]
    sent = model.requests[2]["messages"]
    assert sent[-3]["role"] == "assistant" and len(sent[-3]["tool_calls"]) == 2
    assert [m["role"] for m in sent[-2:]] == ["tool", "tool"]
    assert {m["tool_call_id"] for m in sent[-2:]} == {c["id"] for c in sent[-3]["tool_calls"]}


def test_repeated_identical_call_is_stopped_and_summarised(ws: Path) -> None:
    same = calls(("list_files", {"path": "."}))
    events, model = run([QUESTION, same, same, same,
                         summary("## Stopped\n\nThe model kept listing files.")],
                        ws, request="list files", use_phase_task=False)
    final, finished = events[-2], events[-1]
    assert len(of(events, "task_finished")) == 1  # the repeats were never executed
    note = model.requests[3]["messages"][-1]["content"]
    assert note.startswith("Loop detected")
    assert model.requests[-1]["tool_choice"] == {"type": "function",
                                                 "function": {"name": "summarizer"}}
    assert final.generated_by == "model" and "Stopped" in final.final_summary
    assert any("repeated an identical tool call" in n.message for n in of(events, "notice"))
    assert finished.status == "completed" and finished.llm_calls == 5  # analysis + 4


def test_budget_exhausted_forces_the_summarizer(ws: Path) -> None:
    replies = [calls(("read_file", {"path": p}))
               for p in ("hotels.txt", "museum.txt", "places/park.txt")]
    events, model = run([QUESTION, *replies, summary("## Partial\n\nRead three files.")], ws,
                        request="read everything", use_phase_task=False, max_iterations=3)
    llm = of(events, "llm_call")
    assert [c.counted_in_budget for c in llm] == [False, True, True, True, False]
    assert (llm[0].stage, llm[-1].stage) == ("request_analyser", "summarizer")
    final, finished = events[-2], events[-1]
    assert finished.status == "budget_exhausted" and final.generated_by == "model"
    assert final.total_tasks_executed == 3


def test_invalid_and_unknown_calls_are_answered_not_executed(ws: Path) -> None:
    events, model = run([QUESTION,
        {"tool_calls": [{"tool": "format_disk", "arguments": {}},
                        {"tool": "read_file", "raw_arguments": "{oops"}]},
        {"text": "I could not do that."},
    ], ws, request="do something odd", use_phase_task=False)
    assert of(events, "task_finished") == []
    sent = model.requests[2]["messages"]
    contents = [m["content"] for m in sent if m["role"] == "tool"]
    assert any("unknown tool 'format_disk'" in c for c in contents)
    assert any("arguments are not JSON" in c for c in contents)
    assert events[-1].status == "completed"


def test_a_huge_malformed_call_is_not_resent_in_full(ws: Path) -> None:
    huge = "{" + "x" * 500_000
    events, model = run([QUESTION,
        {"tool_calls": [{"tool": "read_file", "raw_arguments": huge}]},
        {"text": "gave up"},
    ], ws, request="read", use_phase_task=False)
    echoed = model.requests[2]["messages"][-2]["tool_calls"][0]["function"]["arguments"]
    assert len(echoed) < 5000
    assert events[-1].status == "completed"


def test_the_first_call_names_the_workspace_files_so_paths_need_no_guessing(ws: Path) -> None:
    _, model = run([QUESTION, {"text": "Three files and a folder."}], ws,
                   request="what is here?", use_phase_task=False)
    user = model.requests[1]["messages"][1]["content"]
    assert user.startswith("what is here?\n\nWorkspace files when the run started:\n")
    listing, shown = user.split("\n\nThe workspace's files:\n\n")  # a question: shown too
    assert listing.splitlines()[-4:] == ["hotels.txt", "museum.txt", "places/",
                                         "places/park.txt"]
    assert "places/park.txt\n```text\nWanlv Park: 110.31,20.03\n```" in shown


def test_a_reply_that_only_repeats_a_tool_result_is_no_answer(ws: Path) -> None:
    read = calls(("read_file", {"path": "museum.txt"}))
    _, probe = run([QUESTION, read, {"text": "ok"}], ws, request="where is the museum",
                   use_phase_task=False)
    result = probe.requests[2]["messages"][-1]
    assert result["role"] == "tool" and "Qiongshan" in result["content"]
    echo = f"<tool_response>\n{result['content']}\n</tool_response>"
    events, model = run([QUESTION, read, {"text": echo},
                         summary("## Found\n\nHainan Museum is in Qiongshan.")],
                        ws, request="where is the museum", use_phase_task=False)
    final = of(events, "summary")[0]
    assert final.final_summary == "## Found\n\nHainan Museum is in Qiongshan."
    assert "tool_response" not in final.final_summary
    assert model.requests[-1]["tool_choice"] == {"type": "function",
                                                 "function": {"name": "summarizer"}}
    assert any(n.level == "warning" and "only repeated a tool result" in n.message
               for n in of(events, "notice"))


def test_a_plain_answer_that_quotes_a_file_is_still_the_answer(ws: Path) -> None:
    events, model = run([QUESTION, calls(("read_file", {"path": "museum.txt"})),
                         {"text": "The museum.txt file says: Hainan Museum: Qiongshan"}],
                        ws, request="where is the museum", use_phase_task=False)
    final = of(events, "summary")[0]
    assert final.final_summary == "The museum.txt file says: Hainan Museum: Qiongshan"
    assert len(model.requests) == 3
    assert not any("only repeated" in n.message for n in of(events, "notice"))


def test_a_reply_that_only_names_a_tool_is_asked_to_make_the_call(ws: Path) -> None:
    """Seen on llama-server for question-function: the reply "search_code" became the
    run's answer."""
    events, model = run([QUESTION, {"text": "search_code"},
                         calls(("search_code", {"pattern": "Qiongshan"})),
                         {"text": "Hainan Museum is in Qiongshan (museum.txt)."}],
                        ws, request="where is the museum", use_phase_task=False)
    asked = model.requests[2]["messages"]
    assert asked[-2] == {"role": "assistant", "content": "search_code"}
    assert asked[-1]["content"].startswith("Your reply was only the name of the tool "
                                           "search_code. To use it, call it")
    assert of(events, "summary")[0].final_summary == \
        "Hainan Museum is in Qiongshan (museum.txt)."
    assert any("only the name of the tool search_code" in n.message
               for n in of(events, "notice"))


def test_a_tool_name_again_is_no_answer(ws: Path) -> None:
    events, model = run([QUESTION, {"text": "search_code"}, {"text": "`search_code`"},
                         summary("Nothing was searched.")],
                        ws, request="where is the museum", use_phase_task=False)
    assert of(events, "summary")[0].final_summary == "Nothing was searched."
    assert model.requests[-1]["tool_choice"] == {"type": "function",
                                                 "function": {"name": "summarizer"}}
    assert any("named it again without a call" in n.message for n in of(events, "notice"))


def test_the_call_then_described_without_its_arguments_is_no_answer(ws: Path) -> None:
    """The 1.5B Qwen on llama-server, with the files in view, asked to make the call."""
    events, model = run([QUESTION, {"text": "search_code"},
                         {"text": 'To search for "Qiongshan", call the `search_code` function '
                                  'with the pattern `"Qiongshan"` and the path `"."`.'},
                         summary("Hainan Museum is in Qiongshan.")],
                        ws, request="where is the museum", use_phase_task=False)
    assert of(events, "summary")[0].final_summary == "Hainan Museum is in Qiongshan."
    assert model.requests[-1]["tool_choice"] == {"type": "function",
                                                 "function": {"name": "summarizer"}}
    assert any("Asked to call search_code or answer in words, the model named it again"
               in n.message for n in of(events, "notice"))


def test_the_call_then_written_as_prose_is_made(ws: Path) -> None:
    """What the 1.5B Qwen on llama-server replied when asked to make the call."""
    events, _ = run([QUESTION, {"text": "search_code"},
                     {"text": 'To use the search_code function, call it with the arguments '
                              '{"pattern": "Qiongshan"}.'},
                     {"text": "Hainan Museum is in Qiongshan (museum.txt)."}],
                    ws, request="where is the museum", use_phase_task=False)
    (searched,) = of(events, "task_finished")
    assert (searched.tool, searched.status) == ("search_code", "done")
    assert "museum.txt" in searched.result
    assert of(events, "summary")[0].final_summary == \
        "Hainan Museum is in Qiongshan (museum.txt)."


BROKEN = ('```json\n{\n  "name": "read_file",\n  "arguments": {\n    "path": "museum.txt",\n'
          '    "why": "find "the museum""\n  }\n}\n```')


def test_a_call_whose_json_cannot_be_read_is_said_and_asked_again(ws: Path) -> None:
    """Seen on llama-server for ex-csv-split, ex-date-math and ex-password-check: a write_file
    call in a fenced block with a quote left unescaped ran nothing and became the answer."""
    events, model = run([QUESTION, {"text": BROKEN},
                         calls(("read_file", {"path": "museum.txt"})),
                         {"text": "Hainan Museum is in Qiongshan (museum.txt)."}],
                        ws, request="where is the museum", use_phase_task=False)
    asked = model.requests[2]["messages"]
    assert asked[-2] == {"role": "assistant", "content": BROKEN}
    assert asked[-1]["content"].startswith(
        "Your reply is a call of read_file, but its JSON cannot be read (Expecting ',' "
        "delimiter: line 6 column 19 (char 94)), so nothing ran.")
    assert 'write a quote as \\"' in asked[-1]["content"]
    assert of(events, "summary")[0].final_summary == \
        "Hainan Museum is in Qiongshan (museum.txt)."
    assert any("whose JSON cannot be read" in n.message for n in of(events, "notice"))


def test_a_call_that_stays_unreadable_is_not_the_answer(ws: Path) -> None:
    events, _ = run([QUESTION, {"text": BROKEN}, {"text": BROKEN},
                     summary("## Not answered\n\nNo file was read.")],
                    ws, request="where is the museum", use_phase_task=False)
    final = of(events, "summary")[0]
    assert final.final_summary == "## Not answered\n\nNo file was read."
    assert '"name"' not in final.final_summary
    assert of(events, "run_finished")[0].outcome == "failed"
    assert any("again a call of read_file that cannot be read" in n.message
               for n in of(events, "notice"))


def test_a_call_broken_by_an_unescaped_quote_is_read_as_the_call_it_means(tmp_path: Path
                                                                          ) -> None:
    """Seen on llama-server (classic ex-csv-split, ex-date-math): the model copied the
    request, quotes and all, into write_file's instruction; the call is read with the quote
    repaired, and the file is written."""
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "csvline.py").write_text("def split_line(line, delimiter=','):\n"
                                       "    raise NotImplementedError\n")
    broken = ('```json\n{\n  "name": "write_file",\n  "arguments": {\n    "path": '
              '"csvline.py",\n    "instruction": "Implement split_line(line, delimiter=",") '
              'in csvline.py."\n  }\n}\n```')
    written = "def split_line(line, delimiter=','):\n    return line.split(delimiter)\n"
    change = analysis("Implement split_line", **reading("change", change=("csvline.py",)))
    events, model = run([change, {"text": broken},
                         authored(written, "csvline.py"),
                         {"text": "split_line is implemented in csvline.py."}],
                        folder, request='Implement split_line(line, delimiter=",") in '
                                        "csvline.py.", use_phase_task=False)
    assert (folder / "csvline.py").read_text() == written
    assert [t.tool for t in of(events, "task_finished")] == ["write_file"]
    assert any("call of write_file was not valid JSON; it was repaired" in n.message
               for n in of(events, "notice"))
    assert of(events, "summary")[0].final_summary == "split_line is implemented in csvline.py."


def test_a_summary_that_speaks_of_a_change_no_file_shows_is_held_to_the_facts(tmp_path: Path
                                                                             ) -> None:
    """Seen on llama-server (classic ex-password-check): nothing was written, and the summary
    said "The implementation of check_password ... has been completed". The model's words
    stay its own; the engine's facts beside them say no file changed, and the run failed."""
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "notes.txt").write_text("old\n")
    answer = ("## Done\n\nThe notes have been updated.\n- notes.txt now has the new line.\n"
              "- Nothing else was changed.")
    change = analysis("Add a line to notes.txt", **reading("change", change=("notes.txt",)))
    events, _ = run([change, {"text": answer}, {"text": answer}],
                    folder, request="Add the line 'new' to notes.txt.", use_phase_task=False)
    final = of(events, "summary")[0]
    assert final.final_summary == answer
    assert final.verification_sentences == ["The run changed no file."]
    assert [(r["status"], r["evidence"]) for r in final.requirements] == [
        ("not_attempted", "No file was changed.")]
    assert (folder / "notes.txt").read_text() == "old\n"
    assert any("it was asked once to write notes.txt" in n.message
               for n in of(events, "notice"))
    assert final.outcome == of(events, "run_finished")[0].outcome == "failed"
