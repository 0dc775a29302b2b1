"""``cupcake explain``: one event (the hook's JSON on stdin, or ``--command "…"``) through the current
policies, shown step by step: the command as the shell would read it, the policies that matched
(``--all``: every candidate) with each condition's result and why, every check that fired, the
decision and the exact text the agent is shown, and timings.

The decision is `cupcake run`'s own: the event goes through the same pipeline, rehearsed (see
``cupcake.pipeline.rehearsal``), so self-protection, the evaluator's gate and the answer's wording
are all there. Nothing is recorded, and no program runs: a check is named instead."""

from __future__ import annotations

import json
import os

SCHEMA_VERSION = 1
# What the timings line groups, by the systems' names.
_LOAD = ("input_parse", "policy_load")
_EVALUATE = ("state_load", "feedback_collection", "hard_action_scan")


def explain(
    env,
    cwd,
    command=None,
    stdin_text=None,
    tool=None,
    json_out: bool = False,
    every: bool = False,
    out=print,
    agent=None,
    event=None,
) -> int:
    """``agent``: the event on stdin is that agent's (``event``: its name, as the hook command gives it)."""
    from cupcake.agents import project_dir_in
    from cupcake.cli.rehearse import rehearse
    from cupcake.cli.scenarios import payload_for
    from cupcake.project import find_root

    root = find_root(project_dir_in(env), cwd)
    layers_of = agent or "claude"  # whose own layers are shown beside Cupcake's (cupcake.effective)
    if command is not None:
        payload = payload_for(event or "PreToolUse", tool or "Bash", {"command": command}, root)
        agent = event = None  # written in Claude Code's words: the canonical vocabulary
    else:
        from cupcake import speedups

        try:
            payload = speedups.json_loads(stdin_text or "", from_outside=True)
        except (ValueError, RecursionError) as exc:
            why = "it is nested too deep" if isinstance(exc, RecursionError) else exc
            out(f"cupcake explain: stdin is not a JSON event Cupcake can read ({why}); or give --command")
            return 2
        if not isinstance(payload, dict):
            out("cupcake explain: the event must be a JSON object")
            return 2
        if agent is None:
            from cupcake.agents.recorded import completed

            payload = completed(payload, root)
    outcome = rehearse(payload, root, env, agent=agent, event=event)
    ctx = outcome.ctx
    if ctx.configured is False:
        out(f"No policy file for {root}: Cupcake does nothing here.")
        return 0
    report = _report(outcome, every)
    if ctx.event == "PreToolUse" and ctx.incoming is not None:
        report["effective"] = _effective(layers_of, outcome, report, root, env)
    if json_out:
        out(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    out(_text(report, root, every))
    if report.get("effective"):
        from cupcake.effective import text_lines

        out("\n".join(text_lines(report["effective"])))
    return 0


def _effective(agent: str, outcome, report: dict, root: str, env) -> dict:
    """Every layer that decides this call in the agent, and which one wins (``cupcake.effective``)."""
    from cupcake.effective import view

    source = next((p["source"] for p in report["policies"] if p["name"] == outcome.policy), None)
    return view(agent, outcome.ctx.incoming, root, env, outcome.decision, outcome.policy, outcome.text, source)


def _report(outcome, every: bool) -> dict:
    from cupcake.cli.rehearse import describe, trace

    ctx = outcome.ctx
    event = ctx.incoming
    view = None
    commands: list = []
    incomplete = None
    if event is not None and isinstance(event.tool_input.get("command"), str):
        from cupcake.evaluate.event_view import EventView
        from cupcake.evaluate.patterns import of as run_patterns

        view = EventView(event, ctx.root, ctx.state, run_patterns(ctx))
        script = view.script()  # the run's own reading of it (one per run)
        incomplete = script.incomplete
        commands = [
            {
                "argv": list(c.argv),
                "program": c.program,
                "subcommand": c.reading.subcommand if c.reading is not None else None,
                "via": list(c.via),
                "cwd": c.cwd,
            }
            for c in script.commands
        ]
    matched = set(ctx.matched)
    candidates = trace(ctx)
    timings = {name: round(seconds * 1000, 3) for name, seconds in ctx.timings}
    blocks = ([{"by": ctx.hard.by, "text": ctx.hard.text}] if ctx.hard else []) + [
        {"by": by, "text": text} for by, text in ctx.other_blocks
    ]
    stdout, _stderr, code = ctx.envelope
    return {
        "schema": SCHEMA_VERSION,
        "event": ctx.event,
        "tool": event.tool if event is not None else None,
        "input": event.tool_input if event is not None else {},
        "parsed": commands,
        "incomplete": incomplete,
        "candidates": len(candidates),
        "policies": [
            {
                "name": name,
                "source": f"{file}:{line}" if line else file,
                "matched": i in matched,
                "conditions": [{"condition": describe(c), "holds": held, "why": why} for c, held, why in results],
            }
            for i, name, file, line, results in candidates
            if every or i in matched
        ],
        "decision": outcome.decision,
        "by": outcome.policy,
        "fired": blocks,
        "text": outcome.text,
        "answer": {"stdout": stdout.decode("utf-8", "replace"), "exit_code": code},
        "not_run": outcome.not_run,
        "failures": outcome.failures,
        "warnings": outcome.warnings,
        "timings_ms": timings,
    }


def _text(report: dict, root: str, every: bool) -> str:
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
    shown = report["policies"]
    if every:
        lines.append(f"Candidate policies ({report['candidates']}):")
    elif shown:
        hint = "; --all shows each and why" if report["candidates"] > len(shown) else ""
        lines.append(f"Matched {len(shown)} of {report['candidates']} candidate policies{hint}:")
    else:
        hint = "; --all shows each and why not" if report["candidates"] else ""
        lines.append(f"No policy matched ({report['candidates']} candidates{hint}).")
    for policy in shown:
        mark = "MATCH" if policy["matched"] else "no   "
        lines.append(f"  {mark} {policy['name']} ({policy['source']})")
        for cond in policy["conditions"]:
            lines.append(f"        {'yes' if cond['holds'] else 'no '} {cond['condition']}: {cond['why']}")
    fired = [b["by"] for b in report["fired"]]
    if fired:
        lines.append(f"Decision: {report['decision']} by {', and by '.join(fired)}")
    else:
        lines.append(f"Decision: {report['decision']} (no policy decided)")
    if report["text"]:
        lines.append("The agent is shown:")
        lines.extend(f"  {line}".rstrip() for line in report["text"].split("\n"))
    for failure in report["failures"]:
        lines.append(f"Failure: {failure}")
    for warning in report["warnings"]:
        lines.append(f"Warning: {warning}")
    if report["not_run"]:
        lines.append("Not run here (a hook run would run it, and it could decide): " + "; ".join(report["not_run"]))
    t = report["timings_ms"]
    load = sum(t.get(name, 0.0) for name in _LOAD)
    evaluate = sum(t.get(name, 0.0) for name in _EVALUATE)
    lines.append(f"Timings: load {load:.3f} ms, evaluate {evaluate:.3f} ms, total {sum(t.values()):.3f} ms")
    return "\n".join(lines)
