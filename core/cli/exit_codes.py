"""Exit codes of the command-line front ends."""

USAGE_ERROR = 2
