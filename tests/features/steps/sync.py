"""`cupcake sync`: the hooks it writes into the agent's settings, and how it keeps the user's file."""

from __future__ import annotations

import json

from pytest_bdd import given, parsers, then

from tests.features.steps.helpers import _expand


def _settings_json(terminal, name: str) -> dict:
    return json.loads(terminal.file(name).read_text())


def _cupcake_handlers(settings: dict) -> list[tuple]:
    """(event, matcher or None, handler) for every Cupcake hook in a settings object."""
    from cupcake.agents.claude.hook_entries import is_cupcake

    found = []
    for event, groups in settings.get("hooks", {}).items():
        for group in groups:
            for handler in group.get("hooks", []):
                if is_cupcake(handler.get("command"), also=("/opt/tools/cupcake",)):
                    found.append((event, group.get("matcher"), handler))
    return found


def _without_protections(settings: dict) -> None:
    """Take out the protections sync writes beside the hooks: Edit(//…) deny rules and the sandbox's
    denyWrite paths (and the containers sync created for them)."""
    permissions = settings.get("permissions")
    if isinstance(permissions, dict) and isinstance(permissions.get("deny"), list):
        permissions["deny"] = [r for r in permissions["deny"] if not str(r).startswith("Edit(//")]
    sandbox = settings.get("sandbox")
    if isinstance(sandbox, dict) and isinstance(sandbox.get("filesystem"), dict):
        sandbox["filesystem"].pop("denyWrite", None)
        if not sandbox["filesystem"]:
            sandbox.pop("filesystem")
        if not sandbox:
            settings.pop("sandbox")


def _without_cupcake(settings: dict) -> dict:
    """The settings with Cupcake's handlers taken out, and the groups and lists left empty by that."""
    from cupcake.agents.claude.hook_entries import is_cupcake

    settings = json.loads(json.dumps(settings))
    _without_protections(settings)
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return settings
    for event in list(hooks):
        groups = []
        for group in hooks[event]:
            handlers = [h for h in group.get("hooks", []) if not is_cupcake(h.get("command"))]
            if handlers or not group.get("hooks"):
                groups.append(dict(group, hooks=handlers))
        if groups:
            hooks[event] = groups
        else:
            del hooks[event]
    if not hooks:
        del settings["hooks"]
    return settings


@given(parsers.parse('in "{name}" the {event} hook is changed to "{command}"'))
def hook_changed(terminal, name, event, command):
    """In the settings file, the command of Cupcake's hook on the event is replaced by another."""
    path = terminal.file(name)
    settings = json.loads(path.read_text())
    for group in settings["hooks"][event]:
        for handler in group["hooks"]:
            handler["command"] = command
    path.write_text(json.dumps(settings))


def _hook_command(command: str, blocks: bool) -> str:
    """The full hook command whose run part is ``command`` (``<exe> run --event E [--fail-closed]``):
    with the guard that blocks when cupcake cannot start, where ``blocks``."""
    from cupcake.agents.hook_command import build

    words = command.split()
    event = words[words.index("--event") + 1]
    full = build(words[0], "claude", event, blocks, "--fail-closed" in words)
    assert full.startswith(command), (full, command)
    return full


@then(parsers.parse('"{name}" has Cupcake\'s hooks:'))
def has_hooks_table(terminal, name, datatable):
    """Cupcake's hooks in the settings file are exactly these (event, matcher, command, timeout, and what
    the agent gets when cupcake cannot start), in order."""
    header, *rows = datatable
    found = _cupcake_handlers(_settings_json(terminal, name))
    expected = []
    for row in rows:
        cells = dict(zip(header, row))
        matcher = None if cells["matcher"] == "none" else json.loads(cells["matcher"])
        command = _hook_command(_expand(cells["command"]), cells["if cupcake cannot start"] == "blocks")
        handler = {"type": "command", "command": command, "timeout": int(cells["timeout"])}
        expected.append((cells["event"], matcher, handler))
    assert found == expected


@then(parsers.parse('"{name}" calls "{command}" on every event, with timeout {timeout:d}'))
def calls_on_every_event(terminal, name, command, timeout):
    """The settings file has one Cupcake hook on every event Claude Code has, matching every call; where
    a call can be stopped, the command blocks when cupcake cannot start."""
    from cupcake.agents.claude.hook_entries import EVENTS, NO_MATCHER
    from cupcake.agents.hook_command import BLOCKING_EVENTS

    found = _cupcake_handlers(_settings_json(terminal, name))
    assert sorted(event for event, _, _ in found) == sorted(EVENTS), found
    for event, matcher, handler in found:
        full = _hook_command(_expand(command).replace("<Event>", event), event in BLOCKING_EVENTS)
        assert handler == {"type": "command", "command": full, "timeout": timeout}
        assert matcher in ("", None) and (matcher == "" or event in NO_MATCHER), (event, matcher)  # every call


@then(parsers.parse('"{name}" holds no path of this machine'))
def no_machine_paths(terminal, name, project):
    """A team-shared file: nothing in it names this project's place, the home, or this installation."""
    import sys

    text = terminal.file(name).read_text()
    for path in (str(project.root), str(project.home), sys.prefix):
        assert path not in text, (path, text)


@then(parsers.parse('"{name}" has the user\'s hook "{command}" on "{event}"'))
def has_user_hook(terminal, name, command, event):
    """The user's own hook is still there on the event."""
    groups = _settings_json(terminal, name)["hooks"][event]
    assert any(h.get("command") == command for g in groups for h in g.get("hooks", [])), groups


@then(parsers.parse('"{name}" keeps the original text, only added to'))
def only_added_to(terminal, name):
    """Every byte of the original is still there and in place: the edit inserted text, nothing else."""
    import difflib

    new = terminal.file(name).read_text()
    old = terminal.originals[name].decode()
    changes = [op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
    assert changes and all(op[0] == "insert" for op in changes), [
        (op, old[op[1] : op[2]]) for op in changes if op[0] != "insert"
    ]


@then(parsers.parse('"{name}" without Cupcake\'s hooks holds the same settings as before'))
def same_settings_without_cupcake(terminal, name):
    """Taking Cupcake's hooks and protections out leaves the settings the user had."""
    before = json.loads(terminal.originals[name])
    assert _without_cupcake(_settings_json(terminal, name)) == _without_cupcake(before)


@then(parsers.parse('"{name}" is indented with {width:d} spaces'))
def indented_with_spaces(terminal, name, width):
    """The settings file keeps the user's indentation: that many spaces a level."""
    lines = terminal.file(name).read_text().splitlines()
    indents = [len(line) - len(line.lstrip(" ")) for line in lines]
    assert all(indent % width == 0 for indent in indents) and "\t" not in "".join(lines), lines
    assert max(indents) >= 5 * width, "Cupcake's entries are nested five levels deep"


@then(parsers.parse('"{name}" is indented with tabs'))
def indented_with_tabs(terminal, name):
    """The settings file keeps the user's indentation: tabs."""
    lines = terminal.file(name).read_text().splitlines()
    assert all(not line.startswith(" ") for line in lines), lines
    assert any(line.startswith("\t\t\t\t\t") for line in lines), lines


@then(parsers.parse('"{name}" is written on one line'))
def one_line(terminal, name):
    """The settings file is kept on one line, as the user had it."""
    assert terminal.file(name).read_text().count("\n") == 1
