"""Gemini CLI's own layers for one tool call: its policy engine's TOML rules, and its BeforeTool hooks.

Policy files (Gemini CLI's documentation, reference/policy-engine.md as shipped with 0.61.0): the
Admin tier (``/etc/gemini-cli/policies/*.toml``), the User tier (``~/.gemini/policies/*.toml``), the
Workspace tier (``.gemini/policies/*.toml``: documented as not loaded yet, so listed and ignored) and
the built-in Default tier (read-only tools allowed, other tools ``ask_user``; ``--approval-mode yolo``
allows all). Of all the ``[[rule]]`` tables that match, the highest priority wins: the tier first
(Admin > User > Workspace > Extension > Default), then the rule's own ``priority`` (0 to 999).

How the two combine, as seen in the real client 0.61.0 (--approval-mode yolo, a user-tier rule): the
BeforeTool hooks run first, and a hook's deny blocks (the model is shown the hook's reason); a hook's
allow does not loosen the policy engine, whose deny still blocks and whose ``ask_user`` still asks
(headless, an ask is refused: "requires user confirmation, which is not supported in non-interactive
mode")."""

from __future__ import annotations

import json
import os
import re

from cupcake.agents.gemini.capabilities import TOOLS
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

TIERS = (("admin", 5), ("user", 4), ("workspace", 3))
DECISIONS = {"allow": ALLOW, "deny": DENY, "ask_user": ASK}
READ_ONLY = frozenset(
    {
        "read_file",
        "read_many_files",
        "glob",
        "grep_search",
        "search_file_content",
        "list_directory",
        "google_web_search",
        "web_fetch",
    }
)
PRECEDENCE = (
    "Gemini CLI: a BeforeTool hook's deny blocks first; then the policy engine's highest-priority matching rule "
    "(Admin > User > Default tier) decides, and a hook's allow cannot loosen it (seen in 0.61.0)"
)


def agent_tool(event) -> str | None:
    """Gemini CLI's name for the event's tool (the event may be in another agent's words, as explain's --command)."""
    if event.agent == "gemini" and event.agent_tool:
        return event.agent_tool
    return next((agent for agent, canonical in TOOLS.items() if canonical == event.tool), event.tool)


def gather(root: str, env, event, system_root: str = "/") -> tuple[list[Layer], dict]:
    home = env.get("HOME") or os.path.expanduser("~")
    tool = agent_tool(event)
    layers: list[Layer] = []
    dirs = {
        "admin": os.path.join(system_root, "etc/gemini-cli/policies"),
        "user": os.path.join(home, ".gemini", "policies"),
        "workspace": os.path.join(root, ".gemini", "policies"),
    }
    best: tuple[float, Layer] | None = None
    for tier, base in TIERS:
        for path in files_in(dirs[tier], ".toml"):
            label = shown(path, root, home)
            for rule, problem in _rules(path):
                if problem:
                    layers.append(Layer("policy rule", label, UNKNOWN, problem))
                    continue
                hit = rule_matches(rule, tool, event.tool_input)
                if hit is False:
                    continue
                decision = rule.get("decision")
                text = f"[[rule]] {_describe(rule)} decision {decision!r} priority {rule.get('priority', 0)}"
                if tier == "workspace":
                    layers.append(
                        Layer(
                            "policy rule",
                            label,
                            NONE,
                            text + ": ignored (Gemini CLI does not load workspace policies yet)",
                        )
                    )
                    continue
                if hit is None or decision not in DECISIONS:
                    layers.append(Layer("policy rule", label, UNKNOWN, text + ": not known whether or how it applies"))
                    continue
                modes = rule.get("modes")
                layer = Layer(
                    "policy rule", label, DECISIONS[decision], text + (f" (only in modes {modes})" if modes else "")
                )
                layers.append(layer)
                rank = base + min(max(_number(rule.get("priority")), 0), 999) / 1000
                if best is None or rank > best[0]:
                    best = (rank, layer)
    default = Layer(
        "policy rule",
        "Gemini CLI's built-in defaults",
        ALLOW if tool in READ_ONLY else ASK,
        f"{tool} is read-only: allowed"
        if tool in READ_ONLY
        else f"{tool} asks the person (--approval-mode yolo allows it; headless, an ask is a deny)",
    )
    layers.append(default)
    from cupcake.agents.hook_command import is_cupcake

    for path in (
        os.path.join(root, ".gemini", "settings.json"),
        os.path.join(home, ".gemini", "settings.json"),
        os.path.join(system_root, "etc/gemini-cli/settings.json"),
    ):
        data = read_json(path)
        if isinstance(data, dict):
            layers.extend(
                foreign_hooks(
                    data.get("hooks"),
                    ("BeforeTool",),
                    tool,
                    _hook_matches,
                    lambda c: is_cupcake(c, "gemini"),
                    shown(path, root, home),
                )
            )
    return layers, {"engine": best[1] if best else default}


def _number(value) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _rules(path: str):
    """(rule table, None) for each ``[[rule]]``, or (None, why) when the file cannot be read."""
    import tomli

    try:
        with open(path, "rb") as f:
            data = tomli.load(f)
    except (OSError, tomli.TOMLDecodeError) as exc:
        yield None, f"the file cannot be read ({exc}): Gemini CLI may refuse it or skip it"
        return
    for rule in data.get("rule", ()) if isinstance(data.get("rule"), list) else ():
        if isinstance(rule, dict):
            yield rule, None


def _describe(rule: dict) -> str:
    keys = ("toolName", "mcpName", "commandPrefix", "commandRegex", "argsPattern")
    return " ".join(f"{k}={json.dumps(rule[k])}" for k in keys if k in rule) or "(every tool)"


def _names(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _name_matches(pattern: str, tool: str) -> bool:
    if pattern == "*":
        return True
    regex = "^" + ".*".join(re.escape(p) for p in pattern.split("*")) + "$"
    return re.match(regex, tool) is not None


def rule_matches(rule: dict, tool, tool_input: dict):
    """Whether a ``[[rule]]`` applies: True, False, or None when it depends on what is not known here."""
    if not isinstance(tool, str):
        return False
    command = tool_input.get("command") if isinstance(tool_input.get("command"), str) else None
    shell_only = "commandPrefix" in rule or "commandRegex" in rule
    names = _names(rule.get("toolName")) or (["run_shell_command"] if shell_only else ["*"])
    server = rule.get("mcpName")
    if isinstance(server, str):
        names = [f"mcp_{'*' if server == '*' else server}_{n}" if n != "*" else f"mcp_{server}_*" for n in names]
    if not any(_name_matches(n, tool) for n in names):
        return False
    if "subagent" in rule or "toolAnnotations" in rule or "interactive" in rule:
        return None
    if "commandPrefix" in rule:
        if command is None:
            return False
        prefixes = _names(rule["commandPrefix"])
        if not any(
            command == p or command.startswith(p) and command[len(p) : len(p) + 1] in (" ", "\t", ";", "&", "|")
            for p in prefixes
        ):
            return False
    if "commandRegex" in rule:
        try:
            if command is None or re.match(rule["commandRegex"], command) is None:
                return False
        except (re.error, TypeError):
            return None
    if "argsPattern" in rule:
        text = json.dumps(tool_input, sort_keys=True, separators=(",", ":"))
        try:
            if re.search(rule["argsPattern"], text) is None:
                return False
        except (re.error, TypeError):
            return None
    return True


def _hook_matches(matcher, tool: str) -> bool:
    if matcher in (None, "", "*"):
        return True
    try:
        return isinstance(matcher, str) and re.search(matcher, tool) is not None
    except re.error:
        return False


def combine(layers: list[Layer], facts: dict) -> Effective:
    engine = facts["engine"]
    cupcake = next((layer for layer in layers if layer.kind == "Cupcake"), None)
    foreign = [layer for layer in layers if layer.kind == "hook" and layer.says == UNKNOWN]
    caveats = [
        f"{layer.why.split(':')[0]} in {layer.where} could deny instead (any hook's deny blocks)" for layer in foreign
    ]
    caveats += [
        f"{layer.why} ({layer.where})" for layer in layers if layer.kind == "policy rule" and layer.says == UNKNOWN
    ]
    caveats.append("the approval mode the agent was started with (--approval-mode) is not visible here")
    if cupcake is not None and cupcake.says == DENY:
        return Effective(DENY, cupcake, PRECEDENCE, caveats)
    if engine.says in (DENY, ASK):
        return Effective(engine.says, engine, PRECEDENCE, caveats)
    if cupcake is not None and cupcake.says == ASK:
        return Effective(ASK, cupcake, PRECEDENCE, caveats)
    return Effective(engine.says, engine, PRECEDENCE, caveats)
