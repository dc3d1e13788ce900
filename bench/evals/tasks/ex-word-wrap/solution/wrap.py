"""Word wrapping."""


def wrap_text(text, width):
    """``text`` broken into lines of at most ``width`` characters."""
    if width < 1:
        raise ValueError("width must be at least 1")
    lines = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) <= width:
            current += " " + word
        else:
            if current:
                lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
