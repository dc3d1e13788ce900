import pytest

from naming import to_camel_case, to_snake_case


@pytest.mark.parametrize("name, snake", [
    ("parseHttpRequest", "parse_http_request"),
    ("ParseJSON", "parse_json"),
    ("XMLParser", "xml_parser"),
    ("getURLForID", "get_url_for_id"),
    ("userID", "user_id"),
    ("version2Beta", "version2_beta"),
    ("already_snake", "already_snake"),
    ("", ""),
    ("A", "a"),
    ("simple", "simple"),
    ("HTTPServer", "http_server"),
    ("loadFile2", "load_file2"),
])
def test_to_snake_case(name, snake):
    assert to_snake_case(name) == snake


@pytest.mark.parametrize("name, camel", [
    ("parse_http_request", "parseHttpRequest"),
    ("HTTP_server", "httpServer"),
    ("version2_beta", "version2Beta"),
    ("__init__value", "initValue"),
    ("Word", "word"),
    ("", ""),
    ("___", ""),
    ("a_b_c", "aBC"),
    ("user_id", "userId"),
    ("trailing_", "trailing"),
])
def test_to_camel_case(name, camel):
    assert to_camel_case(name) == camel


def test_round_trip_of_plain_camel_names():
    for name in ("parseHttpRequest", "userName", "maxValue2Here"):
        assert to_camel_case(to_snake_case(name)) == name
