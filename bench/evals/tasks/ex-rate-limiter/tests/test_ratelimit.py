import pytest

from ratelimit import RateLimiter


def test_example():
    limiter = RateLimiter(3, 10)
    assert [limiter.allow(t) for t in (0, 1, 2, 3)] == [True, True, True, False]
    assert limiter.allow(10) is True


def test_refused_requests_do_not_count():
    limiter = RateLimiter(1, 5)
    assert limiter.allow(0) is True
    assert limiter.allow(4) is False
    assert limiter.allow(5) is True
    assert limiter.allow(9.5) is False
    assert limiter.allow(10) is True


def test_sliding_window():
    limiter = RateLimiter(2, 10)
    assert limiter.allow(0) and limiter.allow(6)
    assert not limiter.allow(9)
    assert limiter.allow(10)
    assert not limiter.allow(15)
    assert limiter.allow(16)


def test_same_time_is_fine():
    limiter = RateLimiter(2, 1)
    assert limiter.allow(3) and limiter.allow(3)
    assert not limiter.allow(3)


def test_time_going_backwards_raises():
    limiter = RateLimiter(5, 10)
    limiter.allow(5)
    with pytest.raises(ValueError):
        limiter.allow(4.9)


def test_remaining_records_nothing():
    limiter = RateLimiter(3, 10)
    assert limiter.remaining(0) == 3
    limiter.allow(0)
    limiter.allow(2)
    assert limiter.remaining(5) == 1
    assert limiter.remaining(5) == 1
    assert limiter.remaining(10) == 2
    assert limiter.remaining(12) == 3


def test_float_window():
    limiter = RateLimiter(1, 0.5)
    assert limiter.allow(1.0)
    assert not limiter.allow(1.25)
    assert limiter.allow(1.5)


@pytest.mark.parametrize("limit, window", [(0, 10), (-1, 10), (1.5, 10), ("2", 10),
                                           (2, 0), (2, -1), (2, "10")])
def test_bad_settings_raise(limit, window):
    with pytest.raises(ValueError):
        RateLimiter(limit, window)
