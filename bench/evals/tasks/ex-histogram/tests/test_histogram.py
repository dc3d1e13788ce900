import pytest

from histogram import bin_counts


def test_example():
    assert bin_counts([0, 1, 2, 5, 9, 10, 11], 0, 10, 2) == [3, 3]


def test_border_values_go_to_the_upper_bin():
    assert bin_counts([0, 2, 4, 6, 8], 0, 10, 5) == [1, 1, 1, 1, 1]


def test_high_goes_to_the_last_bin():
    assert bin_counts([10, 10.0], 0, 10, 4) == [0, 0, 0, 2]


def test_values_outside_are_not_counted():
    assert bin_counts([-1, -0.001, 10.001, 100], 0, 10, 3) == [0, 0, 0]


def test_floats_and_negative_ranges():
    assert bin_counts([-1.0, -0.5, 0.0, 0.49, 0.5, 1.0], -1, 1, 4) == [1, 1, 2, 2]


def test_one_bin():
    assert bin_counts([3, 4, 5, 6, 7], 4, 6, 1) == [3]


def test_empty_values():
    assert bin_counts([], 0, 1, 3) == [0, 0, 0]


def test_result_length_is_bins():
    assert len(bin_counts([0.3], 0, 1, 7)) == 7


def test_every_value_inside_is_counted_once():
    values = [i / 10 for i in range(0, 101)]
    assert sum(bin_counts(values, 0, 10, 7)) == len(values)


@pytest.mark.parametrize("low, high, bins", [(0, 10, 0), (0, 10, -2), (5, 5, 3), (6, 5, 3)])
def test_bad_arguments_raise(low, high, bins):
    with pytest.raises(ValueError):
        bin_counts([1, 2], low, high, bins)
