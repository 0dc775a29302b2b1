"""Which directories git ignores, asked of git itself (``git check-ignore``), bounded in time.

One call per repository and directory level, never a shell: the paths go to git's stdin, NUL-separated.
"""

from __future__ import annotations

import os
import shutil

GIT_TIMEOUT = 10.0  # seconds for one check-ignore call


class GitIgnore:
    """Asks git, once per batch; remembers a failure so a broken git is reported once, not per level."""

    def __init__(self, env=None):
        self.env = dict(os.environ if env is None else env)
        self.git = shutil.which("git", path=self.env.get("PATH", os.defpath))
        self.problem: str | None = None

    def ignored(self, repo: str, paths: list[str]) -> set[str]:
        """The ones of ``paths`` (absolute, inside ``repo``) that git ignores there."""
        if not paths or self.git is None:
            return set()
        import subprocess

        relative = [os.path.relpath(p, repo) for p in paths]
        data = b"".join(os.fsencode(p) + b"\0" for p in relative)
        env = {k: v for k, v in self.env.items() if not k.startswith("GIT_")}
        env["GIT_TERMINAL_PROMPT"] = "0"
        try:
            done = subprocess.run(
                [self.git, "-C", repo, "check-ignore", "--stdin", "-z"],
                input=data,
                capture_output=True,
                timeout=GIT_TIMEOUT,
                env=env,
            )
        except subprocess.TimeoutExpired:
            self.problem = (
                f"`git check-ignore` took more than {GIT_TIMEOUT:.0f} s in {repo}; ignored folders were searched"
            )
            return set()
        except OSError as exc:
            self.problem = f"`git check-ignore` could not run: {exc.strerror or exc}; ignored folders were searched"
            return set()
        if done.returncode not in (0, 1):  # 1: none of them is ignored
            message = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or [f"exit {done.returncode}"]
            self.problem = f"`git check-ignore` failed in {repo}: {message[0]}; ignored folders were searched"
            return set()
        found = {os.fsdecode(p) for p in done.stdout.split(b"\0") if p}
        return {os.path.join(repo, p) for p in found}
