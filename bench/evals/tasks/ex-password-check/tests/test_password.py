import pytest

from password import WeakPasswordError, check_password


def problems(password, username=""):
    with pytest.raises(WeakPasswordError) as raised:
        check_password(password, username)
    return raised.value.problems


def test_strong_password_passes():
    assert check_password("Summer2024!") is None
    assert check_password("correct Horse 9 battery?", "alice") is None


def test_example():
    assert problems("abc") == ["too short", "no digit", "no uppercase letter", "no symbol"]


def test_message_lists_the_problems():
    with pytest.raises(WeakPasswordError) as raised:
        check_password("Abcdefghij!")
    assert str(raised.value) == "weak password: no digit"


@pytest.mark.parametrize("password, problem", [
    ("Ab1!efgh", "too short"),
    ("Abcdefgh!x", "no digit"),
    ("ABCDEFGH1!", "no lowercase letter"),
    ("abcdefgh1!", "no uppercase letter"),
    ("Abcdefgh12", "no symbol"),
    ("Abcdeeef1!", "repeats a character"),
])
def test_single_problem(password, problem):
    assert problems(password) == [problem]


def test_username_ignoring_case():
    assert problems("xxBOB-likes-7", "bob") == ["contains the username"]
    assert check_password("xxBOB-likes-7") is None


def test_empty_username_is_ignored():
    assert check_password("Valid-pass-1", "") is None


def test_space_is_not_a_symbol():
    assert problems("Abcd efgh 12") == ["no symbol"]


def test_two_in_a_row_is_fine_three_is_not():
    assert check_password("Aab!!cd99xy") is None
    assert problems("Aab!!!cd99x") == ["repeats a character"]


def test_all_problems_in_order():
    assert problems("aaa", "aa") == ["too short", "no digit", "no uppercase letter",
                                     "no symbol", "contains the username",
                                     "repeats a character"]


def test_error_is_a_value_error():
    with pytest.raises(ValueError):
        check_password("short")


@pytest.mark.parametrize("value", [None, 12345678901, b"Summer2024!"])
def test_non_string_raises_type_error(value):
    with pytest.raises(TypeError):
        check_password(value)
