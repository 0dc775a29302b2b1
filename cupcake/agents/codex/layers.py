"""Codex's own layers for one tool call: its command rules (``.rules`` files of ``prefix_rule``), its
``approval_policy``, and its PreToolUse hooks besides Cupcake's.

Rules files: ``$CODEX_HOME/rules/*.rules`` and ``<project>/.codex/rules/*.rules`` (the project's only
when Codex trusts the project). A ``prefix_rule(pattern = [...], decision = ...)`` matches a command
whose words start with the pattern (a list element is a set of alternatives); ``decision`` is
``allow`` (the default), ``prompt`` or ``forbidden``, and when several match the most restrictive
wins (forbidden > prompt > allow). Rules are Starlark: Cupcake reads only ``prefix_rule`` calls with
literal arguments, and says so about anything else.

The precedence (Codex's documentation): a hook's deny blocks; then the rules (forbidden blocks, prompt
asks, allow runs without asking); a command no rule matches goes by ``approval_policy``. Codex hooks
cannot ask or approve: Cupcake's ask and approve are not sent to Codex."""

from __future__ import annotations

import ast
import os
import re

from cupcake.agents.layer import ALLOW, ASK, DENY, UNKNOWN, Effective, Layer, files_in, foreign_hooks, read_json, shown

DECISIONS = {"allow": ALLOW, "prompt": ASK, "forbidden": DENY}
STRICT = {ALLOW: 1, ASK: 2, DENY: 3}
POLICIES = {
    "never": (ALLOW, "approval_policy never: it runs without asking (inside Codex's sandbox, as sandbox_mode says)"),
    "on-failure": (ALLOW, "approval_policy on-failure: it runs in the sandbox, and Codex asks only if it fails"),
    "on-request": (ALLOW, "approval_policy on-request: it runs in the sandbox unless the model asks for more"),
    "untrusted": (ASK, "approval_policy untrusted: Codex asks before a command it does not know to be safe"),
}
PRECEDENCE = (
    "Codex: a hook's deny blocks; then its command rules, the most restrictive match winning (forbidden > "
    "prompt > allow); then approval_policy"
)


def codex_home(env) -> str:
    from cupcake.agents.codex.install import codex_home as home

    return home(env)


def gather(root: str, env, event, system_root: str = "/") -> tuple[list[Layer], dict]:
    home = env.get("HOME") or os.path.expanduser("~")
    base = codex_home(env)
    layers: list[Layer] = []
    parts = _parts(event) if event.tool == "Bash" else []
    per_part: list[str | None] = [None] * len(parts)
    for folder in (os.path.join(base, "rules"), os.path.join(root, ".codex", "rules")):
        for path in files_in(folder, ".rules"):
            label = shown(path, root, home)
            for rule, problem in read_rules(path):
                if problem:
                    layers.append(Layer("command rule", label, UNKNOWN, problem))
                    continue
                says = DECISIONS.get(rule.get("decision", "allow"))
                hits = [i for i, argv in enumerate(parts) if prefix_matches(rule["pattern"], argv)]
                if not hits:
                    continue
                text = f"prefix_rule pattern {rule['pattern']} decision {rule.get('decision', 'allow')!r}"
                if says is None:
                    layers.append(Layer("command rule", label, UNKNOWN, text + ": a decision Codex does not define"))
                    continue
                layers.append(Layer("command rule", label, says, text))
                for i in hits:
                    if per_part[i] is None or STRICT[says] > STRICT[per_part[i]]:  # type: ignore[index]
                        per_part[i] = says
    policy, where = "on-request", "Codex's default"
    for path in (os.path.join(root, ".codex", "config.toml"), os.path.join(base, "config.toml")):
        value = _toml_value(path, "approval_policy")
        if isinstance(value, str):
            policy, where = value, shown(path, root, home)
            break
    says, why = POLICIES.get(policy, (UNKNOWN, f"approval_policy {policy!r}: not one Cupcake knows"))
    layers.append(Layer("approval policy", where, says, why))
    from cupcake.agents.hook_command import is_cupcake

    for path in (os.path.join(root, ".codex", "hooks.json"), os.path.join(base, "hooks.json")):
        data = read_json(path)
        if isinstance(data, dict):
            layers.extend(
                foreign_hooks(
                    data.get("hooks"),
                    ("PreToolUse",),
                    event.tool or "",
                    _hook_matches,
                    lambda c: is_cupcake(c, "codex"),
                    shown(path, root, home),
                )
            )
    return layers, {"parts": per_part, "policy": policy}


def read_rules(path: str):
    """(rule, None) for each ``prefix_rule(...)`` with literal arguments, else (None, why)."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError, ValueError) as exc:
        yield None, f"the file cannot be read as rules ({exc})"
        return
    for node in tree.body:
        call = node.value if isinstance(node, ast.Expr) else None
        name = call.func.id if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) else None
        if name == "host_executable":
            continue
        if name != "prefix_rule":
            yield None, f"line {node.lineno}: not a prefix_rule(...) call, and Cupcake does not evaluate Starlark"
            continue
        try:
            rule = {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg}  # type: ignore[union-attr]
        except ValueError:
            yield None, f"line {node.lineno}: prefix_rule with an argument that is not a literal"
            continue
        pattern = rule.get("pattern")
        if not isinstance(pattern, list) or not pattern:
            yield None, f"line {node.lineno}: prefix_rule without a pattern list"
            continue
        yield rule, None


def prefix_matches(pattern: list, argv: list[str]) -> bool:
    if len(argv) < len(pattern):
        return False
    for want, word in zip(pattern, argv):
        choices = want if isinstance(want, list) else [want]
        if word not in choices:
            return False
    return True


def _parts(event) -> list[list[str]]:
    command = event.tool_input.get("command")
    if not isinstance(command, str):
        return []
    from cupcake.shell import parse

    cwd = event.cwd if isinstance(event.cwd, str) and event.cwd.startswith("/") else None
    return [[w for wrapper in cmd.wrappers for w in wrapper] + list(cmd.argv) for cmd in parse(command, cwd).commands]


def _toml_value(path: str, key: str):
    import tomli

    try:
        with open(path, "rb") as f:
            return tomli.load(f).get(key)
    except (OSError, tomli.TOMLDecodeError):
        return None


def _hook_matches(matcher, tool: str) -> bool:
    if matcher in (None, "", "*"):
        return True
    try:
        return isinstance(matcher, str) and re.search(matcher, tool) is not None
    except re.error:
        return False


def combine(layers: list[Layer], facts: dict) -> Effective:
    cupcake = next((layer for layer in layers if layer.kind == "Cupcake"), None)  # its ask and approve: not sent
    foreign = [layer for layer in layers if layer.kind == "hook" and layer.says == UNKNOWN]
    caveats = [f"{layer.why.split(':')[0]} in {layer.where} could deny instead" for layer in foreign]
    caveats += [
        f"{layer.why} ({layer.where})" for layer in layers if layer.kind == "command rule" and layer.says == UNKNOWN
    ]
    caveats.append("options given on Codex's command line (-c, --ask-for-approval) are not visible here")
    policy = next(layer for layer in layers if layer.kind == "approval policy")
    if cupcake is not None and cupcake.says == DENY:
        return Effective(DENY, cupcake, PRECEDENCE, caveats)
    rules = [layer for layer in layers if layer.kind == "command rule" and layer.says in STRICT]
    parts = facts.get("parts") or []
    decided = [p for p in parts if p is not None]
    if decided:
        strictest = max(decided, key=STRICT.__getitem__)
        if strictest != ALLOW or len(decided) == len(parts):
            winner = next(layer for layer in rules if layer.says == strictest)
            if strictest == ASK and facts.get("policy") == "never":
                caveats.append("approval_policy never: Codex cannot ask, so a prompt rule's command is refused")
            return Effective(strictest, winner, PRECEDENCE, caveats)
    return Effective(policy.says, policy, PRECEDENCE, caveats)
