import pytest

from wrap import wrap_text


def test_example():
    assert wrap_text("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"]


def test_text_that_fits_is_one_line():
    assert wrap_text("hello world", 11) == ["hello world"]


def test_exact_fit_then_break():
    assert wrap_text("aaa bbb ccc", 7) == ["aaa bbb", "ccc"]


def test_long_word_gets_its_own_line():
    assert wrap_text("a verylongword b c", 5) == ["a", "verylongword", "b c"]


def test_whitespace_is_collapsed():
    assert wrap_text("  one\ttwo\n\nthree   four ", 9) == ["one two", "three", "four"]


def test_width_one():
    assert wrap_text("a b cd", 1) == ["a", "b", "cd"]


def test_empty_and_blank_text():
    assert wrap_text("", 10) == []
    assert wrap_text(" \n\t ", 10) == []


def test_no_line_is_too_long_unless_one_word():
    text = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor"
    for width in range(1, 30):
        lines = wrap_text(text, width)
        assert " ".join(lines) == text
        assert all(len(line) <= width or " " not in line for line in lines)


def test_lines_are_filled_greedily():
    assert wrap_text("ab cd ef gh ij", 8) == ["ab cd ef", "gh ij"]


@pytest.mark.parametrize("width", [0, -3])
def test_width_below_one_raises(width):
    with pytest.raises(ValueError):
        wrap_text("text", width)
