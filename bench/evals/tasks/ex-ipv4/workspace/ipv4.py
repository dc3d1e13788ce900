"""IPv4 addresses written as text."""


def parse_ipv4(text):
    """The four numbers of the address ``text``."""
    raise NotImplementedError


def to_int(text):
    """The address ``text`` as one 32-bit number."""
    raise NotImplementedError


def is_private(text):
    """Whether ``text`` is in one of the private or loopback ranges."""
    raise NotImplementedError
