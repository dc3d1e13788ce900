import pytest

from versions import compare_versions, latest, parse_version


@pytest.mark.parametrize("text, parsed", [
    ("1.4.2", (1, 4, 2, "")), ("2.0.0-rc1", (2, 0, 0, "rc1")), ("0.0.0", (0, 0, 0, "")),
    ("10.20.30-Beta2", (10, 20, 30, "Beta2")),
])
def test_parse_version(text, parsed):
    assert parse_version(text) == parsed


@pytest.mark.parametrize("text", [
    "", "1.2", "1.2.3.4", "01.2.3", "1.02.3", "1.2.03", "1.2.3-", "1.2.3-rc.1", " 1.2.3",
    "1.2.3 ", "v1.2.3", "a.b.c", "1.2.-3", "1..3", "1.2.3-rc 1",
])
def test_parse_version_rejects(text):
    with pytest.raises(ValueError):
        parse_version(text)


@pytest.mark.parametrize("a, b, result", [
    ("1.10.0", "1.9.0", 1), ("1.9.0", "1.10.0", -1), ("1.2.3", "1.2.3", 0),
    ("2.0.0", "1.99.99", 1), ("1.0.0-rc1", "1.0.0", -1), ("1.0.0", "1.0.0-rc1", 1),
    ("1.0.0-alpha", "1.0.0-beta", -1), ("1.0.0-rc2", "1.0.0-rc2", 0), ("1.0.1-a", "1.0.0", 1),
    ("0.0.2", "0.0.10", -1),
])
def test_compare_versions(a, b, result):
    assert compare_versions(a, b) == result


def test_compare_rejects_bad_versions():
    with pytest.raises(ValueError):
        compare_versions("1.0", "1.0.0")
    with pytest.raises(ValueError):
        compare_versions("1.0.0", "one")


def test_latest():
    assert latest(["1.2.0", "1.10.0", "1.9.9", "1.10.0-rc1"]) == "1.10.0"
    assert latest(["0.1.0-b", "0.1.0-a"]) == "0.1.0-b"
    assert latest(["3.0.0"]) == "3.0.0"


def test_latest_rejects_empty_and_bad_items():
    with pytest.raises(ValueError):
        latest([])
    with pytest.raises(ValueError):
        latest(["1.0.0", "2.0"])
