import pytest

from rpn import evaluate


@pytest.mark.parametrize("expression, value", [
    ("3 4 +", 7), ("5 1 2 + 4 * + 3 -", 14), ("10 4 -", 6), ("7 2 /", 3.5),
    ("42", 42), ("-3 2 *", -6), ("2.5 2 *", 5.0), ("-0.5 1 +", 0.5), ("1 2 3 4 + + +", 10),
    ("  6\t2 \n / ", 3.0), ("2 3 4 * -", -10), ("9 3 / 2 /", 1.5),
])
def test_evaluate(expression, value):
    assert evaluate(expression) == value


def test_int_arithmetic_stays_int():
    assert type(evaluate("2 3 * 1 +")) is int


def test_division_by_zero():
    with pytest.raises(ZeroDivisionError):
        evaluate("1 0 /")


@pytest.mark.parametrize("expression", ["", "   ", "3 4 ^", "3 x +", "3 +", "+", "3 4",
                                        "1 2 + 3", "1..2 3 +", "- 3"])
def test_bad_expressions_raise_value_error(expression):
    with pytest.raises(ValueError):
        evaluate(expression)
