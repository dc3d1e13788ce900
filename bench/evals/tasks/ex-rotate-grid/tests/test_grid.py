import pytest

from grid import flip_horizontal, rotate_clockwise, rotate_counterclockwise

GRID = ["abc", "def"]


def test_rotate_clockwise():
    assert rotate_clockwise(GRID) == ["da", "eb", "fc"]


def test_rotate_counterclockwise():
    assert rotate_counterclockwise(GRID) == ["cf", "be", "ad"]


def test_flip_horizontal():
    assert flip_horizontal(GRID) == ["cba", "fed"]


def test_four_turns_give_the_grid_back():
    grid = ["#..", ".#.", "..#", "###"]
    turned = grid
    for _ in range(4):
        turned = rotate_clockwise(turned)
    assert turned == grid


def test_left_undoes_right():
    grid = ["1234", "5678", "9abc"]
    assert rotate_counterclockwise(rotate_clockwise(grid)) == grid


def test_single_row_and_column():
    assert rotate_clockwise(["xyz"]) == ["x", "y", "z"]
    assert rotate_clockwise(["x", "y", "z"]) == ["zyx"]
    assert rotate_counterclockwise(["xyz"]) == ["z", "y", "x"]


def test_empty_grids():
    assert rotate_clockwise([]) == []
    assert rotate_counterclockwise([]) == []
    assert flip_horizontal([]) == []
    assert rotate_clockwise(["", ""]) == []
    assert rotate_counterclockwise(["", ""]) == []
    assert flip_horizontal(["", ""]) == ["", ""]


def test_input_is_not_changed():
    grid = ["ab", "cd"]
    rotate_clockwise(grid)
    flip_horizontal(grid)
    assert grid == ["ab", "cd"]


@pytest.mark.parametrize("function", [rotate_clockwise, rotate_counterclockwise,
                                      flip_horizontal])
def test_ragged_rows_raise(function):
    with pytest.raises(ValueError):
        function(["abc", "de"])
