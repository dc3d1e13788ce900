"""Editable text with undo and redo."""


class TextBuffer:
    """Text edited by inserts and deletes, each of which can be undone and redone."""

    def __init__(self, text=""):
        raise NotImplementedError

    def insert(self, position, text):
        raise NotImplementedError

    def delete(self, start, end):
        raise NotImplementedError

    def undo(self):
        raise NotImplementedError

    def redo(self):
        raise NotImplementedError
