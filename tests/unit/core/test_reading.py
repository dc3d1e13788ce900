"""The request's reading: the model's items checked against the request and the workspace
without knowing the request's language, and what the engine finds in the text itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.engine.execution.kept_inputs import KeptInputs
from core.engine.reading import read_request
from core.engine.stages.reading_schema import raw_reading
from core.tools.reading_facts import workspace_facts
from core.tools.code_in_text import file_names, named_files
from core.shapes.reading import Example, Rename
from core.tools.base import RunState


def workspace(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def read(tmp_path: Path, words: str, raw: dict, requirements=(), offered=()):  # type: ignore[no-untyped-def]
    facts = workspace_facts(tmp_path, words, [str(f.get("path", "")) for f in raw.get("files", [])],
                            frozenset(offered))
    return read_request(raw_reading(raw), words, facts, list(requirements))


@pytest.mark.parametrize(("text", "names"), [
    ("在config.py中添加函数is_prime，并写入NOTES.md", ["config.py", "NOTES.md"]),
    ("config.pyに関数is_primeを追加して、結果をdocs/usage.mdに書いて", ["config.py", "docs/usage.md"]),
    ("Read ../x.txt and /var/data/y.csv, then ./z.json", ["../x.txt", "/var/data/y.csv", "z.json"]),
    ("version 2.7.1 is a number, 3.5 too", []),
])
def test_file_names_are_found_next_to_any_script(text: str, names: list[str]) -> None:
    assert file_names(text) == names


def test_a_workspace_file_is_named_by_its_path_or_its_unique_name() -> None:
    paths = ["src/app.py", "tests/app.py", "notes.txt", "数据.csv"]
    assert named_files("请读取notes.txt和数据.csv，然后修改src/app.py", paths) == [
        "src/app.py", "notes.txt", "数据.csv"]
    assert named_files("fix app.py", paths) == []  # two files have that name


def test_the_models_files_are_kept_when_the_request_and_workspace_bear_them_out(
        tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"config.py": "PORT = 1\n", "notes.txt": "n\n", "tests/t.py": "x\n"})
    words = "Lis notes.txt, ajoute une fonction à config.py et écris CHANGES.md. Ne touche pas aux tests."
    reading = read(ws, words, {"kind": "change", "files": [
        {"path": "config.py", "role": "change", "quote": "ajoute une fonction à config.py"},
        {"path": "notes.txt", "role": "read", "quote": "Lis notes.txt"},
        {"path": "CHANGES.md", "role": "create", "quote": "écris CHANGES.md"},
        {"path": "tests", "role": "forbid", "quote": "Ne touche pas aux tests"},
        {"path": "made_up.py", "role": "change", "quote": "config.py"},
        {"path": "config.py", "role": "read", "quote": "une phrase qui n'y est pas"},
    ]})
    assert reading.asks_change is True
    assert (reading.change, reading.create, reading.read, reading.forbid) == (
        ("config.py",), ("CHANGES.md",), ("notes.txt",), ("tests",))
    assert reading.named == ("config.py", "notes.txt")
    assert any("made_up.py (create): the request does not name it" in d for d in reading.dropped)
    assert any("is not in the request" in d and "config.py (read)" in d for d in reading.dropped)


def test_a_files_quote_wrapped_in_the_models_words_holds_when_the_request_is_around_its_name(
        tmp_path: Path) -> None:
    """Quotes the embedded model gave for the suite's add-is-prime request in German, Russian
    and Japanese: the request's own words around the file's name ground the item, a trailing
    full stop is no reason to drop it, and the name alone with words of the model's is not
    enough."""
    ws = workspace(tmp_path, {"mathtools.py": '"""Number helpers."""\n'})
    de = ("Füge in mathtools.py eine Funktion is_prime(n) hinzu, die True zurückgibt. Lege "
          "außerdem test_mathtools.py mit unittest-Tests für is_prime an.")
    reading = read(ws, de, {"kind": "change", "files": [
        {"path": "mathtools.py", "role": "change",
         "quote": "The request states: 'Füge in mathtools.py eine Funktion is_prime(n) hinzu, die T"},
        {"path": "test_mathtools.py", "role": "create",
         "quote": "The named file test_mathtools.py (for reference)"}]})
    assert reading.change == ("mathtools.py",) and reading.create == ()
    assert any("test_mathtools.py (create): its quote" in d for d in reading.dropped)
    ru = "Также создай test_mathtools.py с тестами на unittest для is_prime и убедись, что они проходят."
    reading = read(ws, ru, {"kind": "change", "files": [
        {"path": "test_mathtools.py", "role": "create",
         "quote": "Создай test_mathtools.py с тестами на unittest для is_prime."}]})
    assert reading.create == ("test_mathtools.py",)
    ja = "また、is_primeをテストするunittestのテストを書いたtest_mathtools.pyを作成してください。"
    reading = read(ws, ja, {"kind": "change", "files": [
        {"path": "test_mathtools.py", "role": "create", "quote": "test_mathtools.py ファイルを作成する"}]})
    assert reading.create == () and reading.dropped


def test_a_file_that_exists_is_changed_not_created_and_a_question_with_files_is_both(
        tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"setup.cfg": "version = 2.7.1\n"})
    reading = read(ws, "Which version is in setup.cfg? Write it to v.txt.", {
        "kind": "question", "files": [{"path": "setup.cfg", "role": "create", "quote": ""},
                                      {"path": "v.txt", "role": "create", "quote": "v.txt"}]})
    assert reading.kind == "both" and reading.change == ("setup.cfg",)
    assert reading.create == ("v.txt",)


def test_every_file_forbidden_stands_only_when_nothing_is_to_change(tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"a.py": "x = 1\n"})
    words = "Welche Version? Ändere keine Datei."
    reading = read(ws, words, {"kind": "question", "files": [
        {"path": "*", "role": "forbid", "quote": "Ändere keine Datei"}]})
    assert reading.forbids_all and reading.quote("forbid", "*") == "Ändere keine Datei"
    odd = read(ws, words, {"kind": "change", "files": [
        {"path": "*", "role": "forbid", "quote": "Ändere keine Datei"},
        {"path": "a.py", "role": "change", "quote": ""}]})
    assert not odd.forbids_all
    # The embedded model's reading of the suite's ex-event-bus in Chinese: a change, and
    # every file forbidden on a quote that is the request's first sentence; kept, it refused
    # the draft and every write (failed, where the one-shot call wrote events.py).
    ws = workspace(tmp_path, {"events.py": "class EventBus:\n    pass\n"})
    words = "在events.py中实现类EventBus：处理函数订阅具名事件，事件发布时这些处理函数会被调用。"
    change = read(ws, words, {"kind": "change", "files": [
        {"path": "*", "role": "forbid", "quote": words}]})
    assert not change.forbids_all and change.kind == "change"
    assert "* (forbid): a request read as a change cannot forbid every file" in change.dropped


def test_an_example_is_kept_only_when_its_values_and_function_are_there(tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"leap.py": "def leap_year(year):\n    raise NotImplementedError\n"})
    words = "leap.pyのleap_yearを実装して。例えば1997年は閏年ではなく、1996年は閏年です。"
    reading = read(ws, words, {"kind": "change", "files": [
        {"path": "leap.py", "role": "change", "quote": "leap.py"}], "examples": [
        {"code": "leap_year(1997) == False", "quote": "1997年は閏年ではなく"},
        {"code": "leap_year(1996) == True", "quote": ""},
        {"code": "leap_year(2000) == True", "quote": ""},  # 2000 is not in the request
        {"code": "is_leap(1996) == True", "quote": ""},  # no such function
        {"code": "leap_year(1997) == False", "quote": "1997 is not a leap year"},  # not quoted
        {"code": "leap_year(x)", "quote": ""},  # not an example
    ]})
    assert reading.examples == (Example("leap_year", "leap_year(1997)", "False"),
                                Example("leap_year", "leap_year(1996)", "True"))
    dropped = "\n".join(reading.dropped)
    assert "2000 is not in the request or the file" in dropped
    assert "is_leap is not defined in the files the request names" in dropped
    assert "its quote \"1997 is not a leap year\" is not in the request" in dropped
    assert "leap_year(x)" in dropped


def test_a_function_the_request_declares_between_cjk_characters_may_be_exemplified(
        tmp_path: Path) -> None:
    """A function the file does not define yet counts when the request writes it as a call,
    typed without spaces between Chinese or Japanese words (the suite's ex-merge-intervals in
    both: its examples were dropped as "not defined" and the run had no check of its own)."""
    ws = workspace(tmp_path, {"intervals.py": "# merge here\n"})
    for words in ("在intervals.py中实现merge_intervals(intervals)。例如[[1, 3], [2, 6]]得到[[1, 6]]。",
                  "intervals.pyにmerge_intervals(intervals)を実装して。[[1, 3], [2, 6]]は[[1, 6]]になります。"):
        reading = read(ws, words, {"kind": "change", "files": [
            {"path": "intervals.py", "role": "change", "quote": "intervals.py"}], "examples": [
            {"call": "merge_intervals([[1, 3], [2, 6]])", "result": "[[1, 6]]", "quote": ""},
            {"call": "merge([[1, 3], [2, 6]])", "result": "[[1, 6]]", "quote": ""}]})
        assert reading.examples == (Example("merge_intervals", "merge_intervals([[1, 3], [2, 6]])",
                                            "[[1, 6]]"),), words
        assert reading.declared == frozenset({"merge_intervals"}), words
        assert "merge is not defined in the files the request names" in "\n".join(reading.dropped)


def test_an_example_given_as_call_and_result_is_checked_as_one_line(tmp_path: Path) -> None:
    """The schema's call and result, as the model fills them for a request that states its
    examples in words ("X得到Y"); a reply recorded with the whole line as ``code`` still
    reads."""
    ws = workspace(tmp_path, {"naming.py": "def to_snake_case(name):\n    raise NotImplementedError\n"})
    words = '在naming.py中实现to_snake_case(name)："parseHttpRequest"得到"parse_http_request"，""得到""。'
    raw = raw_reading({"kind": "change", "files": [], "examples": [
        {"call": 'to_snake_case("parseHttpRequest")', "result": '"parse_http_request"',
         "quote": '"parseHttpRequest"得到"parse_http_request"'},
        {"call": 'to_snake_case("")', "result": '""', "quote": '""得到""'},
        {"call": 'to_snake_case(None)', "result": "raises TypeError", "quote": ""},
        {"call": 'to_snake_case("userID") == "user_id"', "result": '"user_id"', "quote": ""},
        {"code": 'to_snake_case("parseHttpRequest") == "parse_http_request"', "quote": ""}]})
    reading = read(ws, words, raw)
    assert reading.examples == (
        Example("to_snake_case", 'to_snake_case("parseHttpRequest")', '"parse_http_request"'),
        Example("to_snake_case", 'to_snake_case("")', '""'),
        Example("to_snake_case", "to_snake_case(None)", "", "TypeError"))
    assert "'userID' is not in the request or the file" in "\n".join(reading.dropped)


def test_an_example_quoted_in_other_words_holds_where_the_request_pairs_its_values(
        tmp_path: Path) -> None:
    """The embedded model's examples for ex-case-convert: its quotes re-worded the request
    ("to_snake_case('parseHttpRequest') gives …"); the values standing side by side in the
    request bear the example out, values from far apart in it do not, nor does one value."""
    ws = workspace(tmp_path, {"naming.py": "def to_snake_case(name):\n    raise NotImplementedError\n"
                                           "def leap_year(y):\n    raise NotImplementedError\n"})
    words = ('Implement to_snake_case(name) in naming.py: "parseHttpRequest" gives '
             '"parse_http_request"; "ParseJSON" gives "parse_json". Consecutive capitals are '
             'one word unless a lowercase letter follows, so that the last capital starts the '
             'next word: "XMLParser" gives "xml_parser". Also leap_year: 1997 is not one.')
    reading = read(ws, words, {"kind": "change", "examples": [
        {"call": "to_snake_case('parseHttpRequest')", "result": "'parse_http_request'",
         "quote": "to_snake_case('parseHttpRequest') gives 'parse_http_request'"},
        {"call": "to_snake_case('parseHttpRequest')", "result": "'xml_parser'",
         "quote": "to_snake_case('parseHttpRequest') gives 'xml_parser'"},
        {"call": "leap_year(1997)", "result": "False", "quote": "1997 is not a leap year"}]})
    assert reading.examples == (Example("to_snake_case", "to_snake_case('parseHttpRequest')",
                                        "'parse_http_request'"),)
    dropped = "\n".join(reading.dropped)
    assert "its quote \"to_snake_case('parseHttpRequest') gives 'xml_parser'\"" in dropped
    assert "its quote \"1997 is not a leap year\"" in dropped


def test_values_pair_only_as_whole_numbers(tmp_path: Path) -> None:
    """A number inside a longer number (2 in 2024, 3 in 365) is not that number standing next to
    another value: the re-worded example holds only where its values stand as written."""
    ws = workspace(tmp_path, {"cal.py": "def days(y):\n    raise NotImplementedError\n"})
    words = ("Implement days(y) in cal.py: a year has 365 days, 2 of them weekend days; 2024 has "
             "366. The function is used by the calendar view of the reports page; leap years "
             "come once in 4 years, never 3.")
    reading = read(ws, words, {"kind": "change", "examples": [
        {"call": "days(2024)", "result": "366", "quote": "days(2024) returns 366"},
        {"call": "days(3)", "result": "2", "quote": "days(3) returns 2"}]})
    assert [e.call for e in reading.examples] == ["days(2024)"]
    assert "its quote \"days(3) returns 2\"" in "\n".join(reading.dropped)


def test_a_container_in_an_example_is_written_whole_in_the_request(tmp_path: Path) -> None:
    """The embedded model's Chinese ex-flatten-dict reading spliced the request's two examples
    into one: every key and number of it is in the request, the dict it passes is not, so it is
    dropped; the example the request writes (other spacing, JSON notation) holds."""
    ws = workspace(tmp_path, {"flatten.py": "def flatten(d, sep='.'):\n    raise NotImplementedError\n"
                                            "def unflatten(d, sep='.'):\n    raise NotImplementedError\n"})
    words = ("在flatten.py中实现flatten和unflatten。{'a': {'b': 1, 'c': {'d': 2}}, 'e': 3}得到"
             '{"a.b": 1, "a.c.d": 2, "e": 3}。unflatten执行相反的操作：{\'a.b\': 1, \'a.c\': 2, '
             "'d': 3}得到{'a': {'b': 1, 'c': 2}, 'd': 3}。")
    reading = read(ws, words, {"kind": "change", "examples": [
        {"call": "flatten({'a': {'b': 1, 'c': {'d': 2}}, 'e': 3})",
         "result": "{'a.b': 1, 'a.c.d': 2, 'e': 3}", "quote": ""},
        {"call": "unflatten({'a.b': 1, 'a.c.d': 2, 'd': 3})",
         "result": "{'a': {'b': 1, 'c': {'d': 2}}, 'e': 3}", "quote": ""}]})
    assert [e.name for e in reading.examples] == ["flatten"]
    assert "{'a.b': 1, 'a.c.d': 2, 'd': 3} is not written as one value in the request" \
        in "\n".join(reading.dropped)


def test_an_example_in_other_words_pairs_its_lists_where_the_request_states_them(
        tmp_path: Path) -> None:
    """The embedded model's English ex-flatten-dict reading (its quotes the schema's words):
    unflatten's input beside flatten's input as its result. Both dicts are written whole, and
    every key and number pairs up anywhere, but the two dicts stand in different examples, so
    the splice is dropped; the example the request states in one sentence holds."""
    ws = workspace(tmp_path, {"flatten.py": "def flatten(d, sep='.'):\n    raise NotImplementedError\n"
                                            "def unflatten(d, sep='.'):\n    raise NotImplementedError\n"})
    words = ("Implement flatten(data, sep='.') and unflatten(data, sep='.') in flatten.py.\n"
             "- {'a': {'b': 1, 'c': {'d': 2}}, 'e': 3} gives {'a.b': 1, 'a.c.d': 2, 'e': 3}.\n"
             "- Only dicts are flattened; every other value, lists included, is kept as it is. "
             "An empty nested dict is kept as a value. Every key is a string.\n\n"
             "unflatten(data, sep='.') does the reverse: {'a.b': 1, 'a.c': 2, 'd': 3} gives "
             "{'a': {'b': 1, 'c': 2}, 'd': 3}.")
    quote = "the words of the request (or file) it comes from, copied exactly."
    reading = read(ws, words, {"kind": "change", "examples": [
        {"call": "flatten({'a': {'b': 1, 'c': {'d': 2}}, 'e': 3}, sep='.')",
         "result": '{"a.b": 1, "a.c.d": 2, "e": 3}', "quote": quote},
        {"call": "unflatten({'a.b': 1, 'a.c': 2, 'd': 3}, sep='.')",
         "result": '{"a":{"b":1,"c":{"d":2}},"e":3}', "quote": quote}]})
    assert [e.name for e in reading.examples] == ["flatten"]
    assert "example `unflatten({'a.b': 1, 'a.c': 2, 'd': 3}, sep='.')" in "\n".join(
        reading.dropped)


def test_a_docstring_states_examples_for_the_named_file(tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"add.py": 'def add(a, b):\n    """Sum.\n    >>> add(2, 3)\n    5\n'
                                        '    For example add(1, 1) gives 2.\n    """\n'
                                        "    raise NotImplementedError\n"})
    reading = read(ws, "Complete the function add in add.py as its docstring says.", {
        "kind": "change", "examples": [{"code": "add(1, 1) == 2", "quote": "add(1, 1) gives 2"}]})
    assert {e.call for e in reading.examples} == {"add(1, 1)", "add(2, 3)"}


def test_a_rename_and_a_tool_are_kept_only_when_they_exist(tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"server.py": "port = 8000\n"})
    words = "Renomme port en listen_port, puis utilise time pour l'heure."
    reading = read(ws, words, {"kind": "change", "renames": [
        {"old": "port", "new": "listen_port", "quote": "Renomme port en listen_port"},
        {"old": "host", "new": "address", "quote": ""},
        {"old": "port", "new": "port", "quote": ""}],
        "tools": [{"name": "time__get_current_time", "quote": "utilise time"},
                  {"name": "weather", "quote": ""}]}, offered=("time__get_current_time",))
    assert reading.renames == (Rename("port", "listen_port"),)
    assert reading.tools == ("time__get_current_time",)
    dropped = "\n".join(reading.dropped)
    assert "the workspace does not use host" in dropped and "not two different names" in dropped
    assert "weather: not a tool this run offers" in dropped


def test_a_requirement_whose_quote_is_not_in_the_request_is_an_assumption(
        tmp_path: Path) -> None:
    words = "в calc.py реализуй add"
    reading = read(workspace(tmp_path, {"calc.py": ""}), words, {}, [
        ("add returns the sum", "реализуй add"), ("add must delete all files", "удали все файлы")])
    assert [r.text for r in reading.requirements] == ["add returns the sum"]
    assert reading.assumptions == ("add must delete all files",)
    assert reading.kind == "unknown" and reading.asks_change is None


def test_kept_files_refuse_writes_with_the_reason(tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"users.json": "[]\n", "tests/test_a.py": "x\n", "data/a.txt": "a\n"})
    inputs = KeptInputs(RunState(workspace=ws, run_id="kept-inputs-test"))
    assert not inputs.kept("users.json")  # nothing kept before a reading
    inputs.keep(read(ws, "users.json; write emails.txt; data/ only read; do not touch tests/", {
        "kind": "change", "files": [
            {"path": "users.json", "role": "read", "quote": "users.json"},
            {"path": "emails.txt", "role": "create", "quote": "emails.txt"},
            {"path": "data", "role": "read", "quote": "data/ only read"},
            {"path": "tests", "role": "forbid", "quote": "do not touch tests/"}]}))
    assert inputs.kept("users.json") and inputs.kept("./users.json")
    assert inputs.kept("data/a.txt") and inputs.kept("data/new.txt")
    assert not inputs.kept("emails.txt") and not inputs.kept("../escape.json")
    assert inputs.refused({"emails.txt", "users.json"}) == (
        "not run: the request asks for emails.txt to be written; users.json is a file it "
        "reads, and stays as it is")
    assert inputs.refused({"tests/test_a.py"}) == (
        "not run: the request says not to change tests/test_a.py (\"do not touch tests/\"); "
        "it stays as it is")
    assert inputs.refused({"emails.txt"}) == ""


def test_a_change_that_names_no_file_to_change_keeps_no_file_only_read(tmp_path: Path) -> None:
    """The embedded model's reading of the suite's rename-key (English): a change, every file
    it names 'read' (quotes in the request), none to change — kept, it refused every write
    the rename needs. A change with a file to create keeps the files it reads."""
    ws = workspace(tmp_path, {"config.json": '{"port": 8000}\n', "server.py": "port = 8000\n",
                              "README.md": "Set port.\n", "users.json": "[]\n"})
    words = ("Rename the setting port to listen_port everywhere: in config.json, in server.py "
             "and in README.md. The value stays 8000.")
    reading = read(ws, words, {"kind": "change", "files": [
        {"path": p, "role": "read", "quote": f"in {p}"}
        for p in ("config.json", "server.py", "README.md")]})
    assert reading.read == () and reading.change == ()
    assert "config.json (read): a change that changes and creates no file" in \
        "\n".join(reading.dropped)
    inputs = KeptInputs(RunState(workspace=ws, run_id="rename-key-reading"))
    inputs.keep(reading)
    assert not inputs.kept("config.json")
    words = "The users are in users.json. Write emails.txt with one address per line."
    reading = read(ws, words, {"kind": "change", "files": [
        {"path": "users.json", "role": "read", "quote": "The users are in users.json"},
        {"path": "emails.txt", "role": "create", "quote": "Write emails.txt"}]})
    assert reading.read == ("users.json",) and reading.create == ("emails.txt",)
