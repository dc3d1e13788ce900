import pytest

from query import build_query, parse_query


def test_parse_example():
    assert parse_query("?a=1&b=x+y&a=2&flag") == {"a": ["1", "2"], "b": ["x y"], "flag": [""]}


def test_parse_empty():
    assert parse_query("") == {}
    assert parse_query("?") == {}
    assert parse_query("&&") == {}


def test_parse_skips_empty_pairs():
    assert parse_query("&a=1&&b=2&") == {"a": ["1"], "b": ["2"]}


def test_parse_splits_at_the_first_equals():
    assert parse_query("expr=a=b&empty=") == {"expr": ["a=b"], "empty": [""]}


def test_parse_decodes_escapes():
    assert parse_query("name=Ren%C3%A9e&sym=%26%3d%2B&sp=a%20b+c") == {
        "name": ["Renée"], "sym": ["&=+"], "sp": ["a b c"]}


def test_parse_decodes_keys_too():
    assert parse_query("first+name=Al&%41=1") == {"first name": ["Al"], "A": ["1"]}


def test_question_mark_only_ignored_at_the_start():
    assert parse_query("a=?b") == {"a": ["?b"]}


@pytest.mark.parametrize("text", ["a=%zz", "a=%4", "a=100%", "%=1", "a=%FF", "a=%C3"])
def test_parse_rejects_bad_escapes(text):
    with pytest.raises(ValueError):
        parse_query(text)


def test_build_example():
    assert build_query({"q": "red shoes", "a": ["1", "2"]}) == "a=1&a=2&q=red+shoes"


def test_build_escapes():
    assert build_query({"x": "a&b=c/d?", "name": "Renée", "keep": "A-z_0.9~"}) == (
        "keep=A-z_0.9~&name=Ren%C3%A9e&x=a%26b%3Dc%2Fd%3F")


def test_build_encodes_keys_and_plus():
    assert build_query({"a b": "1+1"}) == "a+b=1%2B1"


def test_build_empty():
    assert build_query({}) == ""
    assert build_query({"a": []}) == ""
    assert build_query({"a": ""}) == "a="


def test_round_trip():
    params = {"city": ["São Paulo", "Zürich"], "q": ["50% off & more"], "z": ["~"]}
    assert parse_query(build_query(params)) == params
