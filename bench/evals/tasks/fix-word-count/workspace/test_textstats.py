import unittest

from textstats import line_count, word_count


class TextStatsTest(unittest.TestCase):
    def test_simple(self):
        self.assertEqual(word_count("one two three"), 3)

    def test_many_spaces(self):
        self.assertEqual(word_count("one   two  three "), 3)

    def test_tabs_and_newlines(self):
        self.assertEqual(word_count("one\ttwo\nthree"), 3)

    def test_lines(self):
        self.assertEqual(line_count("a\nb\n"), 2)


if __name__ == "__main__":
    unittest.main()
