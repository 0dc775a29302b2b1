"""Secrets are masked before they reach the audit log; ordinary text is left alone (and cheap)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import cupcake
from cupcake.stores.audit.mask import mask, mask_cut

MASKED = [
    ("curl -H 'Authorization: Bearer abc.def-ghi_jkl'", "curl -H 'Authorization: Bearer ***'"),
    ('curl -H "authorization: token 0123456789abcdef"', 'curl -H "authorization: token ***"'),
    ("export ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "export ANTHROPIC_API_KEY=***"),
    ("echo sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "echo sk-ant-***"),
    ("stripe sk_live_abcdefghij1234", "stripe sk_live_***"),
    ("gh auth ghp_0123456789abcdefghij0123456789abcdef", "gh auth ghp_***"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "github_pat_***"),
    ("aws AKIAIOSFODNN7EXAMPLE", "aws AKIA***"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = ***"),
    ("slack xoxb-1234567890-abcdefghij", "slack xoxb-***"),
    ("psql postgres://admin:s3cr3t@db:5432/app", "psql postgres://admin:***@db:5432/app"),
    ("mysql --password hunter2", "mysql --password ***"),
    ("login password=hunter2 user=bob", "login password=*** user=bob"),
    ('{"api_key": "abcdef123456", "name": "x"}', '{"api_key": "***", "name": "x"}'),
    ("curl -u deploy:hunter2 https://x", "curl -u deploy:*** https://x"),
    ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIz", "jwt eyJ***"),
    (
        "key -----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY----- done",
        "key -----BEGIN PRIVATE KEY-----*** done",
    ),
]

UNTOUCHED = [
    "ls -la",
    "git push -u origin main",
    "npm test -- --watch=false",
    "cat src/keyboard.ts",
    "echo 'the author is Bob'",
    "curl https://example.com/path?q=1",
]


@pytest.mark.parametrize(("text", "expected"), MASKED)
def test_secrets_are_masked(text, expected):
    assert mask(text) == expected


@pytest.mark.parametrize("text", UNTOUCHED)
def test_ordinary_text_is_untouched(text):
    assert mask(text) == text


def test_mask_cut_scans_a_bounded_prefix_and_says_it_cut():
    text = "token=abcdefghijkl " + "x" * 10_000
    cut = mask_cut(text, 100)
    assert cut.startswith("token=*** ") and cut.endswith("…") and len(cut) == 101


def test_text_without_a_trigger_does_not_import_re():
    code = "import sys; from cupcake.stores.audit.mask import mask; mask('ls -la && make build'); print('re' in sys.modules)"
    repo = os.path.dirname(os.path.dirname(cupcake.__file__))
    # -S: no site (an editable install's import finder imports `re` itself)
    done = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True, env={"PYTHONPATH": repo}
    )
    assert done.stdout.strip() == "False"
    done = subprocess.run(
        [sys.executable, "-S", "-c", code.replace("ls -la", "token=x")],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": repo},
    )
    assert done.stdout.strip() == "True"  # the check above can fail


def test_with_the_cached_programs_masking_needs_no_re(tmp_path):
    import marshal

    from cupcake.stores.audit.mask import sre_forms

    (tmp_path / "forms").write_bytes(marshal.dumps(sre_forms()))
    code = (
        "import marshal, sys; from cupcake.stores.audit import mask; "
        f"mask.use_forms(marshal.loads(open({str(tmp_path / 'forms')!r}, 'rb').read())); "
        "print(mask.mask('curl -H \\'Authorization: Bearer abcdefgh\\' https://u:pw@x ghp_0123456789abcdefghij')); "
        "print('re' in sys.modules)"
    )
    repo = os.path.dirname(os.path.dirname(cupcake.__file__))
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env={"PYTHONPATH": repo})
    assert done.stdout.splitlines() == ["curl -H 'Authorization: Bearer ***' https://u:***@x ghp_***", "False"], done
