"""Every command but the hot ``run`` path: a thin typer layer over plain functions.

This is the only module besides ``cupcake.cli.run`` that touches the real streams and exit codes."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from cupcake import __version__
from cupcake.cli.init import init
from cupcake.cli.jail import jail
from cupcake.errors import CupcakeError

app = typer.Typer(
    name="cupcake",
    help="Deterministic policies for AI coding agents, enforced through the agents' own hooks (Claude Code by "
    "default; Codex, Gemini CLI, Copilot CLI, droid and Cursor with --agent).\n\n"
    "Policies live in cupcake.toml at the project root and in ~/.claude/cupcake.toml.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion SHELL (bash, zsh, fish, powershell)
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cupcake {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool | None, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = None,
) -> None:
    pass


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def run(
    event: Annotated[
        str | None,
        typer.Option(
            "--event",
            metavar="EVENT",
            help="The hook event, as `cupcake sync` writes it (wins over the event name in the payload, "
            "which is used when it is not given).",
        ),
    ] = None,
    agent: Annotated[
        str,
        typer.Option(
            "--agent",
            metavar="NAME",
            help="The agent whose hook this is: claude (default), codex, gemini, copilot, droid or cursor. "
            "Its payload is read and its answer written in that agent's form.",
        ),
    ] = "claude",
    fail_closed: Annotated[
        bool,
        typer.Option(
            "--fail-closed",
            help='fail_mode "closed" before anything is read: even a Cupcake that cannot start blocks '
            '(exit 2). `cupcake sync` writes it when a policy file says fail_mode = "closed".',
        ),
    ] = False,
    timings: Annotated[bool, typer.Option("--timings", help="Print each system's time to stderr.")] = False,
) -> None:
    """Evaluate one hook event read from stdin and answer the agent (what the hooks call).

    Reads the event JSON on stdin, evaluates the project's and the user's policies, and prints
    the agent's answer in its own form (--agent NAME; Claude Code by default: nothing when nothing
    matched, else one JSON object; exit code 0).
    Whatever fails, it still prints one well-formed answer ([settings] fail_mode decides
    whether a failure blocks).
    """
    from cupcake.cli.run import main as run_main

    args = (["--event", event] if event else []) + ["--agent", agent] + (["--fail-closed"] if fail_closed else [])
    args += ["--timings"] if timings else []
    raise typer.Exit(run_main(args))


@app.command()
def validate(
    files: Annotated[
        list[str] | None,
        typer.Argument(metavar="FILE", hidden=True),  # described in the docstring: no <list[str]>
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON object for tools (schema version 1).")
    ] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on warnings too.")] = False,
) -> None:
    """Check policy files with the loader `run` uses: every problem, with file and line.

    Without FILES: the project's cupcake.toml and ~/.claude/cupcake.toml, imports included,
    as `run` loads them. Each named FILE is checked on its own, as a project file.
    Exit code: 0 no errors (warnings allowed unless --strict), 1 errors, 2 nothing to check.
    """
    from cupcake.cli.validate import validate_files

    code = validate_files(files or [], os.environ, json_out=json_out, strict=strict, out=typer.echo)
    raise typer.Exit(code)


@app.command()
def sync(
    scope: Annotated[
        str,
        typer.Option(
            "--scope",
            metavar="project|local|user|managed",
            help="project: the agent's file in the project, shared with the team (it names `cupcake`); local: "
            "your own file in the project (where the agent has one); user: the agent's file in your home. "
            "local and user name this installation's absolute path. managed: where the agent reads its "
            "organisation-wide settings, for every user of the machine (run it as root; docs/fleet.md).",
        ),
    ] = "project",
    agent: Annotated[
        str,
        typer.Option(
            "--agent",
            metavar="NAME",
            help="The agent whose hooks to write: claude (Claude Code, the default), codex, gemini, copilot, "
            "droid or cursor. `--dry-run` shows which file.",
        ),
    ] = "claude",
    command: Annotated[
        str | None,
        typer.Option("--command", metavar="PATH", help="The executable the hooks call (overrides the scope's choice)."),
    ] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the changes as a diff; write nothing.")] = False,
    uninstall: Annotated[
        bool,
        typer.Option("--uninstall", help="Remove Cupcake's hook entries and the protections sync added (only those)."),
    ] = False,
    sandbox: Annotated[
        bool,
        typer.Option(
            "--sandbox",
            help="The OS layer: shell commands cannot write Cupcake's files whatever they run. The agent's own "
            "sandbox where sync can turn it on (Claude Code's; Linux: needs bubblewrap and socat), Cupcake's jail "
            "for every other agent (bubblewrap; see docs/os-layer.md). With --uninstall: take the layer off and "
            "keep the hooks.",
        ),
    ] = False,
    jail: Annotated[
        bool,
        typer.Option(
            "--jail",
            help="Cupcake's jail as the OS layer, where the agent's own sandbox is what --sandbox turns on "
            "(Claude Code): for who does not run that sandbox.",
        ),
    ] = False,
    unshare_net: Annotated[
        bool,
        typer.Option("--unshare-net", help="With the jail: commands get no network (their own loopback only)."),
    ] = False,
    trust: Annotated[
        bool,
        typer.Option(
            "--trust",
            help="Where the agent runs only hooks it trusts (Codex): ask it to trust Cupcake's hooks and this "
            "project, as its own review would.",
        ),
    ] = False,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print what sync did as one JSON object (schema version 1).")
    ] = False,
) -> None:
    """Write Cupcake's hooks into an agent's hook settings, one entry per event.

    Every other key, hook and matcher group stays exactly as it was; running it twice changes
    nothing; entries from an older Cupcake are replaced. A settings file that is not valid JSON is
    never overwritten. The previous file is kept as <name>.bak, and git is told to ignore it. Also adds
    .cupcake/ to .gitignore. Where the agent has its own protections for Cupcake's files (Claude Code:
    permission deny rules and sandbox paths), they go beside the hooks, into a personal file.
    """
    from cupcake.cli.options import agent_name
    from cupcake.cli.sync import sync as sync_hooks

    agent = agent_name(agent, "sync")

    def run_sync(out, err) -> int:
        return sync_hooks(
            scope,
            os.environ,
            os.getcwd(),
            command=command,
            dry_run=dry_run,
            uninstall=uninstall,
            out=out,
            err=err,
            sandbox=sandbox,
            agent=agent,
            trust=trust,
            jail=jail,
            unshare_net=unshare_net,
        )

    if scope == "managed":  # every user's hooks: no project, no OS layer
        if sandbox or jail or unshare_net or trust or json_out:
            _echo_err("cupcake sync: --scope managed writes the hooks only (no --sandbox, --jail, --trust or --json)")
            raise typer.Exit(2)
        from cupcake.cli.sync_managed import sync_managed

        raise typer.Exit(sync_managed(agent, os.environ, command, dry_run, uninstall, out=typer.echo, err=_echo_err))
    if json_out:
        from cupcake.cli.sync_json import sync_as_json

        raise typer.Exit(sync_as_json(run_sync, agent, scope, os.environ, os.getcwd(), dry_run, uninstall, typer.echo))
    raise typer.Exit(run_sync(typer.echo, _echo_err))


@app.command()
def doctor(
    json_out: Annotated[bool, typer.Option("--json", help="Print the findings as JSON.")] = False,
    live: Annotated[
        bool,
        typer.Option(
            "--live",
            help="Run the agent you have installed (Claude Code, Gemini CLI) against a scripted model on "
            "127.0.0.1, in a throwaway project, and prove that a sample deny blocks and an allow runs.",
        ),
    ] = False,
    agent: Annotated[
        list[str] | None,
        typer.Option("--agent", metavar="NAME", help="With --live: claude or gemini (default: every one installed)."),
    ] = None,
    agent_path: Annotated[
        str | None,
        typer.Option("--agent-path", metavar="PATH", help="With --live: the agent's executable (default: on PATH)."),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option("--timeout", metavar="SECONDS", min=5, help="With --live: the most one agent's run may take."),
    ] = 120.0,
) -> None:
    """Check the installation: why didn't it block?

    Looks for Cupcake's hooks in every settings scope and runs the executable they name, validates
    the policy files, checks that .cupcake/ is writable, and sends a sample event through the hook
    command, timed; then shows the agent's own layers (permission rules, other hooks) for a sample call.
    Each problem says how to fix it. Exit code 1 when there is a problem.

    With --live, only the live check runs: no API key, no network, bounded in time.
    """
    if live:
        from cupcake.live.check import AGENTS, doctor_live

        unknown = [a for a in agent or () if a not in AGENTS]
        if unknown:
            _echo_err(f"cupcake doctor --live: {unknown[0]!r} is not supported (it runs {', '.join(AGENTS)})")
            raise typer.Exit(2)
        if agent_path and len(agent or ()) != 1:
            _echo_err("cupcake doctor --live: --agent-path needs exactly one --agent")
            raise typer.Exit(2)
        code = doctor_live(
            os.environ, agent, timeout, agent_path, json_out=json_out, out=typer.echo, progress=_echo_err
        )
        raise typer.Exit(code)
    if agent or agent_path:
        _echo_err("cupcake doctor: --agent and --agent-path go with --live")
        raise typer.Exit(2)
    from cupcake.cli.doctor import doctor as run_doctor

    raise typer.Exit(run_doctor(os.environ, os.getcwd(), json_out=json_out, out=typer.echo, progress=_echo_err))


@app.command()
def export(
    paths: Annotated[
        list[str] | None,
        typer.Argument(metavar="[PROJECT]...", help="Projects to send from (a folder in each); default: this one."),
    ] = None,
    retries: Annotated[
        int,
        typer.Option("--retries", metavar="N", min=0, max=20, help="Tries after the first when the receiver is away."),
    ] = 3,
    wait: Annotated[
        float,
        typer.Option("--wait", metavar="SECONDS", min=0, help="How long to wait for a forwarder already at work."),
    ] = 30.0,
    json_out: Annotated[bool, typer.Option("--json", help="Print what was sent and what waits as JSON.")] = False,
) -> None:
    """Send the decisions waiting in the telemetry spool to the OpenTelemetry endpoint, now.

    Runs start a forwarder in the background at most once per [telemetry] interval_seconds; this
    sends what is waiting in the foreground (by hand, from cron or a CI job) and says how much was sent
    and how much still waits. Exit code 1 when decisions still wait (they are kept for the next try).
    """
    from cupcake.cli.export import export as run_export

    raise typer.Exit(
        run_export(paths or [], os.environ, os.getcwd(), retries, wait, json_out, out=typer.echo, err=_echo_err)
    )


app.command()(init)
app.command(context_settings={"allow_interspersed_args": False})(jail)


def _echo_err(message: str) -> None:
    typer.echo(message, err=True)


# ## cupcake audit #################################################################################

audit_app = typer.Typer(
    help="The audit trail: what Cupcake decided, for whom, and why ([settings] audit_logging = true).\n\n"
    "Without a subcommand: the most recent decisions as a table (times in UTC). Filters combine;\n"
    "a filter given twice matches either value. Reads the rotated files too.",
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(audit_app, name="audit")

_Session = Annotated[
    list[str] | None, typer.Option("--session", metavar="ID", help="Only this session (a prefix is enough).")
]
_Event = Annotated[
    list[str] | None, typer.Option("--event", metavar="EVENT", help="Only this hook event, e.g. PreToolUse.")
]
_Decision = Annotated[
    list[str] | None,
    typer.Option(
        "--decision",
        metavar="DECISION",
        help="Only this decision: allow, block, approve, ask, feedback, context, error.",
    ),
]
_Policy = Annotated[
    list[str] | None, typer.Option("--policy", metavar="NAME", help="Only runs in which this policy matched.")
]
_Since = Annotated[
    str | None,
    typer.Option("--since", metavar="AGE|TIME", help="Only records this recent (30m, 2h, 7d, 1w) or since a UTC time."),
]
_Json = Annotated[bool, typer.Option("--json", help="JSON Lines out, one stored record per line (for jq).")]
_JsonObject = Annotated[bool, typer.Option("--json", help="Print one JSON object (for scripts).")]
_Log = Annotated[
    str | None,
    typer.Option("--log", metavar="PATH", help="The audit log to read (default: .cupcake/audit.log of this project)."),
]


def _audit_filters(session, event, decision, policy, since):
    from cupcake.stores.audit.query import Filters, QueryError, parse_since

    try:
        return Filters(session, event, decision, policy, parse_since(since) if since else None)
    except QueryError as exc:
        raise typer.BadParameter(str(exc)) from None


def _audit_log(log) -> str:
    from cupcake.stores.audit.reader import default_log

    return os.path.abspath(log) if log else default_log(os.environ)


@audit_app.callback(invoke_without_command=True)
def audit(
    ctx: typer.Context,
    session: _Session = None,
    event: _Event = None,
    decision: _Decision = None,
    policy: _Policy = None,
    since: _Since = None,
    limit: Annotated[
        int | None,
        typer.Option("--limit", "-n", min=0, metavar="N", help="Show the last N (default 20 in the table; 0: all)."),
    ] = None,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Keep printing new records (Ctrl-C ends).")] = False,
    json_out: _Json = False,
    log: _Log = None,
) -> None:
    """Recent decisions as a table; `stats` and `verify` below."""
    filters = _audit_filters(session, event, decision, policy, since)
    ctx.obj = {"filters": filters, "log": log}
    if ctx.invoked_subcommand:
        return
    import shutil

    from cupcake.cli.audit import show

    width = shutil.get_terminal_size((120, 24)).columns if sys.stdout.isatty() else 0
    code = show(
        _audit_log(log),
        filters,
        limit=limit,
        follow=follow,
        json_out=json_out,
        width=width,
        out=typer.echo,
        err=_echo_err,
    )
    raise typer.Exit(code)


@audit_app.command("stats")
def audit_stats(
    ctx: typer.Context,
    session: _Session = None,
    event: _Event = None,
    decision: _Decision = None,
    policy: _Policy = None,
    since: _Since = None,
    json_out: _JsonObject = False,
    log: _Log = None,
) -> None:
    """Decisions per policy and per event, and the slowest runs."""
    from cupcake.cli.audit import stats

    given = ctx.obj or {}
    filters = _audit_filters(session, event, decision, policy, since)
    if not filters:
        filters = given.get("filters") or filters
    code = stats(_audit_log(log or given.get("log")), filters, json_out=json_out, out=typer.echo, err=_echo_err)
    raise typer.Exit(code)


@audit_app.command("verify")
def audit_verify(ctx: typer.Context, json_out: _JsonObject = False, log: _Log = None) -> None:
    """Check the hash chain over every file; report the first broken link (exit 1)."""
    from cupcake.cli.audit import verify

    given = ctx.obj or {}
    code = verify(_audit_log(log or given.get("log")), json_out=json_out, out=typer.echo, err=_echo_err)
    raise typer.Exit(code)


@app.command("allow")
def allow_command(
    code: Annotated[str | None, typer.Argument(metavar="CODE", help="The code from the block message.")] = None,
    for_: Annotated[
        str | None,
        typer.Option("--for", metavar="DURATION", help="Let this exact call through for a while: 30m, 2h, 1d."),
    ] = None,
    always: Annotated[
        bool, typer.Option("--always", help="Always let this exact call through (needs --reason).")
    ] = False,
    reason: Annotated[
        str | None, typer.Option("--reason", metavar="TEXT", help="Why; recorded with the grant.")
    ] = None,
    list_: Annotated[bool, typer.Option("--list", help="The codes offered (never the codes) and the grants.")] = False,
    revoke: Annotated[str | None, typer.Option("--revoke", metavar="ID", help="Take a grant back.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="With --list: print it as JSON.")] = False,
) -> None:
    """Let a call a policy blocked go ahead: once, for a while, or always with a reason.

    Run it yourself, in your own terminal, with the code from the block message (shown to you, never
    to the agent). Agents may not run it. Every grant is in the audit trail. Five wrong codes in 15
    minutes withdraw every pending code.

    Agents with no user-only channel (Copilot CLI, Cursor) get no code: there, [settings]
    approvals = "ask" turns such a block into the agent's own question to you instead.
    """
    from cupcake.approvals import grant

    if list_:
        raise typer.Exit(grant.listing(os.environ, os.getcwd(), json_out=json_out, out=typer.echo))
    if revoke:
        raise typer.Exit(grant.revoke(os.environ, os.getcwd(), revoke, out=typer.echo))
    if not code:
        _echo_err("cupcake allow: give the code from the block message (or --list, or --revoke ID)")
        raise typer.Exit(2)
    raise typer.Exit(grant.allow(os.environ, os.getcwd(), code, for_, always, reason, out=typer.echo))


@audit_app.command("report")
def audit_report(
    ctx: typer.Context,
    output: Annotated[str, typer.Option("--output", "-o", metavar="FILE.html", help="Where to write the page.")],
    logs: Annotated[
        list[str] | None,
        typer.Option("--log", metavar="PATH", help="An audit log to include (give several for several projects)."),
    ] = None,
    session: _Session = None,
    event: _Event = None,
    decision: _Decision = None,
    policy: _Policy = None,
    since: _Since = None,
) -> None:
    """A self-contained HTML page: decisions over time, top rules, per agent and per project, the
    slowest hooks. Nothing in it loads from the network."""
    from cupcake.cli.audit import report

    given = ctx.obj or {}
    filters = _audit_filters(session, event, decision, policy, since)
    if not filters:
        filters = given.get("filters") or filters
    paths = [os.path.abspath(p) for p in logs] if logs else [_audit_log(given.get("log"))]
    raise typer.Exit(report(paths, filters, output, out=typer.echo, err=_echo_err))


# ## cupcake shadow ################################################################################

shadow_app = typer.Typer(
    help="Shadow runs: a candidate policy set evaluated on every live event beside the enforced one.\n\n"
    'Name it in cupcake.toml with [shadow] candidate = "cupcake.candidate.toml"; it never decides.\n'
    'A policy with mode = "observe" (or [packs] observe = [...]) is recorded, not enforced.',
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(shadow_app, name="shadow")


@shadow_app.command("report")
def shadow_report(since: _Since = None, json_out: _JsonObject = False) -> None:
    """Where the candidate (and each observed policy) decided otherwise: events, rules, decisions."""
    from cupcake.shadow.report import report

    cutoff = None
    if since:
        from cupcake.stores.audit.query import QueryError, parse_since

        try:
            cutoff = parse_since(since)
        except QueryError as exc:
            raise typer.BadParameter(str(exc)) from None
    raise typer.Exit(report(os.environ, os.getcwd(), cutoff, json_out=json_out, out=typer.echo))


@shadow_app.command("promote")
def shadow_promote(
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Promote without asking (for scripts).")] = False,
) -> None:
    """Make the candidate the enforced set: shows the policy changes, what the shadow log recorded
    and the file diff, then asks. The previous cupcake.toml is kept as cupcake.toml.bak."""
    from cupcake.cli.init import _ask
    from cupcake.shadow.promote import promote

    raise typer.Exit(promote(os.environ, os.getcwd(), yes, typer.echo, _echo_err, _ask))


@app.command()
def systems(
    json_out: Annotated[bool, typer.Option("--json", help="Print the plan as JSON.")] = False,
) -> None:
    """List the pipeline a run in this project goes through: order, system, where it comes from
    (built-in, or the distribution and version that provides it), and whether it is enabled.

    Custom systems are enabled in cupcake.toml, never by being installed:

    \b
        [pipeline.systems]
        acme-secrets = 450                      # an entry point (group cupcake.systems)
        "acme_cupcake.audit:SplunkSink" = 850   # or an import path
        audit_write = false                     # turn a built-in off (core systems cannot be)
    """
    from cupcake.cli.systems import list_systems

    raise typer.Exit(list_systems(os.environ, os.getcwd(), json_out=json_out, out=typer.echo))


@app.command()
def packs(
    name: Annotated[str | None, typer.Argument(metavar="NAME", hidden=True)] = None,  # in the docstring
    project: Annotated[
        bool, typer.Option("--project", help="The packs this project turns on, rule by rule (on, or off and why).")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print it as JSON.")] = False,
) -> None:
    """List the built-in rule packs and their rules; with NAME (git, or cupcake:git), that pack's rules in
    full: message and examples.

    Enable a pack in cupcake.toml with imports = ["cupcake:recommended"] (or "cupcake:git", …);
    switch a rule off with [packs] disable = ["git.force-push"] and change what the agent is told
    with [packs.messages] "git.force-push" = "…".
    """
    from cupcake.cli.packs import list_packs, list_project_packs, show_pack

    if name is not None and project:
        _echo_err("cupcake packs: give a NAME or --project, not both")
        raise typer.Exit(2)
    if project:
        raise typer.Exit(list_project_packs(os.environ, os.getcwd(), json_out=json_out, out=typer.echo))
    if name is not None:
        raise typer.Exit(show_pack(name, json_out=json_out, out=typer.echo, err=_echo_err))
    raise typer.Exit(list_packs(json_out=json_out, out=typer.echo))


@app.command()
def schema() -> None:
    """Print the JSON Schema of cupcake.toml, for editors.

    Save it beside the policy file and name it on the file's first line, which TOML editors (Taplo,
    Even Better TOML) read:  cupcake schema > cupcake.schema.json, then  #:schema ./cupcake.schema.json
    """
    from cupcake.compile.schema import JSON_SCHEMA_FILE

    with open(JSON_SCHEMA_FILE, encoding="utf-8") as f:
        typer.echo(f.read(), nl=False)


@app.command("test")
def test_policies(
    files: Annotated[list[str] | None, typer.Argument(metavar="FILE", hidden=True)] = None,  # in the docstring
    packs_: Annotated[bool, typer.Option("--packs", help="Run every built-in pack's own examples.")] = False,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the results as one JSON object (schema version 1).")
    ] = False,
    junit: Annotated[
        str | None, typer.Option("--junit", metavar="FILE", help="Also write the results as JUnit XML to FILE.")
    ] = None,
) -> None:
    """Run scenario files against the project's policies; exit 1 when any gets another decision.

    FILE: scenario files, or folders of *.toml (default: tests/cupcake/). A scenario: [[scenario]] with command = "git push --force" (or tool = "Read" and input = {…},
    or payload = {…}), expect = "block" (allow, block, ask, approve, feedback, context) and,
    optionally, expect_text and expect_policy. Each goes through the hook's own pipeline (checks
    run) and nothing is recorded: no audit line, no session state. Exit code 2 when a FILE named
    does not exist.
    """
    from cupcake.cli.scenarios import run_pack_examples, run_scenarios

    if packs_:
        raise typer.Exit(run_pack_examples(os.environ, typer.echo, _echo_err, json_out=json_out, junit=junit))
    code = run_scenarios(files or [], os.environ, os.getcwd(), typer.echo, _echo_err, json_out=json_out, junit=junit)
    raise typer.Exit(code)


@app.command()
def explain(
    command: Annotated[
        str | None, typer.Option("--command", metavar="COMMAND", help="A Bash command (else the event JSON on stdin).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the explanation as JSON.")] = False,
    every: Annotated[
        bool, typer.Option("--all", help="Show every candidate policy and why it did or did not match.")
    ] = False,
    agent: Annotated[
        str, typer.Option("--agent", metavar="NAME", help="The agent whose event is on stdin (default claude).")
    ] = "claude",
    event: Annotated[
        str | None,
        typer.Option("--event", metavar="EVENT", help="The hook event, as `cupcake sync` writes it for that agent."),
    ] = None,
) -> None:
    """Show how one event is decided, by the pipeline `cupcake run` uses: the parsed command, the
    policies that matched and why (--all: every candidate), every check that fired (self-protection
    and the policies), the decision, the exact text the agent is shown, and timings; then, for a tool
    call, every layer in the agent that decides it (its own permission rules, mode, other hooks,
    managed settings) and which one wins by the agent's precedence.
    Nothing is recorded and no command runs (a check is named instead)."""
    from cupcake.agents import DEFAULT
    from cupcake.cli.explain import explain as run_explain
    from cupcake.cli.options import agent_name

    agent = agent_name(agent, "explain")
    text = None if command is not None else sys.stdin.read()
    code = run_explain(
        os.environ,
        os.getcwd(),
        command,
        text,
        json_out=json_out,
        every=every,
        out=typer.echo,
        agent=None if agent == DEFAULT else agent,  # the default agent's payload is the canonical one
        event=event,
    )
    raise typer.Exit(code)


@app.command()
def replay(
    sources: Annotated[list[str] | None, typer.Argument(metavar="FILE", hidden=True)] = None,  # in the docstring
    since: Annotated[
        str | None, typer.Option("--since", metavar="AGE|TIME", help="Only events since then (7d, 24h, or a date).")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the changes as JSON.")] = False,
) -> None:
    """Run recorded tool calls through the current policies and report what would change
    ("git.force-push would have blocked 3 of 120 logged calls").

    FILE: audit logs, or Claude Code transcripts (.jsonl); default: .cupcake/audit.log. Each call goes
    through the hook's own pipeline; nothing runs and nothing is recorded. A call whose outcome hangs
    on what the record does not hold (a file's contents, the session's state then) is listed as one
    that cannot be judged, and replay says how many calls were never logged (audit_allows = false)."""
    from cupcake.cli.replay import replay as run_replay

    raise typer.Exit(run_replay(os.environ, os.getcwd(), sources or [], since, json_out, typer.echo, _echo_err))


def main(args=None) -> int:
    """Run a command; map every outcome to an exit code (see ``cupcake.cli.errors``)."""
    from cupcake.cli import errors

    argv = list(sys.argv[1:] if args is None else args)
    try:
        code = app(args=argv, prog_name="cupcake", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except typer.Exit as exc:
        return exc.exit_code
    except SystemExit as exc:  # shell completion answers, then exits: its code is the command's
        return exc.code if isinstance(exc.code, int) else 0
    except (typer.Abort, KeyboardInterrupt):
        print("Interrupted.", file=sys.stderr)
        return errors.INTERRUPTED
    except CupcakeError as exc:  # a problem Cupcake found, said for the person
        print(f"cupcake: error: {exc}", file=sys.stderr)
        return errors.PROBLEM
    except Exception as exc:
        # usage errors: typer's (click's) exceptions know how to show themselves
        show, code = getattr(exc, "show", None), getattr(exc, "exit_code", None)
        if callable(show) and isinstance(code, int):
            show()
            return code
        return errors.unexpected(exc, argv)
