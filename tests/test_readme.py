"""The README and the docs pages as a new user follows them (issue 16, item 17; issue 22, item 7): the
quick start runs as written, every policy example loads, every command line names real options."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO

README = (REPO / "README.md").read_text()
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
DOCS = {page.relative_to(REPO).as_posix(): page.read_text(encoding="utf-8") for page in PAGES}
FILE_KEYS = {"policy_schema_version", "settings", "policy", "imports", "packs", "pipeline"}
POLICY_KEYS = {"name", "description", "hook_event", "matcher", "agents", "conditions", "action"}


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
    everything = "\n".join(DOCS.values())
    for needed in ("{{tool_input}}", "stop_block_limit", '"major_issues"', "shell = true", "settings.local.json*"):
        assert needed in everything, needed


def test_the_readme_stays_short_and_every_page_it_links_exists():
    assert README.count("\n") < 250
    for page, text in DOCS.items():
        base = (REPO / page).parent
        for link in re.findall(r"\]\(([^)#:]+\.md)\)", text):
            assert (base / link).is_file(), f"{page} links {link}, which does not exist"


def _toml_examples():
    """(page, line, text) of each ```toml block; a block of alternatives (several `action =` lines)
    is one example per line."""
    import tomli

    for page, text in DOCS.items():
        for found in re.finditer(r"```toml\n(.*?)```", text, re.S):
            line = text.count("\n", 0, found.start()) + 2
            block = found.group(1)
            try:
                tomli.loads(block)
            except tomli.TOMLDecodeError:
                for n, piece in enumerate(block.splitlines()):
                    if piece.strip() and not piece.startswith((" ", "#")):
                        yield page, line + n, piece + "\n"
                continue
            yield page, line, block


def _as_policy_file(example: str):
    """The example as a whole policy file (a fragment becomes one policy), or None when it is
    another kind of file (a test scenario, an integrator's pyproject)."""
    import tomli

    keys = set(tomli.loads(example))
    if keys <= FILE_KEYS:
        return example
    if keys <= POLICY_KEYS:
        policy = {"name": '"example"', "action": '{ type = "provide_feedback", message = "x" }'}
        fixed = "".join(f"{k} = {v}\n" for k, v in policy.items() if k not in keys)
        return "[[policy]]\n" + fixed + example
    return None


@pytest.mark.parametrize("page, line, example", list(_toml_examples()), ids=lambda v: str(v)[:40])
def test_every_policy_example_in_the_docs_loads(tmp_path, page, line, example):
    """Copied into a project as it stands, it loads with no error (warnings are allowed: some examples
    show what `validate` warns about)."""
    from cupcake.compile.compiler import compile_files

    text = _as_policy_file(example)
    if text is None:
        pytest.skip("not a policy file")
    for relative in re.findall(r'"([\w./-]+\.(?:toml|md))"', text):  # the files an example names exist
        if "*" not in relative and not relative.startswith(("~", "/")):
            (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / relative).write_text("" if relative.endswith(".toml") else "text\n")
    (tmp_path / "cupcake.toml").write_text(text)
    compiled = compile_files([str(tmp_path / "cupcake.toml")], str(tmp_path), {"HOME": str(tmp_path)})
    errors = [p["message"] for p in compiled["problems"] if p["severity"] == "error"]
    assert errors == [], f"{page}:{line}: {errors}"


def _command_lines():
    for page, text in DOCS.items():
        for found in re.finditer(r"```sh\n(.*?)```", text, re.S):
            for line in found.group(1).splitlines():
                line = line.split("#", 1)[0].strip()
                if line.startswith("cupcake ") and " < " not in line:
                    yield page, line


def test_every_cupcake_command_line_in_the_docs_names_real_options():
    """Each `cupcake …` line of a shell example: its command exists and takes every option it gives."""
    import shlex

    exe = os.path.join(os.path.dirname(sys.executable), "cupcake")
    helps: dict = {}
    for page, line in _command_lines():
        argv = shlex.split(line)[1:]
        command = (
            next((a for a in argv if not a.startswith("-")), None) if argv and not argv[0].startswith("-") else None
        )
        if command not in helps:
            args = [exe, command, "--help"] if command else [exe, "--help"]
            done = subprocess.run(args, capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, f"{page}: `{line}`: {done.stderr}"
            helps[command] = done.stdout
        for option in (a.split("=", 1)[0] for a in argv if a.startswith("--")):
            assert option in helps[command], f"{page}: `{line}`: {option} is not an option of cupcake {command or ''}"
