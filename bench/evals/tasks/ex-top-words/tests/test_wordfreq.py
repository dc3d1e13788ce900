import pytest

from wordfreq import top_words


def test_example():
    assert top_words("The cat and the hat. THE END, and...", 2) == [("the", 3), ("and", 2)]


def test_ties_are_alphabetical():
    assert top_words("pear apple fig apple pear fig kiwi", 4) == [
        ("apple", 2), ("fig", 2), ("pear", 2), ("kiwi", 1)]


def test_apostrophes_inside_words():
    assert top_words("Don't stop: don't! It's o'clock", 3) == [
        ("don't", 2), ("it's", 1), ("o'clock", 1)]


def test_apostrophes_at_the_edges_are_dropped():
    assert top_words("'hello' hello 'tis", 5) == [("hello", 2), ("tis", 1)]


def test_digits_and_punctuation_separate_words():
    assert top_words("abc123def abc,def;ghi", 5) == [("abc", 2), ("def", 2), ("ghi", 1)]


def test_fewer_words_than_n():
    assert top_words("one two two", 10) == [("two", 2), ("one", 1)]


def test_zero_and_empty():
    assert top_words("some words here", 0) == []
    assert top_words("", 3) == []
    assert top_words("123 ... !!!", 3) == []


def test_counts_are_case_insensitive():
    assert top_words("Go GO go gO", 1) == [("go", 4)]


def test_result_is_a_list_of_tuples():
    result = top_words("a b a", 2)
    assert isinstance(result, list) and all(type(item) is tuple for item in result)


def test_negative_n_raises():
    with pytest.raises(ValueError):
        top_words("a b c", -1)
