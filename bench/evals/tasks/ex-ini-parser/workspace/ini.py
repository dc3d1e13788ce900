"""Reading INI-style settings files."""


class IniError(ValueError):
    """A line that is not a section, a setting, a comment or blank."""

    def __init__(self, message, line):
        super().__init__(message)
        self.line = line


def parse_ini(text):
    """Section name -> {key: value} for the INI text ``text``."""
    raise NotImplementedError
