"""Reading INI-style settings files."""


class IniError(ValueError):
    """A line that is not a section, a setting, a comment or blank."""

    def __init__(self, message, line):
        super().__init__(message)
        self.line = line


def parse_ini(text):
    """Section name -> {key: value} for the INI text ``text``."""
    result = {}
    section = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in ";#":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            if not section:
                raise IniError(f"line {number}: empty section name", number)
            result.setdefault(section, {})
            continue
        key, equals, value = line.partition("=")
        key = key.strip().lower()
        if not equals or not key:
            raise IniError(f"line {number}: expected key = value", number)
        result.setdefault(section, {})[key] = value.strip()
    return result
