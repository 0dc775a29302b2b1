"""``cupcake test``: scenario files run against the project's policies, and ``--packs``: every built-in
rule's own examples. Each scenario runs the real pipeline in-process (``cupcake.cli.run.execute``).

A scenario file holds ``[[scenario]]`` tables:

    [[scenario]]
    name = "force pushes are stopped"
    command = "git push --force"          # a Bash call; or tool = "Read" and input = { file_path = ".env" }
    expect = "block"                      # allow, block, ask, approve, feedback, context, warn
    expect_text = "Push normally"         # optional: the answer's text contains this
    expect_policy = "git.force-push"      # optional: the policy that decided

``event = "PreToolUse"`` (the default) names the hook event; ``payload = { … }`` gives a whole
event instead. Exit code 1 when any scenario does not get what it expects, with a diff."""

from __future__ import annotations

import difflib
import json
import os
import tempfile

from cupcake.evaluate.compiled import Policy

DECISIONS = ("allow", "block", "ask", "approve", "feedback", "context", "warn")
ALIASES = {"deny": "block", "none": "allow"}
DEFAULT_DIR = os.path.join("tests", "cupcake")


class Outcome:
    """What one event got: the decision, the text, the deciding policy, the matched policies."""

    __slots__ = ("decision", "text", "policy", "matched", "ctx", "failures", "warned")

    def __init__(self, ctx):
        from cupcake.stores.audit.record import decision_of, message_of

        self.ctx = ctx
        self.decision = decision_of(ctx.response)
        self.text = message_of(ctx.response) or (ctx.response.context if ctx.response is not None else "")
        self.policy = ctx.hard.by if ctx.hard else None
        policies = ctx.policies["policies"] if ctx.policies and ctx.policies.get("policies") else ()
        self.matched = [Policy(policies[i]).name for i in ctx.matched if i < len(policies)]
        self.failures = [f.message for f in ctx.failures]
        # Policies whose warning went out with a call that went ahead ("warn": allowed, and told).
        self.warned = [
            Policy(policies[i]).name
            for i in ctx.matched
            if i < len(policies) and Policy(policies[i]).action.kind == "warn"
        ]
        if self.warned and self.decision in ("allow", "context"):
            self.decision = "warn"


def payload_for(event: str, tool, tool_input, root: str, session: str = "cupcake-test") -> dict:
    from cupcake.agents.claude.recorded import tool_call

    return tool_call(event, tool, tool_input, root, session, os.path.join(root, ".cupcake", "no-transcript.jsonl"))


def run_payload(payload: dict, root: str, env, agent=None) -> Outcome:
    """Run one event through the pipeline, as the hook would from ``root``."""
    from cupcake.agents.claude.recorded import event_of, with_project
    from cupcake.cli.run import execute

    env = with_project(env, root)
    env.pop("CUPCAKE_TIMINGS", None)
    args = ["--event", event_of(payload).name] + (["--agent", agent] if agent else [])
    return Outcome(execute(json.dumps(payload).encode(), args, env))


def scenario_payload(table: dict, root: str) -> dict:
    if isinstance(table.get("payload"), dict):
        from cupcake.agents.claude.recorded import completed

        return completed(table["payload"], root)
    event = table.get("event", "PreToolUse")
    if "command" in table:
        return payload_for(event, table.get("tool", "Bash"), {"command": table["command"]}, root)
    return payload_for(event, table.get("tool"), table.get("input", {}), root)


def _expected(table: dict):
    """The decision the scenario expects (an alias such as "deny" named by its decision)."""
    given = table.get("expect")
    return ALIASES.get(given, given) if isinstance(given, str) else given


def check(table: dict, outcome: Outcome) -> list:
    """The differences between what the scenario expects and what happened (empty: it passes)."""
    expected = _expected(table)
    wrong = []
    if outcome.decision != expected:
        wrong.append("decision")
    text = table.get("expect_text")
    if isinstance(text, str) and text not in (outcome.text or ""):
        wrong.append("text")
    policy = table.get("expect_policy")
    if isinstance(policy, str) and policy != outcome.policy and policy not in outcome.matched:
        wrong.append("policy")
    return wrong


def diff(table: dict, outcome: Outcome) -> str:
    want = [f"decision: {_expected(table)}"]
    got = [f"decision: {outcome.decision}"]
    if "expect_policy" in table:
        want.append(f"policy: {table['expect_policy']}")
        got.append(f"policy: {outcome.policy or ', '.join(outcome.matched) or '(none)'}")
    if "expect_text" in table:
        want.append(f"text contains: {table['expect_text']}")
        got.append(f"text: {outcome.text or '(none)'}")
    for failure in outcome.failures:
        got.append(f"failure: {failure}")
    lines = difflib.unified_diff(want, got, "expected", "actual", lineterm="", n=len(want) + len(got))
    return "\n".join(lines)


def problems_of(table, where: str) -> list:
    found = []
    if not isinstance(table, dict):
        return [f"{where}: each [[scenario]] must be a table"]
    expect = _expected(table)
    if expect not in DECISIONS:
        found.append(f"{where}: `expect` must be one of {', '.join(DECISIONS)} (got {table.get('expect')!r})")
    if not any(k in table for k in ("command", "tool", "payload")):
        found.append(f"{where}: give `command`, `tool` (with `input`) or `payload`")
    return found


def scenario_files(paths, root: str) -> list:
    if paths:
        found = []
        for path in paths:
            if os.path.isdir(path):
                found.extend(sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".toml")))
            else:
                found.append(path)
        return found
    folder = os.path.join(root, DEFAULT_DIR)
    if not os.path.isdir(folder):
        return []
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".toml"))


def run_scenarios(paths, env, cwd, out, err) -> int:
    import tomli

    from cupcake.agents import project_dir_in
    from cupcake.project import find_root

    root = find_root(project_dir_in(env), cwd)
    files = scenario_files(paths, root)
    if not files:
        err(f"cupcake test: no scenario files (give paths, or put *.toml files in {DEFAULT_DIR}/)")
        return 1
    passed = failed = 0
    for path in files:
        try:
            with open(path, "rb") as f:
                data = tomli.load(f)
        except (OSError, tomli.TOMLDecodeError) as exc:
            err(f"{path}: cannot read: {exc}")
            failed += 1
            continue
        for n, table in enumerate(data.get("scenario", []), 1):
            name = table.get("name", f"scenario {n}") if isinstance(table, dict) else f"scenario {n}"
            where = f"{os.path.relpath(path, cwd)} #{n} ({name})"
            bad = problems_of(table, where)
            if bad:
                for line in bad:
                    err(line)
                failed += 1
                continue
            outcome = run_payload(scenario_payload(table, root), root, env)
            if check(table, outcome):
                failed += 1
                out(f"FAIL {where}\n{diff(table, outcome)}")
            else:
                passed += 1
                out(f"ok   {where}")
    out(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def pack_results(env, names=None):
    """Every rule example of every pack (or of ``names``), run against that pack alone in a scratch
    project: yields (pack, rule, expected, tool, tool_input, outcome, ok)."""
    env = dict(env)
    # A home outside the project and the temporary directories, so that examples naming ``~`` mean
    # what they say wherever this runs (``~`` is expanded from the process environment).
    saved = os.environ.get("HOME")
    os.environ["HOME"] = env["HOME"] = EXAMPLE_HOME
    try:
        yield from _pack_results(env, names)
    finally:
        if saved is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = saved


EXAMPLE_HOME = "/home/cupcake-examples"


def _pack_results(env, names):
    from cupcake import packs

    for name in names or packs.names():
        if name == "recommended":
            continue  # its rules are the other packs' rules
        with tempfile.TemporaryDirectory(prefix="cupcake-pack-") as scratch:
            root = os.path.realpath(os.path.join(scratch, "project"))
            os.makedirs(root)
            with open(os.path.join(root, "cupcake.toml"), "w", encoding="utf-8") as f:
                # The pack on its own: self-protection's blocks are its own (tests/protection).
                f.write(f'imports = ["cupcake:{name}"]\n[settings]\nself_protection = false\n')
            for rule in packs.load(name).rules:
                for expected, tool, tool_input, files in packs.examples(rule):
                    for file_name, text in files.items():
                        with open(os.path.join(root, file_name), "w", encoding="utf-8") as f:
                            f.write(text)
                    try:
                        outcome = run_payload(payload_for("PreToolUse", tool, tool_input, root), root, env)
                    finally:
                        for file_name in files:
                            os.remove(os.path.join(root, file_name))
                    hit = rule["id"] in outcome.matched
                    if expected == "stop":
                        ok = hit and outcome.decision == packs.level_of(rule)
                    else:
                        ok = not hit
                    yield name, rule, expected, tool, tool_input, outcome, ok and not outcome.failures


def run_pack_examples(env, out, names=None) -> int:
    passed = failed = 0
    for _name, rule, expected, tool, tool_input, outcome, ok in pack_results(env, names):
        shown = tool_input.get("command") if tool == "Bash" else f"{tool} {json.dumps(tool_input)}"
        if ok:
            passed += 1
            continue
        failed += 1
        want = "caught" if expected == "stop" else "let through"
        out(f"FAIL {rule['id']}: {shown!r} should be {want}; got {outcome.decision} (matched: {outcome.matched})")
    out(f"{passed} pack examples passed, {failed} failed")
    return 1 if failed else 0
