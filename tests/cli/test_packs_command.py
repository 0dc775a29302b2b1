"""`cupcake packs NAME`, `cupcake packs --project`, and `[packs]` ids that name no rule (issue 24, item 8).
Through the installed executable, each command a fresh process."""

from __future__ import annotations

import json
import subprocess

from cupcake import packs
from tests.conftest import cupcake_executable


def _cli(project, *args):
    return subprocess.run(
        [cupcake_executable(), *args], capture_output=True, text=True, cwd=project.root, env=project.env(), timeout=60
    )


def test_packs_name_shows_that_pack_in_full(project):
    git = packs.load("git")
    done = _cli(project, "packs", "cupcake:git")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"cupcake:git — {git.description} ({len(git.rules)} rules)"
    assert lines[1] == 'Turn it on in cupcake.toml: imports = ["cupcake:git"]'
    first = git.rules[0]
    assert lines[3:6] == [
        f"{first['id']}  (critical, block, Bash)",
        f"  {first['message']}",
        "  catches: " + "; ".join(first["examples"]["stop"]),
    ]
    assert _cli(project, "packs", "git").stdout == done.stdout
    data = json.loads(_cli(project, "packs", "git", "--json").stdout)
    assert data["name"] == "git" and data["rules"][0]["examples"]["pass"] == first["examples"]["pass"]


def test_an_unknown_pack_is_a_usage_error_with_a_did_you_mean(project):
    done = _cli(project, "packs", "gti")
    assert (done.stdout, done.returncode) == ("", 2)
    assert done.stderr == 'cupcake packs: no built-in pack "gti" (did you mean "git"?) (`cupcake packs` lists them)\n'


def test_packs_project_shows_which_packs_and_rules_are_on(project):
    project.write_policy(
        'imports = ["cupcake:git"]\n\n[packs]\ndisable = ["git.force-push"]\n\n'
        '[packs.messages]\n"git.reset-hard" = "Stash first."\n'
    )
    done = _cli(project, "packs", "--project")
    assert done.returncode == 0, done.stderr
    rules = [r["id"] for r in packs.load("git").rules]
    expected = [f"cupcake:git (imported by cupcake.toml): {len(rules) - 1} of {len(rules)} rules on"]
    for rule_id in rules:
        if rule_id == "git.force-push":
            expected.append("  off  git.force-push  switched off by [packs] disable in cupcake.toml")
        elif rule_id == "git.reset-hard":
            expected.append("  on   git.reset-hard  message from [packs.messages]")
        else:
            expected.append(f"  on   {rule_id}")
    assert done.stdout.splitlines() == expected
    data = json.loads(_cli(project, "packs", "--project", "--json").stdout)
    assert [(r["id"], r["on"]) for r in data["packs"][0]["rules"]][:1] == [("git.force-push", False)]

    project.write_policy("# nothing yet\n")
    none = _cli(project, "packs", "--project")
    assert none.stdout == (
        'No pack is on in this project. Turn the recommended rules on with imports = ["cupcake:recommended"]'
        " in cupcake.toml (`cupcake packs` lists the packs).\n"
    )


def test_a_misspelled_id_in_packs_disable_is_an_error_and_the_rule_stays_on(project):
    project.write_policy('imports = ["cupcake:git"]\n\n[packs]\ndisable = ["git.force-psuh"]\n')
    done = _cli(project, "validate")
    assert (done.stdout, done.returncode) == (
        'cupcake.toml:4: error: [packs] disable: no built-in rule has the id "git.force-psuh" (did you mean'
        ' "git.force-push"?), so no rule is switched off for it (`cupcake packs` lists the ids)\n'
        "1 error, 0 warnings\n",
        1,
    )
    answer = project.send_process(project.tool_call("Bash", {"command": "git push --force"}))
    assert answer.specific["permissionDecision"] == "deny"
    assert '[packs] disable: no built-in rule has the id "git.force-psuh"' in answer.json["systemMessage"]


def test_an_unknown_id_in_packs_messages_is_reported_on_its_own_line(project):
    project.write_policy(
        'imports = ["cupcake:git"]\n\n[packs.messages]\n"git.reset-hard" = "Stash first."\n"git.nope" = "x"\n'
    )
    done = _cli(project, "validate")
    assert (done.stdout, done.returncode) == (
        'cupcake.toml:5: warning: [packs.messages]: no built-in rule has the id "git.nope" (did you mean'
        ' "git.no-verify"?), so this message is never shown\n'
        "0 errors, 1 warning\n",
        0,
    )


def test_packs_project_names_the_users_file_too(project):
    project.write_policy('imports = ["cupcake:git"]\n')
    project.write_user_policy('imports = ["cupcake:network"]\n')
    done = _cli(project, "packs", "--project")
    assert done.returncode == 0, done.stderr
    heads = [line for line in done.stdout.splitlines() if line.startswith("cupcake:")]
    git, network = len(packs.load("git").rules), len(packs.load("network").rules)
    assert heads == [
        f"cupcake:git (imported by cupcake.toml): {git} of {git} rules on",
        f"cupcake:network (imported by ~/.claude/cupcake.toml): {network} of {network} rules on",
    ]
