import pytest

from intervals import merge_intervals


def test_empty_list_gives_empty_list():
    assert merge_intervals([]) == []


def test_single_interval_is_kept():
    assert merge_intervals([(2, 7)]) == [(2, 7)]


def test_overlapping_intervals_merge():
    assert merge_intervals([(1, 4), (2, 6), (8, 10)]) == [(1, 6), (8, 10)]


def test_touching_intervals_merge():
    assert merge_intervals([(1, 3), (3, 5)]) == [(1, 5)]


def test_separate_intervals_stay_apart():
    assert merge_intervals([(3, 4), (1, 2)]) == [(1, 2), (3, 4)]


def test_unsorted_input_is_sorted_and_merged():
    assert merge_intervals([(8, 9), (1, 3), (2, 5), (7, 8)]) == [(1, 5), (7, 9)]


def test_nested_interval_disappears():
    assert merge_intervals([(1, 10), (2, 3), (4, 12)]) == [(1, 12)]


def test_point_intervals_are_valid():
    assert merge_intervals([(5, 5), (5, 6), (9, 9)]) == [(5, 6), (9, 9)]


def test_negative_numbers():
    assert merge_intervals([(-5, -1), (-2, 0), (3, 4)]) == [(-5, 0), (3, 4)]


def test_input_is_not_changed():
    data = [(4, 6), (1, 5)]
    merge_intervals(data)
    assert data == [(4, 6), (1, 5)]


def test_result_holds_tuples():
    assert all(type(item) is tuple for item in merge_intervals([(1, 2), (2, 3), (7, 8)]))


def test_backwards_interval_raises_value_error():
    with pytest.raises(ValueError):
        merge_intervals([(1, 2), (6, 3)])
