import datetime

import pytest

from dates import add_months, days_between, weekdays_between


@pytest.mark.parametrize("start, end, days", [
    ("2024-01-31", "2024-03-01", 30), ("2023-01-31", "2023-03-01", 29),
    ("2024-03-01", "2024-03-01", 0), ("2024-03-10", "2024-03-01", -9),
    ("1999-12-31", "2000-01-01", 1), ("2000-01-01", "2001-01-01", 366),
])
def test_days_between(start, end, days):
    assert days_between(start, end) == days


@pytest.mark.parametrize("start, end, count", [
    ("2024-03-01", "2024-03-11", 6), ("2024-03-02", "2024-03-04", 0),
    ("2024-03-04", "2024-03-04", 0), ("2024-03-04", "2024-03-05", 1),
    ("2024-01-01", "2025-01-01", 262), ("2024-03-08", "2024-03-12", 2),
])
def test_weekdays_between(start, end, count):
    assert weekdays_between(start, end) == count


def test_weekdays_between_matches_counting_day_by_day():
    start = datetime.date(2023, 5, 17)
    for length in range(0, 40):
        end = start + datetime.timedelta(days=length)
        expected = sum((start + datetime.timedelta(days=i)).weekday() < 5 for i in range(length))
        assert weekdays_between(start.isoformat(), end.isoformat()) == expected


def test_weekdays_between_rejects_end_before_start():
    with pytest.raises(ValueError):
        weekdays_between("2024-03-02", "2024-03-01")


@pytest.mark.parametrize("date, months, result", [
    ("2024-01-31", 1, "2024-02-29"), ("2023-01-31", 1, "2023-02-28"),
    ("2023-03-31", -1, "2023-02-28"), ("2024-05-15", 0, "2024-05-15"),
    ("2024-11-30", 3, "2025-02-28"), ("2024-01-15", -13, "2022-12-15"),
    ("2024-08-31", 1, "2024-09-30"), ("2020-02-29", 12, "2021-02-28"),
    ("2024-12-01", 1, "2025-01-01"),
])
def test_add_months(date, months, result):
    assert add_months(date, months) == result


@pytest.mark.parametrize("bad", ["2024-02-30", "2024-2-3", "20240203", "2024-03-01T00:00",
                                 " 2024-03-01", "", "2024-13-01", "2024-00-10", "24-03-01",
                                 "2024/03/01"])
def test_bad_dates_raise(bad):
    with pytest.raises(ValueError):
        days_between(bad, "2024-03-01")
    with pytest.raises(ValueError):
        days_between("2024-03-01", bad)
    with pytest.raises(ValueError):
        weekdays_between(bad, "2099-01-01")
    with pytest.raises(ValueError):
        add_months(bad, 1)
