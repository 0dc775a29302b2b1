"""The self-correcting loop: the agent writes, the loader `run` uses checks, every problem goes back.

Attempts are bounded (a fixed number, no wait between them: the agent answers the problems, not a
transient fault); each one is reported to the person. An agent that fails to run ends the loop at
once: asking again would not help.
"""

from __future__ import annotations

from cupcake.init.problem_text import problem_line
from cupcake.init.prompt import correction_prompt
from cupcake.init.targets import files_run_loads

VALID, INVALID, FAILED = "valid", "invalid", "failed"


class Outcome:
    __slots__ = ("kind", "attempt", "problems", "warnings", "contents", "counts", "reply")

    def __init__(self, kind, attempt, problems=(), warnings=(), contents=None, counts=None, reply=None):
        self.kind = kind
        self.attempt = attempt  # its number, from 1
        self.problems = list(problems)  # errors, one line each: what the agent was (or would be) told
        self.warnings = list(warnings)
        self.contents = contents or {}  # target.tmp -> the exact bytes that were checked
        self.counts = counts or {}  # target.tmp -> number of policies
        self.reply = reply


def check(targets, root: str, env) -> Outcome:
    """Load the agent's files together with whatever else `run` will load beside them."""
    from cupcake.compile.compiler import compile_files

    missing = []
    before = {}
    for target in targets:
        try:
            with open(target.tmp, "rb") as f:
                before[target.tmp] = f.read()
        except FileNotFoundError:
            missing.append(f"{target.tmp_name}: you did not write this file; write it (even with no policy in it)")
        except OSError as exc:
            missing.append(f"{target.tmp_name}: cannot be read: {exc.strerror or exc}")
    if missing:
        return Outcome(INVALID, 0, missing)
    compiled = compile_files(files_run_loads(targets, root, env), root, env)
    errors = [problem_line(p) for p in compiled["problems"] if p["severity"] == "error"]
    warnings = [problem_line(p) for p in compiled["problems"] if p["severity"] == "warning"]
    for target in targets:
        with open(target.tmp, "rb") as f:
            if f.read() != before[target.tmp]:
                errors.append(f"{target.tmp_name}: changed while it was being checked")
    if errors:
        return Outcome(INVALID, 0, errors, warnings)
    counts = {t.tmp: sum(1 for p in compiled["policies"] if p[5] == t.tmp_name) for t in targets}
    return Outcome(VALID, 0, (), warnings, before, counts)


def written_texts(targets) -> dict:
    texts: dict[str, str | None] = {}
    for target in targets:
        try:
            with open(target.tmp, encoding="utf-8", errors="replace") as f:
                texts[target.tmp] = f.read()
        except OSError:
            texts[target.tmp] = None
    return texts


def translate(agent, task: str, targets, root: str, env, attempts: int, report, start=None) -> Outcome:
    """Run the agent until its files load, at most ``attempts`` times; ``report(text)`` tells the person.

    ``start``: the check of a draft kept from an earlier run (attempt 0): the agent then corrects it
    instead of starting over."""
    import time

    last: dict = {"outcome": start} if start is not None else {}

    def one_attempt() -> Outcome:
        number = last["outcome"].attempt + 1 if "outcome" in last else 1
        report(f"Attempt {number} of {attempts}: {agent.name} is writing the policies…")
        started = time.monotonic()
        if "outcome" not in last:
            reply = agent.first(task, number)
        else:
            previous = last["outcome"]
            correction = correction_prompt(previous.problems, written_texts(targets), number - 1, attempts)
            reply = agent.again(correction, task, number)
        report(f"Attempt {number} of {attempts}: {agent.name} answered after {time.monotonic() - started:.0f} s.")
        if not reply.ok:
            outcome = Outcome(FAILED, number, [reply.problem], reply=reply)
            report(f"Attempt {number} of {attempts}: {reply.problem}")
        else:
            outcome = check(targets, root, env)
            outcome.attempt, outcome.reply = number, reply
            if outcome.kind == VALID:
                counted = ", ".join(f"{n} in {t.tmp_name}" for t in targets for n in [outcome.counts[t.tmp]])
                report(f"Attempt {number} of {attempts}: the policies load ({counted}).")
            else:
                listed = "\n".join(f"  {p}" for p in outcome.problems)
                then = f"sending them back to {agent.name}" if number < attempts else "no attempts left"
                report(f"Attempt {number} of {attempts}: {len(outcome.problems)} problem(s), {then}:\n{listed}")
        last["outcome"] = outcome
        return outcome

    outcome = one_attempt()
    for _ in range(attempts - 1):
        if outcome.kind != INVALID:
            break
        outcome = one_attempt()
    return outcome
