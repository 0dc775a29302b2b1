"""``**`` in a path rule crosses every character, a newline too: a file name may hold one, and bash makes
such names without effort (``$'a\\nb'``). Real bash is the oracle for the path a line writes (run in the
reader's oracle jail, its HOME the project's home); the installed hook must then block the line. The
file tools and the "at any depth" form (``.ssh/id_*``) are checked with the same kind of path."""

from __future__ import annotations

import pytest

from tests.shell import oracle

POLICY = 'imports = ["cupcake:sensitive-files", "cupcake:secrets"]\n[settings]\nself_protection = false\n'
SSH = "sensitive-files.ssh-and-gnupg"

# (line, the folder it writes under, the rule that must block it)
LINES = [
    ("echo k > ~/.ssh/$'a\\nb'", ".ssh", SSH),
    ("echo k > ~/.ssh/$'\\n'", ".ssh", SSH),
    ("echo k > ~/.ssh/$'x\\n'", ".ssh", SSH),
    ("echo k > ~/.ssh/$'\\nx'", ".ssh", SSH),
    ('echo k > ~/.ssh/"a\nb"', ".ssh", SSH),
    ("n=$'\\n'; echo k > ~/.ssh/\"a${n}b\"", ".ssh", SSH),
    ("cd ~/.ssh && printf k > $'a\\nb'", ".ssh", SSH),
    ("/bin/mkdir -p ~/.gnupg/$'a\\nb' && echo k > ~/.gnupg/$'a\\nb'/c", ".gnupg", SSH),
    ("echo k >> ~/.aws/$'\\n'credentials", ".aws", "sensitive-files.credential-stores"),
]


@pytest.fixture(scope="module")
def stub_dir(tmp_path_factory):
    if not oracle.available():
        pytest.skip("needs bubblewrap")
    return oracle.stubs(tmp_path_factory.mktemp("stubs"))


@pytest.mark.parametrize("line, folder, rule", LINES, ids=[line for line, _f, _r in LINES])
def test_a_line_bash_runs_to_write_a_name_with_a_newline_under_a_guarded_folder_is_blocked(
    project, stub_dir, line, folder, rule
):
    guarded = project.home / folder
    guarded.mkdir()
    _calls, changed, _code = oracle.run(line, project.home.parent, stub_dir)  # HOME is project.home
    written = [p for p in changed if p.startswith(f"{guarded}/") and "\n" in p]
    assert written, f"bash wrote no name with a newline under ~/{folder}: {changed}"
    project.write_policy(POLICY)
    answer = project.send_process(project.tool_call("Bash", {"command": line}))
    assert answer.specific.get("permissionDecision") == "deny", (line, answer)
    assert answer.specific["permissionDecisionReason"].endswith(f"[{rule}]"), answer


@pytest.mark.parametrize(
    "tool, path, rule",
    [
        ("Write", "/etc/profile.d/a\nb.sh", "sensitive-files.shell-startup"),
        ("Write", "/etc/ssh/\n", SSH),
        ("Edit", "/usr/bin/a\nb", "sensitive-files.system-config"),
        ("Read", "/tmp/a\nb/.ssh/id_work", "secrets.credential-files"),
        ("Read", "/srv/\n/x/.ssh/id_\n", "secrets.credential-files"),
    ],
)
def test_a_file_tools_path_with_a_newline_under_a_guarded_folder_is_blocked(project, tool, path, rule):
    project.write_policy(POLICY)
    answer = project.send_process(project.tool_call(tool, {"file_path": path, "content": "x", "new_string": "x"}))
    assert answer.specific.get("permissionDecision") == "deny", (tool, path, answer)
    assert answer.specific["permissionDecisionReason"].endswith(f"[{rule}]"), answer
