"""The language a person writes in: read from the request's script, checked against the model.

Small models often call a Chinese request "English", so the script of the request's own
words decides where it can: Han characters mean Chinese (kana among them Japanese), Hangul
Korean, and so on. Code, paths and quoted text are left out of the count, and a non-Latin
script wins a tie with Latin words (technical English terms are common in other languages;
the reverse is rare). Latin script cannot tell English from French: there the model's answer
stands if it names a human language (``HUMAN_LANGUAGES``: a programming language or a file
type is not one) of that script, and without one the language is English.
"""

from __future__ import annotations

import re

_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`|https?://\S+|"
                   r"[A-Za-z0-9_.-]*[A-Za-z0-9][./\\_][A-Za-z0-9_][A-Za-z0-9_./\\-]*", re.S)
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」|『[^』\n]*』")
# (script, pattern, words per match): Han, kana and Hangul put no spaces between words, so
# each character counts as one; Thai neither, four letters to a word; the rest count words.
_SCRIPTS: tuple[tuple[str, re.Pattern[str], float], ...] = (
    ("han", re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"), 1.0),
    ("kana", re.compile(r"[\u3040-\u30ff]"), 1.0),
    ("hangul", re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]"), 1.0),
    ("thai", re.compile(r"[\u0e00-\u0e7f]"), 0.25),
    ("cyrillic", re.compile(r"[\u0400-\u04ff]+"), 1.0),
    ("greek", re.compile(r"[\u0370-\u03ff]+"), 1.0),
    ("arabic", re.compile(r"[\u0600-\u06ff\u0750-\u077f]+"), 1.0),
    ("hebrew", re.compile(r"[\u0590-\u05ff]+"), 1.0),
    ("devanagari", re.compile(r"[\u0900-\u097f]+"), 1.0),
    ("latin", re.compile(r"[A-Za-z\u00c0-\u024f]+"), 1.0),
)
# Characters written differently in simplified and traditional Chinese, common in requests.
_SIMPLIFIED = set("这们说对时会来为发见问题让个给还进过车门长开关电话语请读写样么应该务实现码数据设项"
                  "错误测试运输处动态变类获删储录单页网络从后与当没经并将号级节点击认证户线条图标显帮"
                  "报导转换间边总结构视缓")
_TRADITIONAL = set("這們說對時會來為發見問題讓個給還進過車門長開關電話語請讀寫樣麼應該務實現碼數據設項"
                   "錯誤測試運輸處動態變類獲刪儲錄單頁網絡從後與當沒經並將號級節點擊認證戶線條圖標顯幫"
                   "報導轉換間邊總結構視緩")
_NAMES = {"kana": "Japanese (日本語)", "hangul": "Korean (한국어)", "thai": "Thai (ไทย)",
          "greek": "Greek (Ελληνικά)", "hebrew": "Hebrew (עברית)", "arabic": "Arabic (العربية)",
          "cyrillic": "Russian (русский)", "devanagari": "Hindi (हिन्दी)"}
# Languages the model may name for a script whose default the letters alone cannot settle.
_REFINES = {"cyrillic": {"russian", "ukrainian", "belarusian", "bulgarian", "serbian",
                         "macedonian", "kazakh", "kyrgyz", "mongolian", "tajik"},
            "arabic": {"arabic", "persian", "farsi", "urdu", "pashto", "uyghur"},
            "devanagari": {"hindi", "marathi", "nepali", "sanskrit"}}
_NOT_LATIN = {"chinese", "mandarin", "cantonese", "japanese", "korean", "thai", "greek",
              "hebrew", "yiddish", *(name for names in _REFINES.values() for name in names)} \
    - {"serbian"}  # written in both scripts
_OWN_SCRIPT = {"han": {"chinese", "mandarin", "cantonese"}, "kana": {"japanese"},
               "hangul": {"korean"}, "thai": {"thai"}, "greek": {"greek"},
               "hebrew": {"hebrew", "yiddish"}, **_REFINES}
_CODES = {"en": "English", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "fr": "French",
          "de": "German", "es": "Spanish", "pt": "Portuguese", "it": "Italian", "nl": "Dutch",
          "ru": "Russian", "uk": "Ukrainian", "pl": "Polish", "tr": "Turkish", "vi": "Vietnamese",
          "ar": "Arabic", "fa": "Persian", "he": "Hebrew", "hi": "Hindi", "id": "Indonesian",
          "sv": "Swedish", "cs": "Czech", "el": "Greek", "th": "Thai"}
# The human languages an analysis may name (lower case, the first word of its answer):
# anything else — "Python", "JSON", "Markdown" — is not the person's language.
HUMAN_LANGUAGES = frozenset({
    "english", "chinese", "mandarin", "cantonese", "japanese", "korean", "french", "german",
    "spanish", "portuguese", "italian", "dutch", "russian", "ukrainian", "belarusian",
    "polish", "czech", "slovak", "slovenian", "croatian", "serbian", "bosnian", "bulgarian",
    "macedonian", "romanian", "hungarian", "finnish", "estonian", "latvian", "lithuanian",
    "swedish", "norwegian", "danish", "icelandic", "greek", "turkish", "arabic", "persian",
    "farsi", "hebrew", "yiddish", "hindi", "urdu", "bengali", "punjabi", "marathi", "nepali",
    "sanskrit", "tamil", "telugu", "kannada", "malayalam", "gujarati", "thai", "vietnamese",
    "indonesian", "malay", "filipino", "tagalog", "swahili", "afrikaans", "catalan", "basque",
    "galician", "irish", "welsh", "albanian", "armenian", "georgian", "azerbaijani", "kazakh",
    "kyrgyz", "uzbek", "tajik", "mongolian", "pashto", "uyghur", "amharic", "esperanto",
    "latin", "brazilian", "castilian"})
_DENSE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
                    r"\u1100-\u11ff\u3130-\u318f]")
_WORD = re.compile(r"[^\W\d_]{2,}")
_CLAIM = re.compile(r"[^\W\d_][^\n{}\[\]<>\"`]{0,39}")
_LETTERS = re.compile(r"[^\W\d_]+")
ENGLISH = "English"


def _counts(text: str) -> dict[str, float]:
    """Words of each script in ``text`` without its code, paths and (where more is left)
    quoted text."""
    prose = _CODE.sub(" ", text)
    unquoted = _QUOTED.sub(" ", prose)
    if _LETTERS.search(unquoted):
        prose = unquoted
    return {name: len(pattern.findall(prose)) * weight for name, pattern, weight in _SCRIPTS}


def script_of(text: str) -> str | None:
    """The script most of the request's words are written in ("han", "kana", "latin", ...);
    ``None`` when it has no words. Kana among Han characters makes it Japanese ("kana")."""
    counts = _counts(text)
    if counts["kana"]:
        counts["kana"] += counts.pop("han")
    best = max(counts.values())
    if not best:
        return None
    # Latin comes last: a tie goes to the other script.
    return next(name for name, count in counts.items() if count == best)


def _chinese(text: str) -> str:
    traditional = sum(ch in _TRADITIONAL for ch in text)
    simplified = sum(ch in _SIMPLIFIED for ch in text)
    return "Chinese (繁體中文)" if traditional > simplified else "Chinese (简体中文)"


def _claimed(claimed: str) -> str:
    """The model's answer made a human language's name ("" when it names none: a
    programming language, a file type, anything not on the list)."""
    text = " ".join(claimed.split())
    if not _CLAIM.fullmatch(text):
        return ""
    code = _CODES.get(text.lower().replace("_", "-").split("-")[0])
    if code and len(text) <= 5:
        return code
    if _first_word(text) not in HUMAN_LANGUAGES:
        return ""
    return text[0].upper() + text[1:]


def _first_word(language: str) -> str:
    words = _LETTERS.findall(language.lower())
    return words[0] if words else ""


def detect(text: str) -> str | None:
    """The language the script of ``text`` shows, or ``None`` where the script cannot tell
    (Latin letters, or no words at all)."""
    script = script_of(text)
    if script == "han":
        return _chinese(text)
    if script == "cyrillic" and re.search(r"[ієїґІЄЇҐ]", text):
        return "Ukrainian (українська)"
    if script == "arabic" and re.search(r"[ٹڈڑںے]", text):
        return "Urdu (اردو)"
    if script == "arabic" and re.search(r"[پچژگکی]", text):
        return "Persian (فارسی)"
    return _NAMES.get(script or "")


def decide(text: str, claimed: str = "", prior: str = "") -> str:
    """The request's language: what its script shows (the model's answer only where it names
    another language of that script); else ``prior``, the language of the request that a
    clarification answer continues; else the model's answer unless the request's Latin
    letters contradict it; else English."""
    script = script_of(text)
    answer = _claimed(claimed)
    word = _first_word(answer)
    if script in _REFINES and word in _REFINES[script]:
        return answer
    found = detect(text)
    if found:
        return found
    if prior and not is_english(prior):
        return prior
    if answer and (script is None or word not in _NOT_LATIN):
        return answer
    return ENGLISH


def script_for(language: str) -> str | None:
    """The script a language the engine names is written in, where it is not Latin ("han" for
    Chinese, "kana" for Japanese, "cyrillic" for Russian, ...); ``None`` for a language of the
    Latin script, one written in two scripts (Serbian), or one not known."""
    word = _first_word(language)
    if word in _NOT_LATIN:
        return next((script for script, names in _OWN_SCRIPT.items() if word in names), None)
    return None


def is_english(language: str) -> bool:
    """English (or not known): the language the engine's instructions are written in."""
    return not language or _first_word(language) == "english"


def word_count(text: str) -> int:
    """Words in ``text``, counting two Han, kana or Hangul characters as one word (those
    scripts put no spaces between words)."""
    dense = len(_DENSE.findall(text))
    return len(_WORD.findall(_DENSE.sub(" ", text))) + (dense + 1) // 2
