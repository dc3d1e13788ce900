import pytest

from ini import IniError, parse_ini


def test_sections_and_settings():
    text = "[server]\nhost = example.org\nport=8080\n\n[client]\nretries = 3\n"
    assert parse_ini(text) == {"server": {"host": "example.org", "port": "8080"},
                               "client": {"retries": "3"}}


def test_comments_and_blank_lines_are_ignored():
    text = "; a comment\n  # another\n\n[a]\n   \nx = 1\n;y = 2\n"
    assert parse_ini(text) == {"a": {"x": "1"}}


def test_keys_are_lowercased_values_kept():
    assert parse_ini("[A]\n  Name  =  Mixed Case Value  \n") == {"A": {"name": "Mixed Case Value"}}


def test_value_may_contain_equals_and_be_empty():
    assert parse_ini("[q]\nexpr = a=b=c\nempty =\n") == {"q": {"expr": "a=b=c", "empty": ""}}


def test_settings_before_any_section_go_to_the_empty_section():
    assert parse_ini("debug = true\n[main]\nx = 1\n") == {"": {"debug": "true"},
                                                          "main": {"x": "1"}}


def test_no_empty_section_without_settings_before_the_first_section():
    assert "" not in parse_ini("# header\n[main]\nx = 1\n")


def test_repeated_section_and_key():
    text = "[s]\na = 1\nb = 2\n[t]\nc = 3\n[s]\na = 9\n"
    assert parse_ini(text) == {"s": {"a": "9", "b": "2"}, "t": {"c": "3"}}


def test_empty_section_is_kept():
    assert parse_ini("[empty]\n[full]\nk = v\n") == {"empty": {}, "full": {"k": "v"}}


def test_section_name_is_stripped():
    assert parse_ini("  [  spaced name ]  \nk = v\n") == {"spaced name": {"k": "v"}}


def test_empty_text():
    assert parse_ini("") == {}


@pytest.mark.parametrize("text, line", [
    ("[a]\nx = 1\njust words\n", 3),
    ("= 3\n", 1),
    ("[ok]\n\n[]\n", 3),
    ("# c\n[  ]\n", 2),
])
def test_bad_lines_raise_ini_error_with_the_line_number(text, line):
    with pytest.raises(IniError) as raised:
        parse_ini(text)
    assert raised.value.line == line
    assert str(line) in str(raised.value)


def test_ini_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_ini("nonsense\n")
