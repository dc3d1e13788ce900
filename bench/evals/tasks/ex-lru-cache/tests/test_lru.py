import pytest

from lru import LRUCache


def test_put_and_get():
    cache = LRUCache(2)
    cache.put("a", 1)
    assert cache.get("a") == 1
    assert cache.get("missing") is None
    assert cache.get("missing", 42) == 42


def test_least_recently_used_is_evicted():
    cache = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.get("a")
    cache.put("c", 3)
    assert "b" not in cache and "a" in cache and "c" in cache
    assert cache.evictions == 1


def test_updating_a_key_makes_it_recent_without_eviction():
    cache = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 10)
    assert cache.evictions == 0 and len(cache) == 2
    cache.put("c", 3)
    assert cache.keys() == ["a", "c"] and cache.get("a") == 10


def test_keys_from_least_to_most_recent():
    cache = LRUCache(3)
    for key in "xyz":
        cache.put(key, key.upper())
    cache.get("x")
    assert cache.keys() == ["y", "z", "x"]


def test_contains_and_missing_get_do_not_change_the_order():
    cache = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert "a" in cache
    cache.get("nothing")
    cache.put("c", 3)
    assert cache.keys() == ["b", "c"]


def test_capacity_one():
    cache = LRUCache(1)
    cache.put(1, "one")
    cache.put(2, "two")
    cache.put(3, "three")
    assert cache.keys() == [3] and cache.evictions == 2 and len(cache) == 1


def test_stored_none_is_returned():
    cache = LRUCache(2)
    cache.put("k", None)
    assert "k" in cache and cache.get("k", "default") is None


def test_evictions_start_at_zero():
    assert LRUCache(5).evictions == 0


@pytest.mark.parametrize("capacity", [0, -1, 1.5, "3"])
def test_bad_capacity_raises(capacity):
    with pytest.raises(ValueError):
        LRUCache(capacity)
