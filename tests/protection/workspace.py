"""A realistic workspace for the Bash sets: a git project whose policy files are committed (with an
import glob), Claude Code's settings, ordinary sources, archives and patches both harmless and
hostile, branches `feature` (an ordinary change) and `evil` (another cupcake.toml), two stashes
(the newest ordinary, the older changing cupcake.toml), and a home holding Cupcake's cache key."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from tests.conftest import Project

POLICY = 'imports = ["cupcake:recommended", "policies/*.toml"]\n'
SECURITY = '[[policy]]\nname = "Review auth"\nmatcher = "Write"\nconditions = [{ type = "filepath_regex", value = "^src/auth/" }]\naction = { type = "ask", reason = "auth code" }\n'
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Dev",
    "GIT_AUTHOR_EMAIL": "dev@example.com",
    "GIT_COMMITTER_NAME": "Dev",
    "GIT_COMMITTER_EMAIL": "dev@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": "/nonexistent",
    "PATH": os.environ.get("PATH", os.defpath),
}


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env=GIT_ENV, capture_output=True, text=True, check=True)
    return done.stdout


def _write(root: Path, files: dict) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _tar(path: Path, members: dict) -> None:
    with tarfile.open(path, "w:gz" if path.name.endswith("gz") else "w") as archive:
        for name, text in members.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


def _zip(path: Path, members: dict) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)


def _ar(path: Path, members: dict) -> None:
    out = [b"!<arch>\n"]
    for name, text in members.items():
        data = text.encode()
        header = f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{644:<8}{len(data):<10}`\n".encode()
        out.append(header + data + (b"\n" if len(data) % 2 else b""))
    path.write_bytes(b"".join(out))


FIX_PATCH = "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-print('app')\n+print('app v2')\n"
EVIL_PATCH = "--- a/cupcake.toml\n+++ b/cupcake.toml\n@@ -1 +1 @@\n-x\n+y\n"


def build(base: Path) -> Project:
    root = base / "project"
    home = base / "home"
    root.mkdir(parents=True)
    home.mkdir()
    _write(
        root,
        {
            "cupcake.toml": POLICY,
            "policies/security.toml": SECURITY,
            ".claude/settings.json": "{}\n",
            ".gitignore": ".cupcake/\n.venv/\nbuild/\nnode_modules/\n",
            "README.md": "# demo\n",
            "src/app.py": "print('app')\n",
            "src/old.py": "x = 1\n",
            "tests/test_app.py": "def test_app():\n    assert True\n",
            "package.json": '{"name": "demo", "scripts": {"test": "true", "build": "true"}, "dependencies": {}}\n',
            "pyproject.toml": '[project]\nname = "demo"\nversion = "0.1.0"\n',
            "requirements.txt": "requests\n",
            "Makefile": "all:\n\ttrue\ntest:\n\ttrue\n",
            "scripts/build.sh": "#!/bin/sh\necho building\nmkdir -p build\n",
            "scripts/check.js": "console.log('ok')\n",
            "docs/Makefile": "html:\n\ttrue\n",
            "names.txt": "ada\nbob\n",
            "a.txt": "1\n2\n",
            "b.txt": "2\n3\n",
            "data.csv": "x,1\ny,2\n",
            "fix.patch": FIX_PATCH,
            "template/docs/guide.md": "# guide\n",
        },
    )
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "initial")
    # `feature`: an ordinary change; `evil`: another cupcake.toml, a script, a link out of the tree
    _git(root, "checkout", "-qb", "feature")
    (root / "src/app.py").write_text("print('feature')\n")
    _git(root, "commit", "-qam", "feature work")
    _git(root, "checkout", "-q", "main")
    _git(root, "checkout", "-qb", "evil")
    (root / "cupcake.toml").write_text("[settings]\nself_protection = false\n")
    (root / "run.sh").write_text("rm -f cupcake.toml\n")
    os.symlink(".claude", root / "linkdir")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "evil")
    mbox = _git(root, "format-patch", "-1", "--stdout", "evil")
    _git(root, "checkout", "-q", "main")
    # stashes: stash@{1} changes cupcake.toml, stash@{0} an ordinary file
    (root / "cupcake.toml").write_text(POLICY + "# changed\n")
    _git(root, "stash", "-q")
    (root / "src/app.py").write_text("print('stashed')\n")
    _git(root, "stash", "-q")
    _write(
        root,
        {
            "evil.patch": EVIL_PATCH,
            "evil.mbox": mbox,
            "evil.sed": "w cupcake.toml\n",
            "evil.curlrc": 'output = "cupcake.toml"\n',
            "evil.sh": "rm -f cupcake.toml\n",
            "evil/cupcake.toml": "[settings]\nself_protection = false\n",
            "fix.py": "import sys\nopen(sys.argv[1], 'w').close()\n",
            "sign.py": "import sys\nprint(open(sys.argv[1], 'rb').read().hex())\n",
            "name.txt": "../cupcake.toml\n",
            ".dir": str(root) + "\n",
            "t.txt": "rm cupcake.toml\n",
            "p.txt": "$(rm cupcake.toml)\n",
            "num.txt": "a[$(rm cupcake.toml)]\n",
            "cmd.txt": "rm cupcake.toml\n",
            "run.txt": "rm cupcake.toml\n",
            "dump.hex": "00000000: 78                                       x\n",
        },
    )
    (root / "build").mkdir()
    (root / "bin").mkdir()
    (root / "dist").mkdir()
    _tar(root / "dist/release.tar.gz", {"src/extra.py": "x = 2\n", "docs/notes.md": "notes\n"})
    _zip(root / "dist/assets.zip", {"assets/logo.svg": "<svg/>\n"})
    _tar(root / "evil.tar", {"cupcake.toml": "[settings]\nself_protection = false\n"})
    _zip(root / "evil.zip", {"cupcake.toml": "[settings]\nself_protection = false\n"})
    _ar(root / "evil.a", {"cupcake.toml": "[settings]\nself_protection = false\n"})
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    # the home: Claude Code's settings and the cache key (as a first run makes it)
    (home / ".claude").mkdir()
    (home / ".claude/settings.json").write_text("{}\n")
    key = home / ".cache/cupcake/cache-secret"
    key.parent.mkdir(parents=True)
    key.write_bytes(os.urandom(32))
    key.chmod(0o600)
    project = Project(root, home)
    return project


def git_available() -> bool:
    return shutil.which("git") is not None
