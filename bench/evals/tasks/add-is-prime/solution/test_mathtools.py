import unittest

from mathtools import is_prime


class PrimeTest(unittest.TestCase):
    def test_primes(self):
        self.assertTrue(is_prime(2))
        self.assertTrue(is_prime(13))

    def test_not_primes(self):
        self.assertFalse(is_prime(1))
        self.assertFalse(is_prime(9))


if __name__ == "__main__":
    unittest.main()
