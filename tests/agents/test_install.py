"""Each agent's hook file: the entries Cupcake writes, edited in place, idempotent, removable."""

from __future__ import annotations

import importlib
import json

import pytest

AGENTS = ("codex", "gemini", "copilot", "droid", "cursor")


def open_guard(word: str = "cupcake") -> str:
    from cupcake.agents.hook_command import _MISSING, OPEN_GUARD

    return OPEN_GUARD.format(missing=_MISSING.format(exe=word))


def closed_guard(word: str = "cupcake") -> str:
    from cupcake.agents.hook_command import _FAILED, CLOSED_GUARD

    return CLOSED_GUARD.format(failed=_FAILED.format(exe=word))


OTHER = '{\n  "theme": "dark",\n  "hooks": {\n    "%s": [\n      %s\n    ]\n  }\n}\n'


def install(name):
    return importlib.import_module(f"cupcake.agents.{name}.install")


@pytest.mark.parametrize("name", AGENTS)
def test_sync_twice_changes_nothing_and_uninstall_restores_every_byte(name):
    mod = install(name)
    pre = importlib.import_module(f"cupcake.agents.{name}").CAPABILITIES["PreToolUse"]["agent_events"][0]
    grouped = name in ("codex", "gemini", "droid")
    key = "bash" if name == "copilot" else "command"
    theirs = (
        '{"matcher": "x", "hooks": [{"type": "command", "command": "their-tool"}]}'
        if grouped
        else '{"type": "command", "%s": "their-tool"}' % key
    )
    original = OTHER % (pre, theirs)
    once = mod.update_text(original, mod.EVENTS, "cupcake", 30)
    assert once.startswith('{\n  "theme": "dark",') and "their-tool" in once
    assert f"cupcake run --agent {name} --event {pre}" in once
    assert mod.update_text(once, mod.EVENTS, "cupcake", 30) == once
    changed = mod.update_text(once, mod.EVENTS, "/opt/bin/cupcake", 30, closed=True)
    assert changed.count("/opt/bin/cupcake run") == once.count("cupcake run") and "exit 2; }" in changed
    assert mod.update_text(changed, mod.EVENTS, "cupcake", 30, uninstall=True) == original
    json.loads(changed)


@pytest.mark.parametrize("name", AGENTS)
def test_a_broken_file_is_refused(name):
    with pytest.raises(ValueError, match="not valid JSON"):
        install(name).update_text('{"hooks": ', ["PreToolUse"], "cupcake", 30)
    with pytest.raises(ValueError, match="not a JSON object"):
        install(name).update_text("[]", ["PreToolUse"], "cupcake", 30)


def test_entries_in_each_agents_own_form():
    assert install("gemini").hook_entries(["PreToolUse", "Stop"], "cupcake", 30) == {
        "BeforeTool": [
            {
                "matcher": ".*",
                "hooks": [
                    {
                        "name": "cupcake",
                        "type": "command",
                        "command": "cupcake run --agent gemini --event BeforeTool" + open_guard(),
                        "timeout": 30000,
                    }
                ],
            }
        ],
        "AfterAgent": [
            {
                "hooks": [
                    {
                        "name": "cupcake",
                        "type": "command",
                        "command": "cupcake run --agent gemini --event AfterAgent",
                        "timeout": 30000,
                    }
                ]
            }
        ],
    }
    assert install("copilot").hook_entries(["PreToolUse"], "cupcake", 30) == {
        "preToolUse": [
            {
                "type": "command",
                "bash": "cupcake run --agent copilot --event preToolUse" + open_guard(),
                "timeoutSec": 30,
            }
        ]
    }
    assert install("cursor").hook_entries(["PreToolUse"], "cupcake", 30, closed=True) == {
        "preToolUse": [
            {
                "command": "cupcake run --agent cursor --event preToolUse --fail-closed" + closed_guard(),
                "type": "command",
                "timeout": 30,
                "failClosed": True,
            }
        ]
    }
    assert install("codex").hook_entries(["PreToolUse"], "cupcake", 30)["PreToolUse"][0]["matcher"] == ".*"
    assert install("droid").hook_entries(["PreToolUse"], "cupcake", 30)["PreToolUse"][0]["matcher"] == "*"


def test_new_files():
    copilot = json.loads(install("copilot").update_text("", ["PreToolUse"], "cupcake", 30))
    assert copilot["version"] == 1 and "preToolUse" in copilot["hooks"]
    cursor = json.loads(install("cursor").update_text("{}", ["Stop"], "cupcake", 30))
    assert cursor == {
        "version": 1,
        "hooks": {"stop": [{"command": "cupcake run --agent cursor --event stop", "type": "command", "timeout": 30}]},
    }


def test_paths_per_scope():
    env = {"HOME": "/home/u", "CODEX_HOME": "/home/u/.cx"}
    assert install("codex").config_path("user", "/p", env) == "/home/u/.cx/hooks.json"
    assert install("codex").config_path("project", "/p", env) == "/p/.codex/hooks.json"
    assert install("gemini").config_path("user", "/p", env) == "/home/u/.gemini/settings.json"
    assert install("copilot").config_path("project", "/p", env) == "/p/.github/hooks/cupcake.json"
    assert install("copilot").config_path("user", "/p", env) == "/home/u/.copilot/settings.json"
    assert install("droid").config_path("project", "/p", env) == "/p/.factory/settings.json"
    assert install("cursor").config_path("project", "/p", env) == "/p/.cursor/hooks.json"
    assert "/p/.codex/config.toml" in install("codex").protected_paths("/p", env)
    assert "/p/.github/hooks" in install("copilot").protected_paths("/p", env)
    assert "/home/u/.factory/settings.json" in install("droid").protected_paths("/p", env)


def test_codex_project_trust():
    from cupcake.agents.codex.home import trusted_config

    text = trusted_config('model = "x"\n', '/p/my "proj"')
    assert text == 'model = "x"\n\n[projects."/p/my \\"proj\\""]\ntrust_level = "trusted"\n'
    assert trusted_config(text, '/p/my "proj"') == text


def test_self_protection_asks_each_installer_what_holds_its_hooks(tmp_path):
    """An installer names its hook files (``protected_paths``), or the folders whose ``settings*.json``
    hold them (``settings_dirs``: guarded by name, so its files are not listed one by one)."""
    from cupcake.agents import NAMES
    from cupcake.agents.installers import hook_config_paths, installer, settings_dirs

    root, env = str(tmp_path / "project"), {"HOME": str(tmp_path / "home")}
    by_folder = [a for a in NAMES if installer(a).settings_dirs(root, env)]
    assert by_folder == ["claude"]
    assert settings_dirs(root, env) == [d for a in by_folder for d in installer(a).settings_dirs(root, env)]
    from cupcake.agents.managed import guarded_paths
    from cupcake.project import managed_dir

    listed = [managed_dir(env)]
    for agent in NAMES:
        listed += [p for p in guarded_paths(agent, env) if p not in listed]
        if agent not in by_folder:
            listed += [p for p in installer(agent).protected_paths(root, env) if p not in listed]
    assert hook_config_paths(root, env) == listed
