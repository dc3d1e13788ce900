"""The most frequent words of a text."""


def top_words(text, n):
    """The ``n`` most frequent words of ``text`` with their counts."""
    import re
    import operator

    # Normalize text by removing punctuation and converting to lowercase
    text = re.sub(r'[^\w\s]', '', text).lower()

    # Split the text into words
    words = text.split()

    # Count the frequency of each word
    word_count = {}
    for word in words:
        if word in word_count:
            word_count[word] += 1
        else:
            word_count[word] = 1

    # Sort the words by frequency and then alphabetically
    sorted_words = sorted(word_count.items(), key=lambda x: (-x[1], x[0]))

    # Return the top n words
    return sorted_words[:n]
