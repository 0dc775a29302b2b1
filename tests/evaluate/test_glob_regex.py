"""A path rule's glob as a regex (``pack_match.glob_regex``): a choice of names anywhere in the glob
(``~/{.ssh,.gnupg}/**``, ``{id_rsa,id_dsa}.bak``), brackets that hold no set kept as characters, and a
glob that makes no regex reported when the policy is compiled, never an error of a run. The Bash
prefilter's pieces of a glob (``needles``): every path the glob matches holds one of them."""

from __future__ import annotations

import re

import pytest

from cupcake.compile.pack_conditions import compile_pack_condition, needles
from cupcake.evaluate.pack_match import glob_regex


@pytest.mark.parametrize(
    "glob, matches, misses",
    [
        ("{id_rsa,id_dsa}.bak", ["id_rsa.bak", "id_dsa.bak"], ["id_rsa", "x.bak", "id_rsa.bak/x"]),
        ("~/{.ssh,.gnupg}/**", ["~/.ssh/x", "~/.gnupg/a/b", "~/.gnupg/a\nb"], ["~/.aws/x", "~/.ssh"]),
        ("a{1,2}b{x,y}", ["a1bx", "a2by"], ["a1b", "a3bx"]),
        ("*.{pem,key}", ["x.pem", ".key"], ["x.pub", "a/x.pem"]),
        ("x[", ["x["], ["x", "xa"]),
        ("[]", ["[]"], ["]"]),
        ("[!]", ["[!]"], ["a"]),
        ("[^]x", ["[^]x"], ["ax"]),
        ("[!a]b", ["cb", "\nb"], ["ab", "b"]),
        ("[]a]", ["]", "a"], ["b"]),
        ("[\\]", ["\\"], ["]"]),
        ("[[]", ["["], ["]"]),
        ("a?c", ["abc", "a\nc"], ["ac", "a/c"]),
        ("id_[rd]sa", ["id_rsa", "id_dsa"], ["id_sa", "id_rdsa"]),
        ("~/.config/{gh,git}/*.{yml,json}", ["~/.config/gh/hosts.yml", "~/.config/git/x.json"], ["~/.config/gh/x"]),
    ],
)
def test_a_glob_matches_what_it_names(glob, matches, misses):
    regex = re.compile(glob_regex(glob))
    assert [t for t in matches if not regex.match(t)] == []
    assert [t for t in misses if regex.match(t)] == []
    pieces = needles([glob])
    assert [t for t in matches if pieces and not any(p in t.lower() for p in pieces)] == [], pieces


def test_a_glob_of_many_choices_has_no_prefilter_and_compiles():
    many = "{a,b}" * 7 + "x"  # 128 spellings
    deep = "{a}" * 5000 + "x"  # more braces than the compiler would recurse through
    for glob in (many, deep):
        assert needles([glob]) == ()
        assert re.compile(glob_regex(glob)).match(glob.replace("{a,b}", "a").replace("{a}", "a"))


@pytest.mark.parametrize("kind", ["path", "project_file"])
def test_a_glob_that_makes_no_regex_is_reported_when_compiled(kind):
    reported = []
    cond = {"type": kind, "paths": ["*.pem", "[z-a].key"]}
    assert compile_pack_condition(cond, lambda message, key=None: reported.append(message)) is None
    assert reported == [
        f"condition {kind}: the glob '[z-a].key' cannot be read (bad character range z-a at position 1)"
    ]


def test_a_choice_of_folders_blocks_a_write_under_either(project):
    project.write_policy(
        "[[policy]]\n"
        'name = "keys"\n'
        'hook_event = "PreToolUse"\n'
        'conditions = [{ type = "path", access = "write", paths = ["~/{.ssh,.gnupg}/**"] }]\n'
        'action = { type = "block_with_feedback", feedback_message = "Not the key folders." }\n'
    )
    for command in ["echo k > ~/.gnupg/trustdb", "echo k > ~/.ssh/config"]:
        answer = project.send_process(project.tool_call("Bash", {"command": command}))
        assert answer.specific.get("permissionDecision") == "deny", (command, answer)
    answer = project.send_process(project.tool_call("Bash", {"command": "echo k > ~/.aws/x"}))
    assert answer.json is None or answer.specific.get("permissionDecision") != "deny", answer
