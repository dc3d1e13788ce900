import pytest

from buffer import TextBuffer


def test_starts_with_the_text():
    assert TextBuffer().text == ""
    assert TextBuffer("hello").text == "hello"


def test_insert():
    buffer = TextBuffer("world")
    buffer.insert(0, "hello ")
    buffer.insert(len(buffer.text), "!")
    buffer.insert(5, ",")
    assert buffer.text == "hello, world!"


def test_delete():
    buffer = TextBuffer("hello cruel world")
    buffer.delete(5, 11)
    assert buffer.text == "hello world"
    buffer.delete(3, 3)
    assert buffer.text == "hello world"


def test_undo_and_redo():
    buffer = TextBuffer("abc")
    buffer.insert(3, "def")
    buffer.delete(0, 1)
    assert buffer.text == "bcdef"
    assert buffer.undo() is True and buffer.text == "abcdef"
    assert buffer.undo() is True and buffer.text == "abc"
    assert buffer.undo() is False and buffer.text == "abc"
    assert buffer.redo() is True and buffer.text == "abcdef"
    assert buffer.redo() is True and buffer.text == "bcdef"
    assert buffer.redo() is False and buffer.text == "bcdef"


def test_nothing_to_undo_or_redo_at_start():
    buffer = TextBuffer("x")
    assert buffer.undo() is False and buffer.redo() is False and buffer.text == "x"


def test_new_change_clears_redo():
    buffer = TextBuffer("")
    buffer.insert(0, "a")
    buffer.insert(1, "b")
    buffer.undo()
    buffer.insert(1, "c")
    assert buffer.text == "ac"
    assert buffer.redo() is False
    assert buffer.undo() and buffer.text == "a"
    assert buffer.undo() and buffer.text == ""


@pytest.mark.parametrize("position", [-1, 4])
def test_insert_outside_raises_and_is_not_recorded(position):
    buffer = TextBuffer("abc")
    with pytest.raises(IndexError):
        buffer.insert(position, "x")
    assert buffer.text == "abc" and buffer.undo() is False


@pytest.mark.parametrize("start, end", [(-1, 2), (2, 1), (0, 4), (4, 4)])
def test_bad_delete_raises_and_is_not_recorded(start, end):
    buffer = TextBuffer("abc")
    with pytest.raises(IndexError):
        buffer.delete(start, end)
    assert buffer.text == "abc" and buffer.undo() is False
