import pytest

from csvline import split_line


@pytest.mark.parametrize("line, fields", [
    ("a,b,c", ["a", "b", "c"]),
    ('a,"b,c",d', ["a", "b,c", "d"]),
    ('"say ""hi""",x', ['say "hi"', "x"]),
    ("", [""]),
    ("a,", ["a", ""]),
    (",", ["", ""]),
    (",,a", ["", "", "a"]),
    ('""', [""]),
    ('"",""', ["", ""]),
    ('a"b,c', ['a"b', "c"]),
    (" a , b ", [" a ", " b "]),
    ('x,"multi, comma, field"', ["x", "multi, comma, field"]),
    ('"""quoted"""', ['"quoted"']),
    ('"a",', ["a", ""]),
])
def test_split_line(line, fields):
    assert split_line(line) == fields


def test_other_delimiters():
    assert split_line("1;2;3", ";") == ["1", "2", "3"]
    assert split_line('a\t"b\tc"', "\t") == ["a", "b\tc"]
    assert split_line("a,b;c", ";") == ["a,b", "c"]


@pytest.mark.parametrize("line", ['"abc', 'a,"b', '"ab"c', '"a""', 'x,"y"z,w'])
def test_malformed_quotes_raise(line):
    with pytest.raises(ValueError):
        split_line(line)


@pytest.mark.parametrize("delimiter", ["", ";;", '"'])
def test_bad_delimiter_raises(delimiter):
    with pytest.raises(ValueError):
        split_line("a,b", delimiter)
