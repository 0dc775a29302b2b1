"""``cupcake test``: scenario files run against the project's policies, and ``--packs``: every built-in
rule's own examples. Each scenario goes through the hook's own pipeline, rehearsed
(``cupcake.cli.rehearse``): checks run, so a scenario can test them, but nothing is recorded, so
the team's audit trail, ``audit stats`` and session state never see a scenario.

A scenario file holds ``[[scenario]]`` tables:

    [[scenario]]
    name = "force pushes are stopped"
    command = "git push --force"          # a Bash call; or tool = "Read" and input = { file_path = ".env" }
    expect = "block"                      # allow, block, ask, approve, feedback, context, warn
    expect_text = "Push normally"         # optional: the answer's text contains this
    expect_policy = "git.force-push"      # optional: a check that fired, or a policy that matched

``event = "PreToolUse"`` (the default) names the hook event; ``payload = { … }`` gives a whole
event instead. Exit code 1 when any scenario does not get what it expects (with a diff) or cannot
be read, 2 when a file or folder named on the command line does not exist."""

from __future__ import annotations

import difflib
import json
import os
import re
import tempfile
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cupcake.cli.rehearse import Outcome

DECISIONS = ("allow", "block", "ask", "approve", "feedback", "context", "warn")
ALIASES = {"deny": "block", "none": "allow"}
DEFAULT_DIR = os.path.join("tests", "cupcake")
SCHEMA_VERSION = 1
_HEADER = re.compile(r"^\s*\[\[\s*scenario\s*\]\]")


class UsageError(Exception):
    """The command line names something that is not there (exit 2)."""


class Result:
    """One scenario (or pack example): where it is, whether it got what it expects, and why not."""

    __slots__ = ("suite", "name", "line", "expected", "outcome", "diff", "error", "seconds")

    def __init__(self, suite: str, name: str, line=None, expected=None):
        self.suite = suite  # the file (relative to where `cupcake test` runs), or the pack
        self.name = name
        self.line = line
        self.expected = expected or {}
        self.outcome: Outcome | None = None
        self.diff = ""
        self.error = ""  # the scenario could not be run: what is wrong with it
        self.seconds = 0.0

    @property
    def ok(self) -> bool:
        return not self.error and not self.diff

    @property
    def where(self) -> str:
        at = f"{self.suite}:{self.line}" if self.line else self.suite
        return f"{at} ({self.name})"

    def data(self) -> dict:
        outcome = self.outcome
        actual = None
        if outcome is not None:
            actual = {
                "decision": outcome.decision,
                "policy": outcome.policy,
                "fired": outcome.fired,
                "matched": outcome.matched,
                "text": outcome.text,
                "failures": outcome.failures,
            }
        return {
            "suite": self.suite,
            "name": self.name,
            "line": self.line,
            "ok": self.ok,
            "expected": self.expected,
            "actual": actual,
            "diff": self.diff,
            "error": self.error,
        }


def payload_for(event: str, tool, tool_input, root: str, session: str = "cupcake-test") -> dict:
    from cupcake.agents.recorded import tool_call

    return tool_call(event, tool, tool_input, root, session, os.path.join(root, ".cupcake", "no-transcript.jsonl"))


def run_payload(payload: dict, root: str, env) -> Outcome:
    """One event through the hook's pipeline, as the hook would get it from ``root``: checks run,
    nothing is recorded (no audit line, no session state)."""
    from cupcake.cli.rehearse import rehearse

    return rehearse(payload, root, env, runs_programs=True)


def scenario_payload(table: dict, root: str) -> dict:
    if isinstance(table.get("payload"), dict):
        from cupcake.agents.recorded import completed

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
    if isinstance(policy, str) and policy not in outcome.fired and policy not in outcome.matched:
        wrong.append("policy")
    return wrong


def diff(table: dict, outcome: Outcome) -> str:
    want = [f"decision: {_expected(table)}"]
    got = [f"decision: {outcome.decision}"]
    if "expect_policy" in table:
        want.append(f"policy: {table['expect_policy']}")
        got.append(f"policy: {', '.join(outcome.fired) or ', '.join(outcome.matched) or '(none)'}")
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
    """The scenario files: those named (a folder: its ``*.toml``), else ``tests/cupcake/*.toml``."""
    if paths:
        missing = [p for p in paths if not os.path.exists(p)]
        if missing:
            raise UsageError(
                "no such file or directory: " + ", ".join(missing) + " (give scenario files, or folders of *.toml)"
            )
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


def file_results(path: str, shown: str, root: str, env) -> list:
    """The results of every scenario of one file (or one result saying why it cannot be read)."""
    import tomli

    try:
        with open(path, "rb") as f:
            raw = f.read()
        data = tomli.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError) as exc:
        result = Result(shown, "the file")
        result.error = f"{shown}: cannot read: {getattr(exc, 'strerror', None) or exc}"
        return [result]
    lines = [n + 1 for n, text in enumerate(raw.decode("utf-8").splitlines()) if _HEADER.match(text)]
    tables = data.get("scenario", [])
    if not isinstance(tables, list):
        result = Result(shown, "the file")
        result.error = f"{shown}: `scenario` must be an array of tables ([[scenario]])"
        return [result]
    results = []
    for n, table in enumerate(tables):
        name = table.get("name") if isinstance(table, dict) else None
        line = lines[n] if n < len(lines) else None
        result = Result(shown, name if isinstance(name, str) else f"scenario {n + 1}", line)
        results.append(result)
        bad = problems_of(table, result.where)
        if bad:
            result.error = "\n".join(bad)
            continue
        result.expected = {k: table[k] for k in ("expect", "expect_text", "expect_policy") if k in table}
        started = time.perf_counter()
        outcome = result.outcome = run_payload(scenario_payload(table, root), root, env)
        result.seconds = time.perf_counter() - started
        if check(table, outcome):
            result.diff = diff(table, outcome)
    return results


def run_scenarios(paths, env, cwd, out, err, json_out: bool = False, junit=None) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.project import find_root

    root = find_root(project_dir_in(env), cwd)
    try:
        files = scenario_files(paths, root)
        if not files:
            raise UsageError(f"no scenario files (give paths, or put *.toml files in {DEFAULT_DIR}/)")
        report_file = _open_report(junit)
    except UsageError as exc:
        err(f"cupcake test: {exc}")
        return 2
    results = []
    for path in files:
        results.extend(file_results(path, os.path.relpath(path, cwd), root, env))
    return _report(results, out, err, json_out, report_file, every=True)


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
        if packs.load(name).include:
            continue  # a gathering pack (recommended): its rules are the other packs' rules
        with tempfile.TemporaryDirectory(prefix="cupcake-pack-") as scratch:
            root = os.path.realpath(os.path.join(scratch, "project"))
            os.makedirs(root)
            with open(os.path.join(root, "cupcake.toml"), "w", encoding="utf-8") as f:
                # The pack on its own: self-protection's blocks are its own (tests/protection).
                f.write(f'imports = ["cupcake:{name}"]\n[settings]\nself_protection = false\n')
            for rule in packs.load(name).rules:
                for expected, tool, tool_input, files in packs.examples(rule):
                    for file_name, text in files.items():  # the project files an example needs
                        with open(os.path.join(root, file_name), "w", encoding="utf-8") as f:
                            f.write(text)
                    try:
                        outcome = run_payload(payload_for("PreToolUse", tool, tool_input, root), root, env)
                    finally:
                        for file_name in files:
                            os.remove(os.path.join(root, file_name))
                    hit = rule["id"] in outcome.matched
                    if expected == "stop":  # caught in the rule's lane: block, ask, or warn
                        ok = hit and outcome.decision == packs.level_of(rule)
                    else:
                        ok = not hit
                    yield name, rule, expected, tool, tool_input, outcome, ok and not outcome.failures


def run_pack_examples(env, out, err=print, names=None, json_out: bool = False, junit=None) -> int:
    try:
        report_file = _open_report(junit)
    except UsageError as exc:
        err(f"cupcake test: {exc}")
        return 2
    results = []
    for pack, rule, expected, tool, tool_input, outcome, ok in pack_results(env, names):
        shown = tool_input.get("command") if tool == "Bash" else f"{tool} {json.dumps(tool_input)}"
        want = "caught" if expected == "stop" else "let through"
        result = Result(f"cupcake:{pack}", f"{rule['id']}: {shown!r} is {want}")
        result.expected = {"rule": rule["id"], "example": expected}
        result.outcome = outcome
        if not ok:
            result.diff = (
                f"{rule['id']}: {shown!r} should be {want}; got {outcome.decision} (matched: {outcome.matched})"
            )
        results.append(result)
    return _report(results, out, err, json_out, report_file, every=False, label="pack examples ")


# ## Reports: text, JSON, JUnit XML ################################################################


def _open_report(path):
    """The JUnit report's file, opened before anything runs (a path that cannot be written is a usage error)."""
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--junit: cannot write {path}: {exc.strerror or exc}") from None


def _report(results, out, err, json_out: bool, report_file, every: bool, label: str = "") -> int:
    passed = sum(1 for r in results if r.ok)
    errors = sum(1 for r in results if r.error)
    failed = len(results) - passed - errors
    # What the runs told the user (a policy out of service, say): once each, not once per scenario.
    warnings = list(dict.fromkeys(w for r in results if r.outcome is not None for w in r.outcome.warnings))
    if report_file is not None:
        with report_file:
            report_file.write(junit_xml(results))
    if json_out:
        summary = {
            "schema": SCHEMA_VERSION,
            "passed": passed,
            "failed": failed,
            "errors": errors,
            "warnings": warnings,
            "results": [r.data() for r in results],
        }
        out(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        for warning in warnings:
            err(warning)
        for result in results:
            if result.error:
                err(result.error)
            elif result.diff:
                out(f"FAIL {result.where}\n{result.diff}" if every else f"FAIL {result.diff}")
            elif every:
                out(f"ok   {result.where}")
        tail = f", {errors} could not be run" if errors else ""
        out(f"{passed} {label}passed, {failed} failed{tail}")
    return 1 if failed or errors else 0


def junit_xml(results) -> str:
    """The results as JUnit XML (one ``testsuite`` per file or pack), as CI servers read it."""
    from xml.etree import ElementTree as ET

    top = ET.Element("testsuites", name="cupcake test")
    suites: dict = {}
    for result in results:
        suite = suites.get(result.suite)
        if suite is None:
            suite = suites[result.suite] = ET.SubElement(top, "testsuite", name=result.suite)
        case = ET.SubElement(suite, "testcase", classname=result.suite, name=result.name, time=f"{result.seconds:.3f}")
        if result.line:
            case.set("file", result.suite)
            case.set("line", str(result.line))
        if result.error:
            ET.SubElement(case, "error", message=result.error.split("\n")[0]).text = result.error
        elif result.diff:
            outcome = result.outcome
            got = outcome.decision if outcome is not None else "?"
            ET.SubElement(
                case, "failure", message=f"expected {_summary(result.expected)}, got {got}"
            ).text = result.diff
    for element in [top, *suites.values()]:
        cases = element.iter("testcase")
        counted = [(c.find("failure") is not None, c.find("error") is not None) for c in cases]
        element.set("tests", str(len(counted)))
        element.set("failures", str(sum(f for f, _e in counted)))
        element.set("errors", str(sum(e for _f, e in counted)))
        times = (float(c.get("time") or 0) for c in element.iter("testcase"))
        element.set("time", f"{sum(times):.3f}")
    ET.indent(top)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(top, encoding="unicode") + "\n"


def _summary(expected: dict) -> str:
    return ", ".join(f"{k} {v!r}" for k, v in expected.items()) or "?"
