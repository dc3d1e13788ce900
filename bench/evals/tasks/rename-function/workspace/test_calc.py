import unittest

from calc import add_numbers, double


class CalcTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add_numbers(2, 2), 4)

    def test_double(self):
        self.assertEqual(double(5), 10)


if __name__ == "__main__":
    unittest.main()
