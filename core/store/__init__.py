"""Storage: the SQLite history of conversations, runs and events, and its exports."""
