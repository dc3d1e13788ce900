"""Editable text with undo and redo."""


class TextBuffer:
    """Text edited by inserts and deletes, each of which can be undone and redone."""

    def __init__(self, text=""):
        self.text = text
        self._undo = []
        self._redo = []

    def _change(self, new_text):
        self._undo.append(self.text)
        self._redo.clear()
        self.text = new_text

    def insert(self, position, text):
        if not 0 <= position <= len(self.text):
            raise IndexError(f"position {position} is outside the text")
        self._change(self.text[:position] + text + self.text[position:])

    def delete(self, start, end):
        if not 0 <= start <= end <= len(self.text):
            raise IndexError(f"cannot delete from {start} to {end}")
        self._change(self.text[:start] + self.text[end:])

    def undo(self):
        if not self._undo:
            return False
        self._redo.append(self.text)
        self.text = self._undo.pop()
        return True

    def redo(self):
        if not self._redo:
            return False
        self._undo.append(self.text)
        self.text = self._redo.pop()
        return True
