"""The starter enforces something, and doctor says when nothing is (issue 24, item 7). Through the
installed executable, each command a fresh process: `init --template`, then `validate`, the hook on the
calls the starter says it blocks, and `doctor`."""

from __future__ import annotations

import os
import subprocess

from tests.conftest import cupcake_executable

NO_POLICY_WARNING = (
    "warning  policies: the hooks are installed but no policy is active (every policy is commented out, or there"
    " is none): only self-protection is enforced\n"
    '         fix: turn on the recommended rules with imports = ["cupcake:recommended"] in cupcake.toml, or'
    " uncomment a policy\n"
)


def _cli(project, *args, env=None):
    return subprocess.run(
        [cupcake_executable(), *args],
        capture_output=True,
        text=True,
        cwd=project.root,
        env=env if env is not None else project.env(),
        timeout=120,
    )


def test_the_template_turns_on_the_recommended_rules_and_the_readmes_first_policy(project):
    done = _cli(project, "init", "--template", "--yes", "--no-sync")
    assert (done.stdout, done.stderr, done.returncode) == (
        "cupcake.toml: a starter that turns on Cupcake's recommended rules and one policy of your own"
        ' ("Keep xyz"); the other examples from Cupcake\'s design are off until you remove the `# ` in front of'
        " their lines.\n"
        "Saved cupcake.toml.\n"
        "Next: run `cupcake sync` to register Cupcake's hooks with Claude Code.\n",
        "",
        0,
    )
    valid = _cli(project, "validate")
    assert (valid.stdout, valid.returncode) == ("ok: 75 policies in cupcake.toml, cupcake:recommended\n", 0)

    own = project.send_process(project.tool_call("Bash", {"command": "rm -f xyz"}))
    assert own.specific["permissionDecisionReason"] == "Operation blocked: xyz must never be deleted"
    pack = project.send_process(project.tool_call("Bash", {"command": "git push --force origin main"}))
    assert pack.specific["permissionDecision"] == "deny"
    assert pack.specific["permissionDecisionReason"].endswith("[git.force-push]")
    fine = project.send_process(project.tool_call("Bash", {"command": "ls -la"}))
    assert (fine.stdout, fine.code) == (b"", 0)


def test_doctor_warns_when_the_hooks_are_installed_but_no_policy_is_active(project):
    # A login shell finds this cupcake too (doctor checks what a new terminal would run).
    bin_dir = os.path.dirname(cupcake_executable())
    (project.home / ".profile").write_text(f'PATH="{bin_dir}:$PATH"\nexport PATH\n')
    # ... and so does this process's PATH (another `cupcake` on the machine's PATH would be a warning too).
    env = project.env()
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    project.write_policy('# imports = ["cupcake:recommended"]\n\n# [[policy]]\n# name = "Keep xyz"\n')
    assert _cli(project, "sync", env=env).returncode == 0
    done = _cli(project, "doctor", env=env)
    assert done.returncode == 0, done.stdout
    assert NO_POLICY_WARNING in done.stdout
    assert done.stdout.endswith("0 problems, 1 warning.\n"), done.stdout

    project.write_policy('imports = ["cupcake:recommended"]\n')
    done = _cli(project, "doctor", env=env)
    assert "no policy is active" not in done.stdout
    assert done.stdout.endswith("0 problems, 0 warnings.\n"), done.stdout
