"""Splitting one line of CSV text into fields."""


def split_line(line, delimiter=","):
    """The fields of the CSV line ``line``."""
    if len(delimiter) != 1 or delimiter == '"':
        raise ValueError("the delimiter must be one character other than a double quote")
    fields = []
    i = 0
    while True:
        if line[i:i + 1] == '"':
            value, i = _quoted(line, i + 1)
            if i < len(line) and line[i] != delimiter:
                raise ValueError(f"unexpected {line[i]!r} after a closing quote")
        else:
            end = line.find(delimiter, i)
            end = len(line) if end == -1 else end
            value, i = line[i:end], end
        fields.append(value)
        if i >= len(line):
            return fields
        i += 1


def _quoted(line, i):
    """The value of a quoted field whose text starts at ``i``, and the index after it."""
    parts = []
    while True:
        end = line.find('"', i)
        if end == -1:
            raise ValueError("a quoted field is not closed")
        parts.append(line[i:end])
        if line[end + 1:end + 2] == '"':
            parts.append('"')
            i = end + 2
        else:
            return "".join(parts), end + 1
