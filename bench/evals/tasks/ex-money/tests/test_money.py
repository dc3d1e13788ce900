import pytest

from money import Money


def test_attributes():
    money = Money(1234, "EUR")
    assert money.cents == 1234 and money.currency == "EUR"


@pytest.mark.parametrize("cents, currency", [(1.5, "EUR"), ("100", "EUR"), (100, "eur"),
                                             (100, "EURO"), (100, "E1R"), (100, "")])
def test_invalid_money_raises(cents, currency):
    with pytest.raises(ValueError):
        Money(cents, currency)


@pytest.mark.parametrize("text, cents, currency", [
    ("12.34 EUR", 1234, "EUR"), ("-0.50 USD", -50, "USD"), ("7 GBP", 700, "GBP"),
    ("0.05 JPY", 5, "JPY"), ("1000000.00 CHF", 100000000, "CHF"),
])
def test_parse(text, cents, currency):
    money = Money.parse(text)
    assert (money.cents, money.currency) == (cents, currency)


@pytest.mark.parametrize("text", ["12.3 EUR", "12.345 EUR", "12,34 EUR", "EUR 12.34",
                                  "12.34eur", "12.34  EUR", "", "12.34", "+1.00 EUR",
                                  " 1.00 EUR", ".50 EUR"])
def test_parse_rejects(text):
    with pytest.raises(ValueError):
        Money.parse(text)


@pytest.mark.parametrize("cents, text", [(1234, "12.34 EUR"), (-50, "-0.50 EUR"),
                                         (700, "7.00 EUR"), (0, "0.00 EUR"),
                                         (-1205, "-12.05 EUR")])
def test_str(cents, text):
    assert str(Money(cents, "EUR")) == text


def test_parse_and_str_agree():
    for text in ("12.34 EUR", "-0.50 USD", "7.00 GBP"):
        assert str(Money.parse(text)) == text


def test_equality():
    assert Money(5, "EUR") == Money(5, "EUR")
    assert Money(5, "EUR") != Money(5, "USD")
    assert Money(5, "EUR") != Money(6, "EUR")


def test_add_and_subtract():
    total = Money(1050, "EUR") + Money(275, "EUR")
    assert total == Money(1325, "EUR")
    assert Money(100, "EUR") - Money(250, "EUR") == Money(-150, "EUR")


def test_mixed_currencies_raise_value_error():
    with pytest.raises(ValueError):
        Money(1, "EUR") + Money(1, "USD")
    with pytest.raises(ValueError):
        Money(1, "EUR") - Money(1, "USD")


def test_adding_a_number_raises_type_error():
    with pytest.raises(TypeError):
        Money(1, "EUR") + 5
    with pytest.raises(TypeError):
        Money(1, "EUR") - 5


@pytest.mark.parametrize("cents, parts, shares", [
    (100, 3, [34, 33, 33]), (100, 4, [25, 25, 25, 25]), (5, 3, [2, 2, 1]), (2, 4, [1, 1, 0, 0]),
    (999, 1, [999]),
])
def test_split(cents, parts, shares):
    split = Money(cents, "USD").split(parts)
    assert [m.cents for m in split] == shares
    assert all(m.currency == "USD" for m in split)


def test_split_into_nothing_raises():
    with pytest.raises(ValueError):
        Money(100, "EUR").split(0)
