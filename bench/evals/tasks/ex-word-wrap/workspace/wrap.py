"""Word wrapping."""


def wrap_text(text, width):
    """``text`` broken into lines of at most ``width`` characters."""
    raise NotImplementedError
