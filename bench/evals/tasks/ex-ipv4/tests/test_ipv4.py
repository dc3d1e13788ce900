import pytest

from ipv4 import is_private, parse_ipv4, to_int


@pytest.mark.parametrize("text, parts", [
    ("192.168.0.1", (192, 168, 0, 1)), ("0.0.0.0", (0, 0, 0, 0)),
    ("255.255.255.255", (255, 255, 255, 255)), ("8.8.4.4", (8, 8, 4, 4)),
    ("10.0.100.9", (10, 0, 100, 9)),
])
def test_parse(text, parts):
    assert parse_ipv4(text) == parts


@pytest.mark.parametrize("text", [
    "", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1.2.3.256", "01.2.3.4", "1.2.3.00", "1..2.3",
    "1.2.3.", ".1.2.3", " 1.2.3.4", "1.2.3.4 ", "1.2. 3.4", "+1.2.3.4", "-1.2.3.4",
    "a.b.c.d", "1.2.3.4\n", "1234.1.1.1", "1.2.3.0x1",
])
def test_parse_rejects(text):
    with pytest.raises(ValueError):
        parse_ipv4(text)


@pytest.mark.parametrize("value", [None, 1234, b"1.2.3.4", [1, 2, 3, 4]])
def test_non_strings_raise_type_error(value):
    with pytest.raises(TypeError):
        parse_ipv4(value)
    with pytest.raises(TypeError):
        to_int(value)


@pytest.mark.parametrize("text, number", [
    ("1.2.3.4", 16909060), ("0.0.0.0", 0), ("255.255.255.255", 2 ** 32 - 1),
    ("0.0.1.0", 256), ("128.0.0.0", 2 ** 31),
])
def test_to_int(text, number):
    assert to_int(text) == number


@pytest.mark.parametrize("text, private", [
    ("10.0.0.0", True), ("10.255.255.255", True), ("172.16.0.0", True),
    ("172.31.255.255", True), ("172.15.255.255", False), ("172.32.0.0", False),
    ("192.168.0.0", True), ("192.168.255.255", True), ("192.169.0.1", False),
    ("127.0.0.1", True), ("127.255.0.9", True), ("169.254.1.1", False), ("8.8.8.8", False),
    ("11.0.0.1", False), ("0.0.0.0", False),
])
def test_is_private(text, private):
    assert is_private(text) is private


def test_is_private_rejects_bad_addresses():
    with pytest.raises(ValueError):
        is_private("10.0.0")
    with pytest.raises(TypeError):
        is_private(None)
