"""IPv4 addresses written as text."""

import re

PART = re.compile(r"0|[1-9][0-9]{0,2}")
PRIVATE = [((10, 0, 0, 0), 8), ((172, 16, 0, 0), 12), ((192, 168, 0, 0), 16),
           ((127, 0, 0, 0), 8)]


def parse_ipv4(text):
    """The four numbers of the address ``text``."""
    if not isinstance(text, str):
        raise TypeError("the address must be a string")
    parts = text.split(".")
    if len(parts) != 4 or not all(PART.fullmatch(part) for part in parts):
        raise ValueError(f"not an IPv4 address: {text!r}")
    numbers = tuple(int(part) for part in parts)
    if any(number > 255 for number in numbers):
        raise ValueError(f"not an IPv4 address: {text!r}")
    return numbers


def _number(parts):
    a, b, c, d = parts
    return (a << 24) | (b << 16) | (c << 8) | d


def to_int(text):
    """The address ``text`` as one 32-bit number."""
    return _number(parse_ipv4(text))


def is_private(text):
    """Whether ``text`` is in one of the private or loopback ranges."""
    number = to_int(text)
    for start, bits in PRIVATE:
        shift = 32 - bits
        if number >> shift == _number(start) >> shift:
            return True
    return False
