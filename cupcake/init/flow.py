"""``cupcake init``: discover the rules, have the agent translate them until they load, show the
result, and save it only with the person's approval (a backup of every file replaced).

``out`` and ``err`` print a line to stdout and stderr; ``ask(question)`` returns True only for a yes
(an unanswered question, at the end of input, is a no).
"""

from __future__ import annotations

import os

from cupcake.agents import project_dir_in
from cupcake.init.discovery import discover
from cupcake.init.listing import listing_json, listing_lines
from cupcake.init.next_step import sync_next
from cupcake.init.problem_text import problem_line
from cupcake.init.review import diff_lines, summary_lines
from cupcake.init.save import SaveError, remove_quietly, save
from cupcake.init.targets import targets_for
from cupcake.project import PROJECT_FILE, find_root, policy_files

DEFAULT_ATTEMPTS = 5
DEFAULT_AGENT_TIMEOUT = 900.0  # seconds for one run of the agent
NO_AGENT_HINT = (
    "`cupcake init --template` writes a starter cupcake.toml instead (the recommended rules on, examples to adapt)."
)


class Options:
    def __init__(
        self,
        *,
        list_only=False,
        json_out=False,
        yes=False,
        template=False,
        show_prompt=False,
        agent_command=None,
        agent=None,
        attempts=DEFAULT_ATTEMPTS,
        agent_timeout=DEFAULT_AGENT_TIMEOUT,
        sync=True,
    ):
        self.list_only = list_only
        self.json_out = json_out
        self.yes = yes
        self.template = template
        self.show_prompt = show_prompt
        self.agent_command = agent_command
        self.agent = agent
        self.attempts = attempts
        self.agent_timeout = agent_timeout
        self.sync = sync


class Io:
    """The person's streams and questions, and ``sync``: `cupcake sync` as the command line runs it
    (``sync(scope, env, root, out=, err=) -> exit code``), handed in so that init never imports a command."""

    def __init__(self, out, err, ask, sync=None):
        self.out = out
        self.err = err
        self.ask = ask
        self.sync = sync


def init(env, cwd: str, options: Options, io: Io) -> int:
    if options.json_out and not options.list_only:
        io.err("--json goes with --list: `cupcake init --list --json`.")
        return 2
    if options.template and options.list_only:
        io.err("--list and --template do not go together: `cupcake init --list` shows what init would read.")
        return 2
    root = find_root(project_dir_in(env), cwd)
    if os.path.realpath(cwd) != root and not (options.list_only or options.show_prompt):
        io.out(f"Project root: {root} (init writes there, not in {cwd})")
    if options.template:
        return starter(root, env, options, io)
    discovery = discover(cwd, root, env)
    if options.list_only:
        io.out(listing_json(discovery) if options.json_out else "\n".join(listing_lines(discovery)))
        return 0
    if not options.show_prompt:
        io.out("\n".join(listing_lines(discovery)))
    if not discovery.memories:
        io.err(f"Nothing to translate. {NO_AGENT_HINT}")
        return 1
    targets = targets_for(discovery, root, env)
    existing = {t.final: _text(t.final) for t in targets if os.path.exists(t.final)}
    if not _others_load(targets, root, env, io):
        return 1

    from cupcake.init.prompt import task_prompt

    task = task_prompt(discovery, targets, existing)
    if options.show_prompt:
        io.out(task)
        return 0
    from cupcake.init.agent import AgentUnavailable, make_agent

    try:
        agent = make_agent(options.agent_command, root, targets, dict(env), options.agent_timeout, agent=options.agent)
    except AgentUnavailable as exc:
        return _no_agent(str(exc), root, env, options, io)
    from cupcake.init.attempts import VALID, translate

    start = _resume(targets, root, env, options, io)
    if start is not None and start.kind == VALID:
        return _review_and_save(start, targets, existing, root, env, options, io)
    outcome = translate(agent, task, targets, root, env, options.attempts, io.out, start=start)
    if outcome.kind != VALID:
        return _not_loaded(outcome, targets, options, io)
    return _review_and_save(outcome, targets, existing, root, env, options, io)


def _resume(targets, root: str, env, options, io):
    """A draft kept by an earlier run (a failed attempt, or a "no" at the save prompt) is offered
    back: its check, to go on from, or None to start over (the draft is then removed)."""
    kept = [t for t in targets if os.path.lexists(t.tmp)]
    if not kept:
        return None
    names = " and ".join(t.tmp_name for t in kept)
    question = f"{names} was kept from an earlier run. Go on from it (no: start over)?"
    if options.yes:
        io.out(f"{question} yes (--yes)")
    if options.yes or io.ask(question):
        from cupcake.init.attempts import INVALID, VALID, check

        for target in targets:
            if not os.path.lexists(target.tmp):
                with open(target.tmp, "w", encoding="utf-8"):
                    pass  # a draft for the other file: empty, so that the loader can check them together
        outcome = check(targets, root, env)
        if outcome.kind == VALID:
            io.out(f"Going on from {names}: the policies load.")
        else:
            outcome.kind = INVALID
            io.out(f"Going on from {names}: {len(outcome.problems)} problem(s) to correct.")
        return outcome
    for target in kept:
        remove_quietly(target.tmp)
    io.out(f"Removed {names}; starting over.")
    return None


def _text(path: str):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def _others_load(targets, root: str, env, io) -> bool:
    """A policy file init keeps as it is must load: the new files are checked together with it."""
    from cupcake.compile.compiler import compile_files

    touched = {t.final for t in targets}
    kept = [p for p in policy_files(root, env) if p not in touched and os.path.exists(p)]
    if not kept:
        return True
    errors = [p for p in compile_files(kept, root, env)["problems"] if p["severity"] == "error"]
    if errors:
        io.err("These policies are kept as they are, and they do not load; fix them first (`cupcake validate`):")
        for problem in errors:
            io.err(f"  {problem_line(problem)}")
        return False
    return True


def _no_agent(reason: str, root: str, env, options, io) -> int:
    io.err(f"No agent available: {reason}.")
    io.err("cupcake init needs Claude Code (`claude` on PATH) or another agent named with --agent-command.")
    if not options.yes and io.ask(
        "Write a starter cupcake.toml instead (the recommended rules on, examples to adapt)?"
    ):
        return starter(root, env, options, io, approved=True)
    io.err(NO_AGENT_HINT)
    return 1


def _not_loaded(outcome, targets, options, io) -> int:
    from cupcake.init.attempts import FAILED

    if outcome.kind == FAILED:
        for target in targets:
            remove_quietly(target.tmp)
        io.err(f"The agent failed, so nothing was written: {outcome.problems[0]}")
        io.err(NO_AGENT_HINT)
        return 1
    kept = ", ".join(t.tmp_name for t in targets)
    io.err(f"The policies still do not load after {options.attempts} attempts; nothing was saved.")
    io.err(
        f"The last attempt is kept in {kept}: fix it by hand, check it with `cupcake validate {kept}`, "
        "and rename it, or run `cupcake init` again."
    )
    return 1


def _review_and_save(outcome, targets, existing: dict, root: str, env, options, io) -> int:
    reply_text = outcome.reply.text.strip() if outcome.reply is not None else ""
    if reply_text:
        io.out("\nThe agent's notes (duplicates and conflicts are listed here):")
        io.out("\n".join(f"  {line}" for line in reply_text.splitlines()))
    new_texts = {t.tmp: outcome.contents[t.tmp].decode("utf-8") for t in targets}
    for target in targets:
        _show(target.final_label, new_texts[target.tmp], existing.get(target.final), io)
    if outcome.warnings:
        io.out("\nWarnings (the policies load, but look at these):")
        io.out("\n".join(f"  {w}" for w in outcome.warnings))
    if all(existing.get(t.final) == new_texts[t.tmp] for t in targets):
        for target in targets:
            remove_quietly(target.tmp)
        io.out("\nThe policies are the same as the files already in place: nothing to save.")
        return sync_next(root, env, io, options.sync, options.agent)
    names = " and ".join(t.final_label for t in targets)
    if not (options.yes or io.ask(f"\nSave {names}?")):
        drafts = " and ".join(t.tmp_name for t in targets)
        io.out(
            f"Nothing was written. The draft is kept in {drafts}: edit it, check it with `cupcake validate`, "
            "or run `cupcake init` again to go on from it."
        )
        return 1
    for target in targets:
        if not _save_one(target.final, target.final_label, outcome.contents[target.tmp], io):
            return 1
        remove_quietly(target.tmp)
    return sync_next(root, env, io, options.sync, options.agent)


def _show(label: str, new: str, old, io) -> None:
    lines = summary_lines(new)
    state = "new file" if old is None else ("unchanged" if old == new else "replaces the current file")
    io.out(f"\n{label} ({state}): {len(lines)} {'policy' if len(lines) == 1 else 'policies'}")
    io.out("\n".join(lines) if lines else "  (no policy)")
    diff = diff_lines(old, new, label) if old is not None and old != new else []
    if diff:
        io.out(f"\nChanges to {label}:")
        io.out("\n".join(diff))


def _save_one(path: str, label: str, content: bytes, io) -> bool:
    try:
        backup = save(path, content)
    except SaveError as exc:
        io.err(f"Not saved: {exc}")
        return False
    kept = f" (the previous one is kept as {os.path.basename(backup)})" if backup else ""
    io.out(f"Saved {label}{kept}.")
    return True


def starter(root: str, env, options, io, approved: bool = False) -> int:
    """``--template``: the starter cupcake.toml (the recommended rules and one example on, the others
    commented), checked by the loader before it is offered."""
    from cupcake.compile.compiler import compile_files
    from cupcake.init.prompt import template

    text = template("starter.cupcake.toml")
    final = os.path.join(root, PROJECT_FILE)
    old = _text(final) if os.path.exists(final) else None
    if old == text:
        io.out(f"{PROJECT_FILE} is already the starter; nothing to do.")
        return 0
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cupcake-starter-") as scratch:
        probe = os.path.join(scratch, PROJECT_FILE)
        with open(probe, "w", encoding="utf-8") as f:
            f.write(text)
        problems = compile_files([probe], scratch, {"HOME": scratch})["problems"]
    if problems:  # a broken template is a bug in Cupcake: never offer it
        io.err("The starter template does not load: " + "; ".join(problem_line(p) for p in problems))
        return 1
    io.out(
        f"{PROJECT_FILE}: a starter that turns on Cupcake's recommended rules and one policy of your own "
        '("Keep xyz"); the other examples from Cupcake\'s design are off until you remove the `# ` in front of '
        "their lines."
    )
    if old is not None:
        io.out(f"\nChanges to {PROJECT_FILE}:")
        io.out("\n".join(diff_lines(old, text, PROJECT_FILE)))
    if not ((approved and old is None) or options.yes or io.ask(f"\nSave {PROJECT_FILE}?")):
        io.out("Nothing was written.")
        return 1
    if not _save_one(final, PROJECT_FILE, text.encode("utf-8"), io):
        return 1
    return sync_next(root, env, io, options.sync, options.agent)
