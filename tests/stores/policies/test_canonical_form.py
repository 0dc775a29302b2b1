"""The compiled form is canonical: the same sources compile to the same bytes in any process.

String hashes differ from one Python process to the next (PYTHONHASHSEED), so anything that takes its
order from a set would make `validate` and `doctor` call a cache the runs built "forged" (issue 24,
item 1: the literals of `network.pipe-to-shell`). Each project below is compiled in three processes
with different hash seeds, and the canonical bytes must be identical."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from cupcake.packs import PACK_DIR
from cupcake.stores.policies.whole_cache import canonical

PACKS = sorted(name[:-5] for name in os.listdir(PACK_DIR) if name.endswith(".toml"))

# Regex pieces chosen for what made the form unstable before: several required literals of one
# length (their order came from a set), quotes, classes, groups, alternatives, anchors.
PIECES = [
    "sh",
    "-c",
    "\\$\\(",
    "<\\(",
    "[\"']?",
    "\\s+",
    "(curl|wget)",
    "\\b",
    "^",
    "$",
    "rm",
    "-rf",
    "git",
    "push",
    "--force",
    "(?:ab|ba)",
    "[a-z]+",
    "\\.env",
    "(-s\\s+)?",
    "\\$\\{",
]
TOOLS = ["Bash", "Write", "Edit", "Read", "Write|Edit", "mcp__.*", "Bash|Write|Read", "Grep", ""]
EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "PermissionRequest"]
PROGRAMS = ["git", "rm", "curl", "sh", "python3", "docker", "npm"]
AGENTS = ["claude", "codex", "gemini", "copilot", "droid", "cursor"]


def _regex(rng) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))


def _toml(value) -> str:
    return json.dumps(value)  # a JSON string or list of strings is valid TOML


def _condition(rng, depth: int = 0) -> str:
    kind = rng.randrange(8 if depth < 2 else 6)
    if kind == 0:
        return f'{{ type = "command_regex", value = {_toml(_regex(rng))} }}'
    if kind == 1:
        return f'{{ type = "filepath_regex", value = {_toml(_regex(rng))} }}'
    if kind == 2:
        return f'{{ type = "file_content_regex", value = {_toml(_regex(rng))} }}'
    if kind == 3:
        return f'{{ type = "field", path = "tool_input.description", regex = {_toml(_regex(rng))} }}'
    if kind == 4:
        programs = rng.sample(PROGRAMS, rng.randint(1, 3))
        flags = rng.sample(["-f", "--force", "-r|-R", "-c", "--hard"], rng.randint(0, 2))
        return f'{{ type = "command", program = {_toml(programs)}, flags = {_toml(flags)} }}'
    if kind == 5:
        kind_name = rng.choice(["state_exists", "state_missing"])
        return f'{{ type = "{kind_name}", tool = "Read", path_regex = {_toml(_regex(rng))} }}'
    if kind == 6:
        return f"{{ not = {_condition(rng, depth + 1)} }}"
    inner = ", ".join(_condition(rng, depth + 1) for _ in range(rng.randint(1, 3)))
    return f"{{ any = [{inner}] }}"


def _action(rng, event: str) -> str:
    kind = rng.randrange(4)
    if kind == 0 or event not in ("PreToolUse", "PermissionRequest"):
        return f'{{ type = "block_with_feedback", feedback_message = {_toml(_regex(rng))} }}'
    if kind == 1:
        return f'{{ type = "provide_feedback", message = "m{rng.randrange(99)}" }}'
    if kind == 2:
        return '{ type = "ask", reason = "why" }'
    return '{ type = "approve" }'


def random_policy_file(seed: int) -> str:
    rng = random.Random(seed)
    imports = rng.sample(PACKS, rng.randint(0, 3))
    lines = [f"imports = {_toml(['cupcake:' + p for p in imports])}", ""]
    for n in range(rng.randint(1, 25)):
        event = rng.choice(EVENTS[:2]) if rng.random() < 0.8 else rng.choice(EVENTS)
        tools = rng.choice(TOOLS) if event in ("PreToolUse", "PostToolUse", "PermissionRequest") else ""
        lines.append("[[policy]]")
        lines.append(f'name = "p{n}"')
        lines.append(f'hook_event = "{event}"')
        if tools:
            lines.append(f"matcher = {_toml(tools)}")
        if rng.random() < 0.2:
            lines.append(f"agents = {_toml(rng.sample(AGENTS, rng.randint(1, 3)))}")
        conditions = ", ".join(_condition(rng) for _ in range(rng.randint(0, 4)))
        lines.append(f"conditions = [{conditions}]")
        lines.append(f"action = {_action(rng, event)}")
        lines.append("")
    return "\n".join(lines)


# Compiles each project given on the command line and prints {project: hex of the canonical bytes}.
_COMPILE = """
import json, os, sys
from cupcake.stores.policies.whole_cache import canonical
from cupcake.compile.compiler import compile_files
from cupcake.project import policy_files
out = {}
for root in sys.argv[1:]:
    compiled = compile_files(policy_files(root, os.environ), root, os.environ)
    out[root] = canonical({k: v for k, v in compiled.items() if k != "problems"}).hex()
print(json.dumps(out))
"""


def _compile_in_processes(roots, home, seeds=("0", "1", "4242")) -> list[dict]:
    results = []
    for seed in seeds:
        env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", _COMPILE, *map(str, roots)], capture_output=True, env=env, timeout=300
        )
        assert done.returncode == 0, done.stderr.decode()
        results.append(json.loads(done.stdout))
    return results


def _projects(tmp_path, texts: dict):
    roots = []
    for name, text in texts.items():
        root = tmp_path / name
        root.mkdir()
        (root / "cupcake.toml").write_text(text)
        roots.append(root)
    return roots


def test_every_built_in_pack_compiles_to_the_same_bytes_in_every_process(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    texts = {f"pack-{p}": f'imports = ["cupcake:{p}"]\n' for p in PACKS}
    texts["every-pack"] = f"imports = {_toml(['cupcake:' + p for p in PACKS])}\n"
    first, *others = _compile_in_processes(_projects(tmp_path, texts), home)
    for other in others:
        assert other == first


def test_random_policy_sets_compile_to_the_same_bytes_in_every_process(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    texts = {f"random-{seed}": random_policy_file(seed) for seed in range(40)}
    first, *others = _compile_in_processes(_projects(tmp_path, texts), home)
    assert len(set(first.values())) == len(texts)  # the sets differ: the generator is not vacuous
    for other in others:
        assert other == first


def test_canonical_bytes_tell_apart_what_equality_does_not():
    # 1 == True == 1.0 in Python: a forged cache that swaps one for the other is still caught.
    assert canonical({"a": (1,)}) != canonical({"a": (True,)})
    assert canonical({"a": (1,)}) != canonical({"a": (1.0,)})
    assert canonical({"a": (1,)}) != canonical({"a": [1]})


def test_canonical_bytes_ignore_how_the_value_was_built():
    shared = "x" * 40
    assert canonical({"a": (shared, shared)}) == canonical({"a": ("x" * 40, "".join(["x"] * 40))})
    assert canonical({"k": sys.intern("name")}) == canonical({"k": "".join(["na", "me"])})


def test_a_set_in_the_compiled_form_is_refused():
    with pytest.raises(TypeError):
        canonical({"a": [frozenset({"x", "y"})]})


def test_validate_trusts_the_cache_a_run_built_from_every_pack(project):
    """Through the installed executable, each command in its own process (its own string hashes)."""
    from tests.conftest import cupcake_executable, give_cache_secret

    give_cache_secret(project.home)  # as sync leaves it: without it no run writes a cache
    project.write_policy(f"imports = {_toml(['cupcake:' + p for p in PACKS])}\n")
    for _ in range(3):
        answer = project.send_process(project.tool_call("Bash", {"command": "ls -la"}))
        assert (answer.code, answer.stdout) == (0, b""), answer
        assert (project.root / ".cupcake" / "policy.cache").is_file()
        done = subprocess.run(
            [cupcake_executable(), "validate"], capture_output=True, cwd=project.root, env=project.env(), timeout=60
        )
        assert done.returncode == 0, done
        assert b"NOT trusted" not in done.stdout + done.stderr
        assert (project.root / ".cupcake" / "policy.cache").is_file()  # validate removes a cache it distrusts
