"""The person's language: read from the request's script, the model's answer checked against it,
and the one sentence every stage instruction ends with."""

from __future__ import annotations

import pytest

from core.engine.language import decide, detect, is_english, script_for, script_of, word_count
from core.engine.authoring.prompts import authoring_language
from core.engine.stages.instructions import PERSON_FACING, language_ask
from core.engine.stages.schemas import concrete_question, parse_analysis, parse_summary
from core.schema import SchemaError
from tests.support.script import analysis

ZH = "Chinese (简体中文)"


@pytest.mark.parametrize("text, language", [
    ("把 config.py 里的端口改成 8080", ZH),
    ("把config.py里的端口改成8080", ZH),  # no spaces around the path
    ("请 review 一下这个 PR", ZH),  # technical English words inside Chinese
    ("用 `pytest -k slow` 给 utils/helpers.py 写单元测试", ZH),
    ("請把設定檔的連接埠改成 8080", "Chinese (繁體中文)"),
    ("config.pyのポートを8080に変更してください", "Japanese (日本語)"),
    ("config.py 파일의 포트를 8080으로 바꿔 주세요", "Korean (한국어)"),
    ("Измени порт в config.py на 8080", "Russian (русский)"),
    ("Змініть порт у config.py на 8080, будь ласка", "Ukrainian (українська)"),
    ("غيّر المنفذ في config.py إلى 8080", "Arabic (العربية)"),
    ("Άλλαξε τη θύρα στο config.py σε 8080", "Greek (Ελληνικά)"),
])
def test_the_script_of_the_request_names_its_language(text: str, language: str) -> None:
    assert detect(text) == language
    assert decide(text, "English") == language  # a small model's wrong answer does not win


@pytest.mark.parametrize("text", [
    "Change the port in config.py to 8080",
    'Replace the string "你好世界" with "Hello World" in main.py',  # quoted text is not prose
    "Fix the bug in `解析器.py` and src/模块/main.py",  # code and paths are not prose
])
def test_latin_prose_is_not_told_apart_by_script(text: str) -> None:
    assert script_of(text) == "latin" and detect(text) is None
    assert decide(text) == "English"


def test_the_models_answer_decides_where_the_script_cannot() -> None:
    assert decide("Corrige le port dans config.py", "French") == "French"
    assert decide("Corrige le port", "fr") == "French"  # a language code is named
    assert decide("Change it", "Chinese") == "English"  # Latin letters contradict it
    assert decide("8080", "Chinese") == "Chinese"  # no words: nothing contradicts it
    assert decide("8080") == "English"
    assert decide("Измени порт", "Bulgarian") == "Bulgarian"  # another Cyrillic language
    assert decide("Измени порт", "Chinese") == "Russian (русский)"
    assert decide("fix it", "{\"language\": \"x\"}") == "English"  # not a language name


def test_a_clarification_answer_keeps_the_language_of_the_request_it_answers() -> None:
    assert decide("8080", "English", prior=ZH) == ZH
    assert decide("port 8080 please", "English", prior=ZH) == ZH
    assert decide("用 8080", "English", prior="French") == ZH  # the script still wins


def test_english_costs_no_prompt_text_and_other_languages_one_sentence() -> None:
    assert all(language_ask(lang, stage) == "" for lang in ("", "English", "english (US)")
               for stage in PERSON_FACING)
    assert authoring_language("English") == ""
    ask = language_ask(ZH, "judge")
    assert ask == ("\n\nWrite user_summary, comments, failed_reason and task titles in Chinese "
                   "(简体中文), the person's language; code, paths and tool arguments stay as "
                   "they are.")
    assert is_english("") and not is_english(ZH)
    note = authoring_language(ZH)
    assert "Do not translate the file" in note and "Write" not in note


def test_the_analysis_records_the_models_language_answer() -> None:
    parsed = parse_analysis(analysis("Set the port", language="English")["arguments"])
    assert parsed.language == "English"
    assert parse_analysis(analysis("Set the port")["arguments"]).language == ""
    long = parse_analysis(analysis("Set the port", language="x" * 60)["arguments"]).language
    assert len(long) == 40  # the schema bounds it


def test_chinese_questions_and_summaries_count_their_words() -> None:
    assert word_count("你想修改哪个文件？") == 4 and word_count("Which file?") == 2
    assert concrete_question("改哪个文件？") and concrete_question("端口应该改成多少")
    assert not concrete_question("？") and not concrete_question("好")
    reply = parse_summary({"final_summary": "## 完成\n\n端口已改为 8080。", "requirements": []})
    assert reply.final_summary.startswith("## 完成")
    with pytest.raises(SchemaError):
        parse_summary({"final_summary": "## 好", "requirements": []})


@pytest.mark.parametrize(("language", "script"), [
    ("Chinese (简体中文)", "han"), ("Chinese (繁體中文)", "han"), ("Japanese (日本語)", "kana"),
    ("Korean (한국어)", "hangul"), ("Russian (русский)", "cyrillic"),
    ("Ukrainian (українська)", "cyrillic"), ("Persian (فارسی)", "arabic"),
    ("Hindi (हिन्दी)", "devanagari"), ("Greek (Ελληνικά)", "greek"),
    ("French", None), ("English", None), ("Serbian", None), ("", None), ("Klingon", None)])
def test_the_script_a_named_language_is_written_in(language: str, script: str | None) -> None:
    assert script_for(language) == script
