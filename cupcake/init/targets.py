"""Which policy files init produces: one per scope of rules found, each first written as a
temporary file in the project root (the only files the agent may write)."""

from __future__ import annotations

import os

from cupcake.init.memory import PROJECT, USER
from cupcake.project import PROJECT_FILE, user_policy_file

PROJECT_TMP = "cupcake.toml.tmp"
USER_TMP = "cupcake.user.toml.tmp"


class Target:
    __slots__ = ("scope", "tmp", "tmp_name", "final", "final_label", "rules", "saved_as")

    def __init__(self, scope, tmp_name, root, final, final_label, rules, saved_as):
        self.scope = scope
        self.tmp_name = tmp_name  # relative to the root, as the loader labels it
        self.tmp = os.path.join(root, tmp_name)
        self.final = final
        self.final_label = final_label
        self.rules = rules
        self.saved_as = saved_as


def targets_for(discovery, root: str, env) -> list[Target]:
    """The project file when project rules were found, the user file when the user's own were."""
    targets = []
    if discovery.of_scope(PROJECT):
        targets.append(
            Target(
                PROJECT,
                PROJECT_TMP,
                root,
                os.path.join(root, PROJECT_FILE),
                PROJECT_FILE,
                'The project\'s rules (every file marked "project rules" below)',
                "Cupcake saves it as the project's cupcake.toml.",
            )
        )
    if discovery.of_scope(USER):
        targets.append(
            Target(
                USER,
                USER_TMP,
                root,
                user_policy_file(env),
                "~/.claude/cupcake.toml",
                'The user\'s own rules (~/.claude/CLAUDE.md and what it imports, marked "user rules")',
                "Cupcake saves it as ~/.claude/cupcake.toml, which applies in every project of this user.",
            )
        )
    return targets


def files_run_loads(targets, root: str, env, written: bool = True) -> list[str]:
    """The policy files `run` will load once the targets are saved: each target's temporary file
    (``written``) or final file in its place, and the file of a scope init does not touch."""
    from cupcake.project import managed_policy_file

    by_scope = {t.scope: t for t in targets}
    paths = [managed_policy_file(env)]  # the organisation's file, which init never writes
    for scope, path in ((PROJECT, os.path.join(root, PROJECT_FILE)), (USER, user_policy_file(env))):
        target = by_scope.get(scope)
        paths.append((target.tmp if written else target.final) if target else path)
    return paths
