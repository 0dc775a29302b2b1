"""speedups.json_* give exactly what json gives, on every captured payload and on awkward values."""

from __future__ import annotations

import json

import pytest

from cupcake import speedups
from tests.conftest import PAYLOADS

AWKWARD = ["", "•", 'a\nb\t"c"\\', "\x00\x1f", "\u2028", "😀", "\ud800"]


@pytest.mark.parametrize("path", sorted(PAYLOADS.glob("*.json")), ids=lambda p: p.stem)
def test_captured_payloads_parse_and_print_like_json(path):
    data = path.read_bytes()
    assert speedups.json_loads(data) == json.loads(data)
    value = json.loads(data)
    assert speedups.json_dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("text", AWKWARD)
def test_strings_print_like_json(text):
    value = {"k": text, "n": [1, 2.5, True, False, None], text: {}}
    assert speedups.json_dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("bad", [b"", b"   ", b"{", b"{} {}", b"[1,]", b"\xff", b'{"a":1,}', b"nul"])
def test_bad_documents_are_value_errors(bad):
    with pytest.raises(ValueError):
        speedups.json_loads(bad)
    with pytest.raises(ValueError):
        json.loads(bad)


def test_whitespace_around_a_document_is_allowed():
    assert speedups.json_loads(b' \n{"a": [1]}\r\n') == {"a": [1]}


def test_a_syntax_error_is_a_value_error_in_a_fresh_interpreter():
    """The C scanner reports errors through json.decoder only when that module is already imported."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from cupcake import speedups\n"
        "assert 'json.decoder' not in sys.modules\n"
        "try:\n"
        "    speedups.json_loads(b'{not json')\n"
        "except ValueError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"


@pytest.mark.parametrize(
    "data",
    [b"", b"\xef\xbb\xbf", b"\xef\xbb\xbf{}", b"{}", b"\xef\xbb\xbf\xef\xbb\xbf1", "é€😀".encode()],
)
def test_utf8_text_is_the_utf_8_sig_codec(data):
    assert speedups.utf8_text(data) == data.decode("utf-8-sig")


@pytest.mark.parametrize(("data", "start"), [(b"a\xffb", 1), (b"\xef\xbb\xbf\xff", 3), (b"\xed\xa0\x80", 0)])
def test_utf8_text_says_where_the_bad_byte_is_in_what_was_sent(data, start):
    with pytest.raises(UnicodeDecodeError) as caught:
        speedups.utf8_text(data)
    assert caught.value.start == start and data[caught.value.start] == data[start]


def test_reading_input_imports_no_codec_module():
    import subprocess
    import sys
    from pathlib import Path

    code = (
        f"import sys; sys.path.insert(0, {str(Path(speedups.__file__).parents[1])!r})\n"
        "from cupcake import speedups\n"
        "speedups.json_loads(b'\\xef\\xbb\\xbf{\"a\": 1}')\n"
        "print(sorted(m for m in sys.modules if m.startswith('encodings.utf_8_sig')))\n"
    )
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("key", [1, 2.5, True, None])
def test_keys_that_are_not_strings_print_like_json(key):
    value = {key: [key], "nested": {key: {"a": (1, 2)}}}
    assert speedups.json_dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (float("nan"), ValueError),
        (float("inf"), ValueError),
        ({1, 2}, TypeError),
        (b"x", TypeError),
        ({(1,): 2}, TypeError),
    ],
)
def test_what_json_cannot_hold_is_refused(value, error):
    with pytest.raises(error):
        speedups.json_dumps({"v": [value]})


def test_a_large_store_prints_like_json():
    """The approvals store of a blocked call, at its cap of pending codes."""
    entry = {"id": "a1b2c3", "code": "f" * 64, "input": {"command": "rm -rf ~ • ünïcode"}, "created": 1.5e9, "n": None}
    value = {"v": 1, "pending": [dict(entry, id=str(i)) for i in range(100)], "grants": [], "wrong": [1.25]}
    assert speedups.json_dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
