"""What the session log records of a command is masked where it looks like a secret."""

from __future__ import annotations

import pytest

from cupcake.state.secrets import mask

MASKED = [
    ("export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwx12", "export GITHUB_TOKEN=***"),
    ("API_KEY=abc123 npm start", "API_KEY=*** npm start"),
    ('DB_PASSWORD="correct horse" ./migrate', "DB_PASSWORD=*** ./migrate"),
    ("mysql --password=hunter2 -u root", "mysql --password=*** -u root"),
    ("mysql --password hunter2 -u root", "mysql --password *** -u root"),
    ("curl -H 'Authorization: Bearer eyJhbGciOi.abc.def' https://x", "curl -H 'Authorization: Bearer ***' https://x"),
    ("git clone https://bob:s3cret@github.com/acme/app", "git clone https://bob:***@github.com/acme/app"),
    ("curl 'https://api.x.com/v1?access_token=abc123&page=2'", "curl 'https://api.x.com/v1?access_token=***&page=2'"),
    ("echo sk-ant-api03-abcdefghijklmnopqrstuv", "echo ***"),
    ("stripe login sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe login ***"),
    ("aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE", "aws configure set aws_access_key_id ***"),
    ('{"client_secret": "abc"}', '{"client_secret": ***}'),
    ("printf '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----'", "printf '***'"),
]
UNCHANGED = [
    "npm test",
    "git commit -m 'Add cart'",
    "ls -la src/",
    "cat docs/passwords.md",
    "grep -rn token src/",
    "python -m pytest tests/test_auth.py -k login",
    "rm -rf build && make",
]


@pytest.mark.parametrize(("text", "expected"), MASKED)
def test_secret_looking_values_are_masked(text, expected):
    assert mask(text) == expected


@pytest.mark.parametrize("text", UNCHANGED)
def test_ordinary_commands_are_kept_as_they_are(text):
    assert mask(text) == text
