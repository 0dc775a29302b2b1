"""A project whose files are committed to git, with branches: for everyday git work that moves
between committed states (self-protection asks git whether Cupcake's files stay as they are)."""

from __future__ import annotations

import os
import subprocess

from pytest_bdd import given, parsers

_ENV = {
    "GIT_AUTHOR_NAME": "Dev",
    "GIT_AUTHOR_EMAIL": "dev@example.com",
    "GIT_COMMITTER_NAME": "Dev",
    "GIT_COMMITTER_EMAIL": "dev@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/nonexistent",
    "PATH": os.environ.get("PATH", os.defpath),
}


def _git(project, *args: str) -> None:
    subprocess.run(["git", *args], cwd=project.root, env=_ENV, capture_output=True, check=True, timeout=30)


@given("the project is committed to git on the branch main")
def committed(project):
    """Every file of the project so far (the policy files too) is committed on `main`."""
    (project.root / ".gitignore").write_text(".cupcake/\n")
    _git(project, "init", "-q", "-b", "main")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "initial")


@given(parsers.parse('the branch "{branch}" changes "{path}"'))
def branch_changes(project, branch, path):
    """A branch off `main` with one commit that changes (or adds) the file; `main` stays checked out."""
    _git(project, "checkout", "-qb", branch)
    target = project.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text((target.read_text() if target.exists() else "") + f"# changed on {branch}\n")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", f"change {path}")
    _git(project, "checkout", "-q", "main")
