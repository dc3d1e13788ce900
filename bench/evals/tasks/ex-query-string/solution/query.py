"""URL query strings such as "q=red+shoes&page=2"."""

HEX = "0123456789abcdefABCDEF"
SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")


def _decode(part):
    data = bytearray()
    i = 0
    while i < len(part):
        char = part[i]
        if char == "%":
            digits = part[i + 1:i + 3]
            if len(digits) != 2 or any(c not in HEX for c in digits):
                raise ValueError(f"bad escape at position {i} of {part!r}")
            data.append(int(digits, 16))
            i += 3
            continue
        data += b" " if char == "+" else char.encode("utf-8")
        i += 1
    return data.decode("utf-8")


def parse_query(text):
    """Key -> list of values of the query string ``text``."""
    result = {}
    for pair in text.removeprefix("?").split("&"):
        if not pair:
            continue
        key, _, value = pair.partition("=")
        result.setdefault(_decode(key), []).append(_decode(value))
    return result


def _encode(text):
    out = []
    for char in text:
        if char in SAFE:
            out.append(char)
        elif char == " ":
            out.append("+")
        else:
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8"))
    return "".join(out)


def build_query(params):
    """The query string for ``params`` (key -> a string or a list of strings)."""
    pairs = []
    for key in sorted(params):
        values = params[key]
        for value in [values] if isinstance(values, str) else values:
            pairs.append(f"{_encode(key)}={_encode(value)}")
    return "&".join(pairs)
