import pytest

from durations import format_duration, parse_duration


@pytest.mark.parametrize("text, seconds", [
    ("45s", 45), ("1h30m", 5400), ("2d", 172800), ("1d2h3m4s", 93784), ("0s", 0),
    ("90m", 5400), ("1h 30m", 5400), ("  2h  ", 7200), ("1d 1s", 86401), ("10m5s", 605),
])
def test_parse(text, seconds):
    assert parse_duration(text) == seconds


def test_parse_returns_an_int():
    assert type(parse_duration("1m")) is int


@pytest.mark.parametrize("text", [
    "", "   ", "5", "h", "1x", "1H", "30m1h", "1h1h", "1.5h", "-1h", "1 h", "1h-", "h1",
    "1h 1h", "1s2m",
])
def test_parse_rejects(text):
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize("seconds, text", [
    (3725, "1h2m5s"), (86400, "1d"), (90061, "1d1h1m1s"), (0, "0s"), (59, "59s"),
    (60, "1m"), (3600, "1h"), (172800 + 7, "2d7s"),
])
def test_format(seconds, text):
    assert format_duration(seconds) == text


def test_format_and_parse_agree():
    for seconds in (1, 61, 3599, 3601, 86399, 123456):
        assert parse_duration(format_duration(seconds)) == seconds


def test_format_rejects_negative():
    with pytest.raises(ValueError):
        format_duration(-1)


@pytest.mark.parametrize("value", [5.0, "5", True, None])
def test_format_rejects_non_int(value):
    with pytest.raises(TypeError):
        format_duration(value)
