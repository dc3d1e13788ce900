import unittest

from stats import mean, total


class StatsTest(unittest.TestCase):
    def test_total(self):
        self.assertEqual(total([1, 2, 3]), 6)

    def test_total_of_one(self):
        self.assertEqual(total([5]), 5)

    def test_mean(self):
        self.assertEqual(mean([2, 4]), 3)


if __name__ == "__main__":
    unittest.main()
