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
