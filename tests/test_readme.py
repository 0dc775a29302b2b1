"""The README as a new user follows it (issue 16, item 17)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.conftest import REPO

README = (REPO / "README.md").read_text()


def test_the_quick_start_runs_as_written_and_leaves_the_shell_at_the_top_level(tmp_path):
    """The quick start's shell line that runs Cupcake, run at the top of a copy of the repository's
    example with this installation first on PATH, prints the answer the README shows, and the
    shell is still at the top level for the next command."""
    import shutil

    top = tmp_path / "repo"
    shutil.copytree(REPO / "examples" / "quickstart", top / "examples" / "quickstart")
    block = README[README.index("## Quick start") :]
    commands = re.search(r"```sh\n(.*?)```", block, re.S).group(1).strip().splitlines()
    run_line = next(line for line in commands if "cupcake run" in line)
    shown = re.search(r"```json\n(.*?)\n```", block, re.S).group(1)
    env = {
        "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
    }
    done = subprocess.run(
        ["sh", "-c", run_line + " && pwd"], cwd=top, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    answer, where = done.stdout.strip().splitlines()
    assert answer == shown
    assert os.path.realpath(where) == os.path.realpath(top)
    assert any("venv" in line for line in commands), "the quick start makes a virtual environment first"


def test_the_readme_names_no_document_outside_the_repository():
    for word in ("seed 0", "DESIGN.md", "design seeds", "Cupcake's design"):
        assert word not in README, word


def test_the_readme_documents_what_the_issue_asked_for():
    for needed in ("{{tool_input}}", "stop_block_limit", '"major_issues"', "shell = true", "settings.local.json*"):
        assert needed in README, needed
