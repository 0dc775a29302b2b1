"""`cupcake doctor` for a fleet: the policy layers in force (managed, project, user) and which file each
rule came from, and where the decisions go and whether they get there (telemetry)."""

from __future__ import annotations

import os
import time

from cupcake.project import WORK_DIR

OK, WARNING, PROBLEM = "ok", "warning", "problem"


def _when(seconds) -> str:
    if not isinstance(seconds, (int, float)):
        return "never"
    return time.strftime("%Y-%m-%d %H:%M:%SZ", time.gmtime(seconds))


SHOWN_RULES = 8  # rule names listed per file in a finding (`doctor --json` has them all)


def layers(root: str, env, compiled) -> list[dict]:
    """Each layer in the order it is evaluated: its file, whether it exists, and its rules in service
    with the file each came from (the layer's own file, a file it imports, or a pack)."""
    from cupcake.project import TIERS, label, policy_files

    policies = (compiled or {}).get("policies") or ()
    tiers = (compiled or {}).get("tiers") or ()
    out = []
    for tier, path in zip(TIERS, policy_files(root, env), strict=True):
        rules = [
            {"name": p[0], "event": p[1], "file": p[5], "line": p[6]}
            for p, t in zip(policies, tiers, strict=False)
            if t == tier
        ]
        out.append({"layer": tier, "file": label(path, root, env), "present": os.path.exists(path), "rules": rules})
    return out


def check_policy_layers(report, root: str, env, compiled) -> None:
    """One finding per layer: the managed, project and user files, in the order their rules are evaluated."""
    found = layers(root, env, compiled)
    report.policy_layers = found
    if compiled is None:
        return
    for layer in found:
        if not layer["present"]:
            if layer["layer"] != "managed":
                report.add("policy layers", OK, f"{layer['layer']}: {layer['file']} (absent)")
            continue
        by_file: dict = {}
        for rule in layer["rules"]:
            by_file.setdefault(rule["file"], []).append(rule)
        parts = []
        for file, rules in by_file.items():
            names = ", ".join(
                f"{r['name']}" + (f" (line {r['line']})" if r["line"] else "") for r in rules[:SHOWN_RULES]
            )
            more = f" and {len(rules) - SHOWN_RULES} more" if len(rules) > SHOWN_RULES else ""
            parts.append(f"{len(rules)} from {file}: {names}{more}")
        count = len(layer["rules"])
        what = f"{count} rule{'s' if count != 1 else ''} in service" + (": " + "; ".join(parts) if parts else "")
        if layer["layer"] == "managed":
            what += ". They come first, and no project or user file can remove or weaken them"
        report.add("policy layers", OK, f"{layer['layer']}: {layer['file']}: {what}")


def check_telemetry(report, root: str, env, compiled) -> None:
    """Where the spans go (and from which setting), what waits, what was dropped, the last failure."""
    from cupcake.stores import spool
    from cupcake.telemetry import batches, config

    telemetry = (compiled or {}).get("telemetry") or {}
    folder = spool.directory(os.path.join(root, WORK_DIR))
    if not telemetry.get("enabled") and not os.path.isdir(folder):
        return
    resolved = config.resolve(telemetry, env)
    signals = list(resolved.targets)
    state = batches.read_cursor(folder)
    waiting = batches.waiting(folder, signals) if os.path.isdir(folder) else 0
    if not telemetry.get("enabled"):
        if waiting:
            report.add(
                "telemetry",
                WARNING,
                f"telemetry is off, and {waiting} decisions recorded while it was on were never sent",
                "turn it on again ([telemetry] enabled = true) and run `cupcake export`, or delete "
                f"{WORK_DIR}/{spool.DIR}/",
            )
        return
    kinds = {"traces": "spans", "logs": "log records"}
    where = "; ".join(
        f"{kinds[s]} → {t.url} (from {t.origin})" if t.url else f"{kinds[s]} → nowhere"
        for s, t in resolved.targets.items()
    )
    sent = state.get("sent") or {}
    last_ok = max((state.get("last_ok") or {}).values(), default=None)
    report.add(
        "telemetry",
        OK,
        f"telemetry on: {where}; {waiting} waiting; {max(sent.values(), default=0)} sent, the last at {_when(last_ok)}",
    )
    for signal, target in resolved.targets.items():
        if target.url is None:
            report.add(
                "telemetry",
                PROBLEM,
                f"no endpoint for {signal}: the decisions are recorded, and wait",
                "set [telemetry] endpoint (in the managed or your user file), or OTEL_EXPORTER_OTLP_ENDPOINT where "
                "`cupcake export` runs",
            )
        elif target.origin.startswith("OTEL_") and _claude_hooks(root, env):
            report.add(
                "telemetry",
                WARNING,
                f"the {signal} endpoint comes from {target.origin}, and Claude Code removes the OTEL_* variables "
                "from the hooks it runs: the forwarder a run starts does not see it",
                "name the endpoint in [telemetry] endpoint (the managed or your user file), or run `cupcake export` "
                "from cron where the variables are set",
            )
        if target.withheld:
            report.add(
                "telemetry",
                WARNING,
                f"the headers {', '.join(target.withheld)} of OTEL_EXPORTER_OTLP_HEADERS are not sent to {target.url}: "
                f"{target.origin} named it, and credentials go only where the variables or the managed file point",
                "name the endpoint in OTEL_EXPORTER_OTLP_ENDPOINT too (or in the managed file)",
            )
    for problem in resolved.problems:
        report.add("telemetry", PROBLEM, problem, "fix the variables or [telemetry]")
    dropped = state.get("dropped", 0)
    if dropped:
        report.add(
            "telemetry",
            WARNING,
            f"{dropped} decisions were dropped unsent (the last at {_when(state.get('last_drop'))}): the spool was "
            "full ([telemetry] max_spool_bytes) while the receiver could not be reached",
            "make sure the receiver is reachable; raise [telemetry] max_spool_bytes to keep more while it is not",
        )
    error = state.get("last_error")
    if isinstance(error, dict) and waiting:
        report.add(
            "telemetry",
            WARNING,
            f"the last send failed at {_when(error.get('time'))}: {error.get('signal')}: {error.get('message')}",
            "check the receiver, then run `cupcake export` (it sends what waits and says how much)",
        )


def _claude_hooks(root: str, env) -> bool:
    """Whether Claude Code runs Cupcake here (its hooks' environment loses the OTEL_* variables)."""
    from cupcake.agents.installers import hooks, installer
    from cupcake.agents.managed import managed_path

    install = installer("claude")
    paths = [install.config_path(scope, root, env) for scope in install.SCOPES] + [managed_path("claude", env)]
    return any(hooks("claude", path) for path in paths if path)
