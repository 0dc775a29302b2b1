"""``cupcake explain``: one event (the hook's JSON on stdin, or ``--command "…"``) through the current
policies, shown step by step: the command as the shell would read it, every candidate policy, each
condition's result and why, the decision and the policy that made it, and timings. Nothing runs and
nothing is recorded (see ``dry_run``)."""

from __future__ import annotations

import json
import os
import time


def explain(
    env, cwd, command=None, stdin_text=None, tool=None, json_out: bool = False, out=print, agent: str = "claude"
) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.cli import dry_run
    from cupcake.cli.scenarios import payload_for
    from cupcake.project import find_root

    root = find_root(project_dir_in(env), cwd)
    if command is not None:
        payload = payload_for("PreToolUse", tool or "Bash", {"command": command}, root)
    else:
        try:
            payload = json.loads(stdin_text or "")
        except ValueError as exc:
            out(f"cupcake explain: stdin is not a JSON event ({exc}); or give --command")
            return 2
        if not isinstance(payload, dict):
            out("cupcake explain: the event must be a JSON object")
            return 2
        from cupcake.agents.claude.recorded import completed

        payload = completed(payload, root)
    started = time.perf_counter()
    compiled = dry_run.load(root, env)
    load_seconds = time.perf_counter() - started
    if compiled is None:
        out(f"No policy file for {root}: Cupcake does nothing here.")
        return 0
    for problem in compiled.get("out_of_service") or ():
        out(f"out of service: {problem}")  # the other policies are still explained
    verdict = dry_run.evaluate(compiled, payload, root, trace=True)
    view = verdict.view
    parse_seconds = None
    commands = []
    if view.command is not None:
        t = time.perf_counter()
        script = view.script()
        parse_seconds = time.perf_counter() - t
        from cupcake.shell.model import GLOBAL_OPTIONS

        commands = [
            {
                "argv": list(c.argv),
                "program": c.program,
                "subcommand": c.subcommand() if c.program in GLOBAL_OPTIONS else None,
                "via": list(c.via),
                "cwd": c.cwd,
            }
            for c in script.commands
        ]
    report = {
        "event": verdict.event,
        "tool": view.tool,
        "input": view.tool_input,
        "parsed": commands,
        "incomplete": view.script().incomplete if view.command is not None else None,
        "policies": [
            {
                "name": name,
                "source": f"{file}:{line}" if line else file,
                "matched": ok,
                "conditions": [
                    {"condition": dry_run.describe(c), "holds": held, "why": why} for c, held, why in results
                ],
            }
            for name, file, line, results, ok in verdict.trace
        ],
        "decision": verdict.decision,
        "by": verdict.policy,
        "text": verdict.text,
        "not_run": verdict.skipped,
        "timings_ms": {
            "load": round(load_seconds * 1000, 3),
            "parse": round(parse_seconds * 1000, 3) if parse_seconds is not None else None,
            "evaluate": round(verdict.seconds * 1000, 3),
        },
    }
    if verdict.event == "PreToolUse":
        source = next((p["source"] for p in report["policies"] if p["name"] == verdict.policy), None)
        report["effective"] = _effective(agent, payload, root, env, verdict, source)
    if json_out:
        out(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    out(_text(report, root))
    if report.get("effective"):
        from cupcake.effective import text_lines

        out("\n".join(text_lines(report["effective"])))
    return 0


def _effective(agent: str, payload: dict, root: str, env, verdict, source) -> dict:
    """Every layer that decides this call in the agent, and which one wins (``cupcake.effective``)."""
    from cupcake.agents.claude.recorded import event_of
    from cupcake.effective import view

    return view(agent, event_of(payload), root, env, verdict.decision, verdict.policy, verdict.text, source)


def _text(report: dict, root: str) -> str:
    lines = [f"Event: {report['event']} {report['tool'] or ''}".rstrip()]
    if report["input"].get("command") is not None:
        lines.append(f"Command: {report['input']['command']}")
        state = "incomplete: " + report["incomplete"] if report["incomplete"] else "complete"
        lines.append(f"Parsed ({len(report['parsed'])} simple command(s), reading {state}):")
        for n, cmd in enumerate(report["parsed"], 1):
            extra = f" via {'/'.join(cmd['via'])}" if cmd["via"] else ""
            where = f" in {os.path.relpath(cmd['cwd'], root) if cmd['cwd'] else '(unknown directory)'}"
            sub = f" [subcommand {cmd['subcommand']}]" if cmd["subcommand"] else ""
            lines.append(f"  {n}. {' '.join(cmd['argv'])}{sub}{extra}{where}")
    elif report["input"]:
        lines.append("Input: " + json.dumps(report["input"], ensure_ascii=False)[:300])
    lines.append(f"Candidate policies ({len(report['policies'])}):")
    for policy in report["policies"]:
        mark = "MATCH" if policy["matched"] else "no   "
        lines.append(f"  {mark} {policy['name']} ({policy['source']})")
        for cond in policy["conditions"]:
            lines.append(f"        {'yes' if cond['holds'] else 'no '} {cond['condition']}: {cond['why']}")
    by = f" by {report['by']}" if report["by"] else " (no policy decided)"
    lines.append(f"Decision: {report['decision']}{by}")
    if report["text"]:
        lines.append(f"  {report['text']}")
    if report["not_run"]:
        lines.append(f"  Not run here (a command check decides at run time): {', '.join(report['not_run'])}")
    t = report["timings_ms"]
    parse = f", parse {t['parse']} ms" if t["parse"] is not None else ""
    lines.append(f"Timings: load {t['load']} ms{parse}, evaluate {t['evaluate']} ms")
    return "\n".join(lines)
