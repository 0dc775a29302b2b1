"""One event through `cupcake run`'s own pipeline, rehearsed (``cupcake.pipeline.rehearsal``): the
decision `explain`, `test` and `replay` report, and what they show of how it was reached. Nothing
here decides: the systems do, exactly as on a hook call."""

from __future__ import annotations

import json

from cupcake.evaluate.compiled import Policy


class Outcome:
    """What one event got: the decision, the text the agent is shown, the checks that fired (the one
    that decided first), the matched policies, and what the rehearsal did not run."""

    __slots__ = ("decision", "text", "policy", "fired", "matched", "ctx", "failures", "warnings", "not_run", "warned")

    def __init__(self, ctx, rehearsal):
        from cupcake.stores.audit.record import decision_of, message_of

        self.ctx = ctx
        self.decision = decision_of(ctx.response)
        self.text = message_of(ctx.response) or (ctx.response.context if ctx.response is not None else "")
        self.policy = ctx.hard.by if ctx.hard else None
        self.fired = ([ctx.hard.by] if ctx.hard else []) + [by for by, _text in ctx.other_blocks]
        policies = ctx.policies["policies"] if ctx.policies and ctx.policies.get("policies") else ()
        self.matched = [Policy(policies[i]).name for i in ctx.matched if i < len(policies)]
        self.failures = [f.message for f in ctx.failures]
        self.warnings = list(ctx.warnings)
        self.not_run = list(rehearsal.not_run)
        # Policies whose warning went out with a call that went ahead (the packs' warn lane).
        self.warned = [
            Policy(policies[i]).name
            for i in ctx.matched
            if i < len(policies) and Policy(policies[i]).action.kind == "warn"
        ]
        if self.warned and self.decision in ("allow", "context"):
            self.decision = "warn"


def rehearse(payload: dict, root: str, env, runs_programs: bool = False, agent=None, event=None) -> Outcome:
    """``payload`` as the hook would get it in the project at ``root``: Claude Code's form, or with
    ``agent`` that agent's (``event`` as its hook command names it, when the payload does not)."""
    from cupcake.agents import adapter
    from cupcake.agents.recorded import event_of, with_project
    from cupcake.cli.run import execute
    from cupcake.pipeline.rehearsal import Rehearsal

    env = with_project(env, root)
    env.pop("CUPCAKE_TIMINGS", None)
    if agent is None:
        args = ["--event", event or event_of(payload).name]
    else:
        env.update(dict.fromkeys(adapter(agent).PROJECT_DIR_ENV, root))
        args = ["--agent", agent] + (["--event", event] if event else [])
    rehearsal = Rehearsal(runs_programs)
    ctx = execute(json.dumps(payload).encode(), args, env, rehearsal=rehearsal)
    return Outcome(ctx, rehearsal)


# ## How it was reached (explain) ##################################################################


def trace(ctx) -> list:
    """(policy index, name, file, line, [(condition, holds, why)]) for every candidate policy of the
    event, every condition evaluated (the run stops at the first that fails)."""
    from cupcake.evaluate.conditions import event_candidates, holds
    from cupcake.evaluate.event_view import EventView
    from cupcake.evaluate.patterns import of as run_patterns

    if ctx.policies is None or ctx.incoming is None:
        return []
    patterns = run_patterns(ctx)
    view = EventView(ctx.incoming, ctx.root, ctx.state, patterns)
    policies = ctx.policies["policies"]
    found = []
    for i in event_candidates(ctx.policies, ctx.incoming, patterns):
        policy = Policy(policies[i])
        results = []
        for cond in policy.conditions:
            try:
                held = holds(cond, view)
                why = why_of(cond, view, held)
            except Exception as exc:  # noqa: BLE001 - shown, never decides
                held, why = False, f"not evaluated: {type(exc).__name__}"
            results.append((cond, held, why))
        found.append((i, policy.name, policy.file, policy.line, results))
    return found


def why_of(cond, view, held: bool) -> str:
    """A short reason a condition held or not."""
    kind = cond[0] if cond else None
    if kind == "command":
        from cupcake.evaluate.command_match import command_matches, may_hold

        text = view.command
        if text is None:
            return "no command in this event"
        if not may_hold(cond, text.lower()):
            return "prefilter: the command cannot name " + "/".join(cond[1] or cond[8] or ())
        reasons = []
        for cmd in view.script().commands:
            reason = command_matches(cond, cmd, view)
            if reason is None:
                return f"matches {' '.join(cmd.argv)!r}" + (f" (via {'/'.join(cmd.via)})" if cmd.via else "")
            reasons.append(f"{' '.join(cmd.argv)!r}: {reason}")
        return "; ".join(reasons) or "the line runs no command"
    if kind in ("command_regex", "filepath_regex", "file_content_regex"):
        return f"/{cond[1]}/ {'found' if held else 'not found'}"
    if kind == "not":
        return "the inner condition " + ("does not hold" if held else "holds")
    if kind == "any":
        return "some alternative holds" if held else "no alternative holds"
    return "holds" if held else "does not hold"


def describe(cond) -> str:
    kind = cond[0] if cond else None
    if kind == "command":
        from cupcake.compile.command_condition import describe as describe_command

        return describe_command(cond)
    if kind in ("command_regex", "filepath_regex", "file_content_regex"):
        return f"{kind} /{cond[1]}/"
    if kind == "field":
        return f"field {'.'.join(cond[1])} {cond[2]} {cond[3]!r}"
    if kind in ("path", "secret", "sql", "hidden_code", "project_file"):
        from cupcake.evaluate.pack_match import describe as describe_pack

        return describe_pack(cond)
    if kind == "not":
        return f"not {describe(cond[1])}"
    if kind == "any":
        return "any of [" + "; ".join(describe(c) for c in cond[1]) + "]"
    return str(kind)
