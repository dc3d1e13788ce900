"""The classic loop's one reminder to write: a request asks for a change, the model answers
in text and nothing is written yet (seen with the 1.5B Qwen on exercises: two searches of
the stub, then "The search code has already been called…", the stub untouched)."""

from __future__ import annotations

from pathlib import Path

from tests.support.script import analysis, authored, kinds, of, one_file_workspace, reading, run

STUB = 'def parse_query(text):\n    raise NotImplementedError\n'
DONE = 'def parse_query(text):\n    return dict(p.split("=") for p in text.split("&"))\n'
REQUEST = ("Implement parse_query(text) in query.py: split the pairs on & and each on =, "
           'so that parse_query("a=1&b=2") == {"a": "1", "b": "2"}.')
CHANGE = analysis("Implement parse_query", **reading("change", change=("query.py",)))
SEARCH = {"tool_calls": [{"tool": "search_code", "arguments": {"pattern": "parse_query"}}]}
WRITE = {"tool_calls": [{"tool": "write_file", "arguments": {
    "path": "query.py", "instruction": "Implement parse_query as the request says."}}]}
PARROT = {"text": "The search code has already been called with the same arguments."}


def test_an_answer_before_any_write_gets_one_reminder_and_the_file_is_written(
        tmp_path: Path) -> None:
    ws = one_file_workspace(tmp_path, "query.py", STUB)
    events, model = run([CHANGE, SEARCH, PARROT, WRITE, authored(DONE, "query.py"),
                         {"text": "parse_query is implemented in query.py."}],
                        ws, request=REQUEST, use_phase_task=False)
    assert (ws / "query.py").read_text() == DONE
    reminder = model.requests[3]["messages"][-2:]
    assert reminder[0] == {"role": "assistant", "content": PARROT["text"]}
    assert reminder[1]["role"] == "user" and "Nothing has been written yet" in \
        reminder[1]["content"] and "with the path query.py" in reminder[1]["content"]
    notices = [n.message for n in of(events, "notice")]
    assert ("The model answered without writing anything, though the request asks for "
            "changes; it was asked once to write query.py or say why it cannot.") in notices
    final, finished = events[-2], events[-1]
    assert final.final_summary == "parse_query is implemented in query.py."
    assert finished.outcome == "succeeded" and finished.llm_calls == 6  # analysis + 5
    assert finished.verification_line == "1 check of the request's examples passes"
    assert [e.tool for e in of(events, "task_finished")] == ["search_code", "write_file"]


def test_a_second_answer_without_a_write_ends_the_run_failed_with_one_reminder(
        tmp_path: Path) -> None:
    ws = one_file_workspace(tmp_path, "query.py", STUB)
    events, model = run([CHANGE, SEARCH, PARROT, {"text": "I cannot write files."}],
                        ws, request=REQUEST, use_phase_task=False)
    assert (ws / "query.py").read_text() == STUB
    assert len(model.requests) == 4
    assert sum("Nothing has been written yet" in str(m["content"])
               for m in model.requests[3]["messages"]) == 1
    final, finished = events[-2], events[-1]
    assert final.final_summary == "I cannot write files."
    assert finished.outcome == "failed"
    assert kinds(events)[-2:] == ["summary", "run_finished"]


def test_no_reminder_for_a_question_or_a_request_that_forbids_changes(tmp_path: Path) -> None:
    ws = one_file_workspace(tmp_path, "query.py", STUB)
    forbid = "Do not change any file"
    for request, read in (("What does parse_query in query.py do?", reading("question")),
                          (f"Tell me what parse_query in query.py returns. {forbid}.",
                           reading("question", forbid=("*",), quotes={"*": forbid}))):
        events, model = run([analysis("Explain parse_query", **read), SEARCH,
                             {"text": "It raises NotImplementedError."}],
                            ws, request=request, use_phase_task=False)
        assert len(model.requests) == 3, request
        assert not any("answered without writing" in n.message for n in of(events, "notice"))
        assert events[-2].final_summary == "It raises NotImplementedError."
    assert (ws / "query.py").read_text() == STUB


def test_no_reminder_once_a_file_is_written(tmp_path: Path) -> None:
    ws = one_file_workspace(tmp_path, "query.py", STUB)
    events, model = run([CHANGE, WRITE, authored(DONE, "query.py"), {"text": "Done."}],
                        ws, request=REQUEST, use_phase_task=False)
    assert len(model.requests) == 4 and (ws / "query.py").read_text() == DONE
    assert events[-1].outcome == "succeeded"
