"""Claude Code's own layers for one tool call, and how Claude Code combines them with its hooks.

Read: ``permissions.allow`` / ``ask`` / ``deny`` and ``defaultMode`` in every settings scope (managed
``/etc/claude-code/managed-settings.json`` and ``managed-settings.d/*.json``, the user's
``~/.claude/settings.json``, the project's ``.claude/settings.json`` and ``.claude/settings.local.json``),
``allowManagedPermissionRulesOnly``, ``allowManagedHooksOnly``, ``disableAllHooks``, and every hook on
PreToolUse besides Cupcake's. Not visible from here, so said rather than guessed: the command line the
client was started with (``--allowedTools``, ``--permission-mode``), a plugin's or skill's hooks.

The precedence (Claude Code's documentation, and the hook behaviour seen in 2.1.328):
1. a hook that denies blocks the call, whatever the permission rules and mode say;
2. permission rules of every scope together, in the order deny, then ask, then allow; the first kind
   that matches decides, and specificity does not change that order (a deny rule beats a hook's ask or
   allow, an ask rule beats a hook's allow);
3. a hook's ask asks; a hook's allow skips the prompt (only when no deny or ask rule matched);
4. an allow rule (for a compound Bash command, every part must match one);
5. otherwise the permission mode: read-only tools run, the others ask (``acceptEdits`` lets edits
   run, ``bypassPermissions`` everything, ``plan`` and ``dontAsk`` refuse what would ask)."""

from __future__ import annotations

import os
import re

from cupcake.agents.claude.capabilities import USER_DIR
from cupcake.agents.layer import (
    ALLOW,
    ASK,
    DENY,
    NONE,
    UNKNOWN,
    Effective,
    Layer,
    files_in,
    foreign_hooks,
    read_json,
    shown,
)

MANAGED_DIRS = {"linux": "/etc/claude-code", "darwin": "/Library/Application Support/ClaudeCode"}
READ_ONLY = frozenset({"Read", "Glob", "Grep", "LS", "NotebookRead", "TodoWrite", "WebSearch", "TaskOutput"})
EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
PRECEDENCE = (
    "Claude Code: a hook's deny blocks whatever else says; then permission rules of every scope, deny before "
    "ask before allow (a deny rule beats a hook's ask or allow); then a hook's ask or allow; then an allow rule; "
    "then the permission mode"
)
_EXACT = re.compile(r"^[A-Za-z0-9_ ,|-]*$")


class Scope:
    """One settings file: its label, its settings (or why it cannot be read), and whether it is managed."""

    def __init__(self, name: str, path: str, label: str, managed: bool = False):
        self.name = name
        self.path = path
        self.label = label
        self.managed = managed
        self.data = read_json(path)


def scopes(root: str, env, system_root: str = "/") -> list[Scope]:
    """Every settings file Claude Code reads for this project, highest precedence first."""
    import sys

    home = env.get("HOME") or os.path.expanduser("~")
    found = []
    managed = os.path.join(system_root, MANAGED_DIRS.get(sys.platform, MANAGED_DIRS["linux"]).lstrip("/"))
    for path in [os.path.join(managed, "managed-settings.json")] + files_in(
        os.path.join(managed, "managed-settings.d"), ".json"
    ):
        found.append(Scope("managed", path, path, managed=True))
    for name, path in (
        ("local", os.path.join(root, USER_DIR, "settings.local.json")),
        ("project", os.path.join(root, USER_DIR, "settings.json")),
        ("user", os.path.join(home, USER_DIR, "settings.json")),
    ):
        found.append(Scope(name, path, shown(path, root, home)))
    return [s for s in found if s.data is not None]


def _scalar(found: list[Scope], key: str):
    """A scalar setting by Claude Code's precedence (managed, local, project, user): (value, scope)."""
    for scope in found:
        if isinstance(scope.data, dict) and key in scope.data:
            return scope.data[key], scope
        perms = scope.data.get("permissions") if isinstance(scope.data, dict) else None
        if key == "defaultMode" and isinstance(perms, dict) and key in perms:
            return perms[key], scope
    return None, None


def gather(root: str, env, event, system_root: str = "/") -> tuple[list[Layer], dict]:
    """(every layer that says something about ``event``, what the combination needs to know)."""
    found = scopes(root, env, system_root)
    home = env.get("HOME") or os.path.expanduser("~")
    layers: list[Layer] = []
    facts: dict = {"hooks_off": None, "managed_hooks_only": None, "allow_specs": []}
    for scope in found:
        if isinstance(scope.data, str):
            layers.append(Layer("setting", scope.label, UNKNOWN, f"the file {scope.data}: Claude Code ignores it"))
    valid = [s for s in found if isinstance(s.data, dict)]
    managed_only = any(s.managed and s.data.get("allowManagedPermissionRulesOnly") is True for s in valid)
    for scope in valid:
        perms = scope.data.get("permissions")
        if not isinstance(perms, dict):
            continue
        for kind, says in (("deny", DENY), ("ask", ASK), ("allow", ALLOW)):
            rules = perms.get(kind)
            for rule in rules if isinstance(rules, list) else ():
                if not isinstance(rule, str):
                    continue
                base = scope.path if scope.name != "user" else os.path.join(home, USER_DIR, "settings.json")
                verdict = rule_matches(rule, event, root, home, base)
                if verdict is False:
                    continue
                text = f"permissions.{kind} {rule!r}"
                if managed_only and not scope.managed:
                    layers.append(
                        Layer(
                            "permission rule",
                            scope.label,
                            NONE,
                            text + ": ignored (managed settings allow only managed permission rules)",
                        )
                    )
                elif verdict is None:
                    layers.append(
                        Layer(
                            "permission rule",
                            scope.label,
                            UNKNOWN,
                            text + ": Cupcake does not know how Claude Code reads this rule's content",
                        )
                    )
                else:
                    layers.append(
                        Layer(
                            "permission rule",
                            scope.label,
                            says,
                            text + (" matches part of the command" if verdict == "part" else ""),
                        )
                    )
                    if says == ALLOW and rule.startswith("Bash"):
                        facts["allow_specs"].append(rule[5:-1] if "(" in rule else "*")
    disabled, where = _scalar(valid, "disableAllHooks")
    if disabled is True:
        facts["hooks_off"] = where.label
    if any(s.managed and s.data.get("allowManagedHooksOnly") is True for s in valid):
        facts["managed_hooks_only"] = next(
            s.label for s in valid if s.managed and s.data.get("allowManagedHooksOnly") is True
        )
    from cupcake.agents.claude.hook_entries import is_cupcake

    for scope in valid:
        hooks = foreign_hooks(
            scope.data.get("hooks"), ("PreToolUse",), event.tool, hook_matches, is_cupcake, scope.label
        )
        if (facts["hooks_off"] or (facts["managed_hooks_only"] and not scope.managed)) and not scope.managed:
            for layer in hooks:
                layer.says, layer.why = NONE, layer.why.split(":")[0] + ": not run (hooks are turned off here)"
        layers.extend(hooks)
    command = event.tool_input.get("command") if event.tool == "Bash" else None
    if facts["allow_specs"] and isinstance(command, str):
        parts = _parts(command, event)
        facts["every_part_allowed"] = bool(parts) and all(
            any(spec == "*" or _command_matches(spec, part) for spec in facts["allow_specs"]) for part in parts
        )
    mode, source = _scalar(valid, "defaultMode")
    layers.append(
        mode_layer(mode if isinstance(mode, str) else "default", source.label if source else None, event.tool)
    )
    return layers, facts


def mode_layer(mode: str, where, tool) -> Layer:
    """What the permission mode does with a call no rule and no hook decided."""
    label = where or "Claude Code's default"
    if tool in READ_ONLY:
        return Layer("permission mode", label, ALLOW, f"{tool} is read-only: it runs without asking (mode {mode})")
    if mode == "bypassPermissions":
        return Layer("permission mode", label, ALLOW, "mode bypassPermissions: every call runs without asking")
    if mode == "acceptEdits" and tool in EDIT_TOOLS:
        return Layer("permission mode", label, ALLOW, f"mode acceptEdits: {tool} runs without asking")
    if mode in ("plan", "dontAsk"):
        return Layer("permission mode", label, DENY, f"mode {mode}: a call that would ask is refused")
    return Layer("permission mode", label, ASK, f"mode {mode}: {tool} asks the person (in `claude -p`, it is refused)")


def hook_matches(matcher, tool: str) -> bool:
    """Claude Code's hook matcher: empty or ``*`` for all; names (``|`` or ``,``); else an unanchored regex."""
    if matcher in (None, "", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    if _EXACT.match(matcher):
        return tool in {m.strip() for m in re.split(r"[|,]", matcher)}
    try:
        return re.search(matcher, tool) is not None
    except re.error:
        return False


def rule_matches(rule: str, event, root: str, home: str, settings_path: str):
    """Whether a permission rule applies to the call: True, "part" (one part of a compound command),
    False, or None when Cupcake does not know how Claude Code reads the rule's content."""
    tool = event.tool or ""
    name, _, content = rule.partition("(")
    name = name.strip()
    if content:
        if not content.endswith(")"):
            return None
        content = content[:-1]
    if name.startswith("mcp__"):
        if content:
            return None
        if name.endswith("__*"):
            name = name[:-3]
        return tool == name or (name.count("__") == 1 and tool.startswith(name + "__"))
    covers = tool == name or (name == "Edit" and tool in EDIT_TOOLS)
    if not covers:
        return False
    if not content or content == "*":
        return True
    if name == "Bash":
        return _bash(content, event)
    if name in ("Read", "Edit", "Write", "MultiEdit", "NotebookEdit"):
        return _path(content, event, root, home, settings_path)
    if name == "WebFetch" and content.startswith("domain:"):
        url = event.tool_input.get("url")
        host = re.sub(r"^[a-z]+://", "", url).split("/", 1)[0].split(":")[0].lower() if isinstance(url, str) else ""
        domain = content[len("domain:") :].lower()
        return host == domain or host.endswith("." + domain)
    return None


def _bash(spec: str, event):
    """Claude Code splits a compound command and matches each part on its own (a wildcard never spans
    ``&&``): True when the rule matches the only part, or every part; "part" when some."""
    command = event.tool_input.get("command")
    if not isinstance(command, str):
        return False
    parts = _parts(command, event)
    if len(parts) <= 1:
        return _command_matches(spec, (parts[0] if parts else command).strip()) or _command_matches(
            spec, command.strip()
        )
    hits = [_command_matches(spec, p) for p in parts]
    return True if all(hits) else "part" if any(hits) else False


def _parts(command: str, event) -> list[str]:
    """Each simple command of a compound line, as text (read with Cupcake's own Bash reader)."""
    from cupcake.shell import parse

    cwd = event.cwd if isinstance(event.cwd, str) and event.cwd.startswith("/") else None
    script = parse(command, cwd)
    out = []
    for cmd in script.commands:
        words = [w for wrapper in getattr(cmd, "wrappers", ()) for w in wrapper] + list(cmd.argv)
        if words:
            out.append(" ".join(words))
    return out


def _command_matches(spec: str, text: str) -> bool:
    if spec.endswith(":*"):
        prefix = spec[:-2]
        return text == prefix or text.startswith(prefix + " ")
    if "*" in spec:
        if spec.endswith(" *") and spec.count("*") == 1 and text == spec[:-2]:
            return True  # a single trailing wildcard is optional
        pattern = "^" + ".*".join(re.escape(piece) for piece in spec.split("*")) + "$"
        return re.match(pattern, text, re.S) is not None
    return text == spec


def _path(spec: str, event, root: str, home: str, settings_path: str) -> bool:
    from cupcake.shell.globmatch import match_path

    given = next(
        (
            event.tool_input.get(k)
            for k in ("file_path", "notebook_path", "path")
            if isinstance(event.tool_input.get(k), str)
        ),
        None,
    )
    if given is None:
        return False
    cwd = event.cwd if isinstance(event.cwd, str) and event.cwd.startswith("/") else root
    target = os.path.normpath(os.path.join(cwd, given))
    if spec.startswith("//"):
        pattern = spec[1:]
    elif spec.startswith("~/"):
        pattern = os.path.join(home, spec[2:])
    elif spec.startswith("/"):
        pattern = os.path.join(os.path.dirname(os.path.dirname(settings_path)), spec[1:])
    elif "/" in spec.rstrip("/") and not spec.startswith("**"):
        pattern = os.path.join(cwd, spec[2:] if spec.startswith("./") else spec)
    else:
        pattern = os.path.join(cwd, "**", spec)  # no slash: at any depth, as in .gitignore
    parts = [p for p in os.path.normpath(pattern).split("/") if p]
    names = [p for p in target.split("/") if p]
    if pattern.endswith("/**") or spec.endswith("/"):
        return any(match_path(parts, names[:n]) for n in range(1, len(names)))
    return match_path(parts, names) or match_path(parts + ["**"], names)


def combine(layers: list[Layer], facts: dict) -> Effective:
    """Claude Code's answer to the call, from every layer, by its precedence (see the module)."""
    cupcake = next((layer for layer in layers if layer.kind == "Cupcake"), None)
    hooks_off = facts.get("hooks_off") or facts.get("managed_hooks_only")
    if cupcake is not None and hooks_off:
        cupcake.says = NONE
        cupcake.why += (
            f" (not run: {'disableAllHooks' if facts.get('hooks_off') else 'allowManagedHooksOnly'} in {hooks_off})"
        )
    foreign = [layer for layer in layers if layer.kind == "hook" and layer.says == UNKNOWN]
    caveats = [
        f"{layer.why.split(':')[0]} in {layer.where} could deny or ask instead (a hook's deny wins)"
        for layer in foreign
    ]
    caveats.append(
        "the command line the agent was started with (--allowedTools, --permission-mode) is not visible here"
    )
    rules = [layer for layer in layers if layer.kind == "permission rule"]
    unknown_rules = [layer for layer in rules if layer.says == UNKNOWN]
    caveats += [f"{layer.why.split(':')[0]} in {layer.where}: not known whether it applies" for layer in unknown_rules]
    if cupcake is not None and cupcake.says == DENY:
        return Effective(DENY, cupcake, PRECEDENCE)  # nothing can loosen a hook's deny
    for says in (DENY, ASK):
        hit = next((layer for layer in rules if layer.says == says), None)
        if hit is not None:
            return Effective(says, hit, PRECEDENCE, caveats)
    if cupcake is not None and cupcake.says in (ASK, ALLOW):
        return Effective(cupcake.says, cupcake, PRECEDENCE, caveats)
    allowed = [layer for layer in rules if layer.says == ALLOW]
    whole = next((layer for layer in allowed if not layer.why.endswith("matches part of the command")), None)
    if whole is not None:
        return Effective(ALLOW, whole, PRECEDENCE, caveats)
    if allowed and facts.get("every_part_allowed"):
        return Effective(
            ALLOW, allowed[0], PRECEDENCE, caveats + ["every part of the compound command matches an allow rule"]
        )
    mode = next(layer for layer in layers if layer.kind == "permission mode")
    if allowed:
        caveats.append("allow rules match only some parts of the compound command, and every part must match one")
    return Effective(mode.says, mode, PRECEDENCE, caveats)
