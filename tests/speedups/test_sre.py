"""Cached SRE programs behave exactly like re.compile, and a warm run with regex work imports no re."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from cupcake.speedups import compile_pattern, from_form, sre_form
from tests.conftest import give_cache_secret

PATTERNS = [
    r"rm\s+-rf\s+/",
    r"^(?!components/)",
    r"api_key\s*=\s*[\"']\w+",
    r"(?i)secret",
    r"(?P<verb>push|pull) origin",
    r"\bdebugger\b",
    r"mcp__github__.*",
    r"^https?://(www\.)?pastebin\.com/",
    r"[^\x00-\x7f]",
    r"(a|b)*c{2,3}$",
    "•+",
]
TEXTS = [
    "rm -rf /tmp",
    "src/a.ts",
    "components/a.ts",
    'api_key = "x1"',
    "SECRET",
    "git push origin main",
    "debugger;",
    "mcp__github__create",
    "https://pastebin.com/x",
    "héllo",
    "ababcc",
    "••",
    "",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_cached_program_matches_like_re(pattern):
    form = sre_form(pattern)
    assert form is not None
    form = json.loads(json.dumps(form))  # survives plain-data storage
    form = (form[0], form[1], form[2], form[3], tuple(form[4]))
    ours, theirs = from_form(pattern, form), re.compile(pattern)
    for text in TEXTS:
        a, b = ours.search(text), theirs.search(text)
        assert (a and (a.span(), a.groups(), a.groupdict())) == (b and (b.span(), b.groups(), b.groupdict()))
        assert bool(ours.fullmatch(text)) == bool(theirs.fullmatch(text))


def test_a_broken_program_falls_back_to_re():
    flags, code, groups, groupindex, indexgroup = sre_form(r"ab+c")
    broken = (flags, [999999] + code[1:], groups, groupindex, indexgroup)
    assert compile_pattern(r"ab+c", {r"ab+c": broken}).search("xabbc")


def test_a_warm_run_that_evaluates_regexes_imports_no_re(project):
    give_cache_secret(project.home)  # as sync leaves it: without it no run is warm
    project.write_policy(
        '[[policy]]\nname = "rm"\nmatcher = "Bash"\n'
        'conditions = [{ type = "command_regex", value = "rm\\\\s+-rf" }]\n'
        'action = { type = "block_with_feedback", feedback_message = "no" }\n'
    )
    payload = json.dumps(project.tool_call("Bash", {"command": "rm -rf build"}))
    project.send_process(json.loads(payload))  # builds the cache
    probe = (
        "import sys; before = 're' in sys.modules; from cupcake.cli.run import execute; import os; "
        f"ctx = execute({payload.encode()!r}, ['--event', 'PreToolUse'], dict(os.environ)); "
        "print(ctx.envelope[0].decode().strip()); print(before, 're' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=project.env(), timeout=30, cwd=project.root
    )  # imports the installed Cupcake, as the executable does
    answer, imported = done.stdout.strip().splitlines()
    assert '"permissionDecision":"deny"' in answer, done.stderr
    if imported.startswith("True"):
        pytest.skip("re is imported before Cupcake starts here (an editable install's import finder)")
    assert imported == "False False", done.stderr
