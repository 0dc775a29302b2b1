"""`cupcake test` through the installed executable (issue 24, items 5 and 8): scenarios leave nothing in
the team's audit trail or the session state, results as JSON and JUnit XML, and a path that is not
there is a usage error that names it."""

from __future__ import annotations

import json
import subprocess
from xml.etree import ElementTree as ET

from cupcake.cli.scenarios import problems_of
from tests.conftest import cupcake_executable

AUDITED = """\
imports = ["cupcake:git"]

[settings]
audit_logging = true
audit_allows = true

[[policy]]
name = "Tests before stopping"
hook_event = "Stop"
conditions = [{ type = "state_missing", tool = "Bash", command = "pytest" }]
action = { type = "block_with_feedback", feedback_message = "Run the tests first." }
"""

SCENARIOS = """\
[[scenario]]
name = "force push"
command = "git push -f"
expect = "block"
expect_policy = "git.force-push"

[[scenario]]
name = "tests ran"
event = "PostToolUse"
command = "pytest -q"
expect = "allow"

[[scenario]]
name = "stop without tests"
event = "Stop"
tool = "Bash"
payload = { hook_event_name = "Stop", stop_hook_active = false }
expect = "block"
"""


def _cli(project, *args):
    return subprocess.run(
        [cupcake_executable(), *args], capture_output=True, text=True, cwd=project.root, env=project.env(), timeout=60
    )


def _scenarios(project, text=SCENARIOS, name="tests/cupcake/flow.toml"):
    path = project.root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_scenarios_leave_no_trace_in_the_audit_trail_or_the_session_state(project):
    project.write_policy(AUDITED)
    _scenarios(project)
    done = _cli(project, "test")
    assert (done.stdout, done.stderr, done.returncode) == (
        "ok   tests/cupcake/flow.toml:1 (force push)\n"
        "ok   tests/cupcake/flow.toml:7 (tests ran)\n"
        "ok   tests/cupcake/flow.toml:13 (stop without tests)\n"
        "3 passed, 0 failed\n",
        "",
        0,
    )
    work = project.root / ".cupcake"
    assert not (work / "audit.log").exists()
    assert not (work / "state").exists()
    # the second run sees no state the first left behind: the Stop is still blocked
    assert _cli(project, "test").returncode == 0
    stats = _cli(project, "audit", "stats")
    assert stats.returncode == 1 and "no run has been logged" in stats.stderr


def test_results_as_json_and_junit_xml(project, tmp_path):
    project.write_policy('imports = ["cupcake:git"]\n')
    _scenarios(
        project,
        '[[scenario]]\nname = "push"\ncommand = "git push"\nexpect = "allow"\n\n'
        '[[scenario]]\nname = "wrong"\ncommand = "git status"\nexpect = "block"\n',
    )
    report = tmp_path / "junit.xml"
    done = _cli(project, "test", "--json", "--junit", str(report))
    assert done.returncode == 1 and done.stderr == ""
    data = json.loads(done.stdout)
    assert (data["schema"], data["passed"], data["failed"], data["errors"]) == (1, 1, 1, 0)
    first, second = data["results"]
    assert (first["suite"], first["name"], first["line"], first["ok"]) == ("tests/cupcake/flow.toml", "push", 1, True)
    assert second["ok"] is False and second["actual"]["decision"] == "allow"
    assert second["diff"] == ("--- expected\n+++ actual\n@@ -1 +1 @@\n-decision: block\n+decision: allow")
    suites = ET.parse(report).getroot()
    assert (suites.tag, suites.get("tests"), suites.get("failures"), suites.get("errors")) == (
        "testsuites",
        "2",
        "1",
        "0",
    )
    (suite,) = suites
    assert suite.get("name") == "tests/cupcake/flow.toml"
    cases = list(suite)
    assert [(c.get("name"), c.get("line")) for c in cases] == [("push", "1"), ("wrong", "6")]
    assert cases[0].find("failure") is None
    failure = cases[1].find("failure")
    assert failure.get("message") == "expected expect 'block', got allow"
    assert failure.text == second["diff"]


def test_a_missing_file_is_a_usage_error(project):
    project.write_policy('imports = ["cupcake:git"]\n')
    done = _cli(project, "test", "tests/cupcake/nope.toml")
    assert (done.stdout, done.stderr, done.returncode) == (
        "",
        "cupcake test: no such file or directory: tests/cupcake/nope.toml (give scenario files, or folders of *.toml)\n",
        2,
    )


def test_no_scenarios_at_all_is_a_usage_error(project):
    project.write_policy('imports = ["cupcake:git"]\n')
    done = _cli(project, "test")
    assert (done.stdout, done.stderr, done.returncode) == (
        "",
        "cupcake test: no scenario files (give paths, or put *.toml files in tests/cupcake/)\n",
        2,
    )


def test_a_junit_file_that_cannot_be_written_is_a_usage_error_before_anything_runs(project):
    project.write_policy('imports = ["cupcake:git"]\n')
    _scenarios(project)
    done = _cli(project, "test", "--junit", "no/such/dir/junit.xml")
    assert (done.stdout, done.returncode) == ("", 2)
    assert done.stderr == "cupcake test: --junit: cannot write no/such/dir/junit.xml: No such file or directory\n"


def test_a_broken_scenario_file_says_where(project):
    project.write_policy('imports = ["cupcake:git"]\n')
    _scenarios(project, '[[scenario]]\nname = "x"\ncommand = "ls"\nexpect = "deny-ish"\n')
    done = _cli(project, "test")
    assert done.returncode == 1
    assert done.stderr == (
        "tests/cupcake/flow.toml:1 (x): `expect` must be one of allow, block, ask, approve, feedback, context, warn"
        " (got 'deny-ish')\n"
    )
    assert done.stdout == "0 passed, 0 failed, 1 could not be run\n"


def test_a_policy_out_of_service_is_told_once_not_per_scenario(project):
    project.write_policy(
        'imports = ["cupcake:git"]\n\n[[policy]]\nname = "broken"\nmatcher = "Bash"\n'
        'conditions = [{ type = "command_regex", value = "(" }]\n'
        'action = { type = "block_with_feedback", feedback_message = "x" }\n'
    )
    _scenarios(
        project,
        '[[scenario]]\ncommand = "git push -f"\nexpect = "block"\n\n[[scenario]]\ncommand = "ls"\nexpect = "allow"\n',
    )
    done = _cli(project, "test")
    assert done.returncode == 0
    assert done.stderr.startswith("Cupcake: out of service until fixed (every other policy is enforced):\n")
    assert done.stderr.count("out of service") == 1 and 'policy "broken"' in done.stderr


def test_the_packs_own_examples_as_json(project):
    from cupcake import packs

    done = _cli(project, "test", "--packs", "--json")
    assert done.returncode == 0, done.stdout[-2000:]
    data = json.loads(done.stdout)
    examples = sum(
        1
        for name in packs.names()
        if not packs.load(name).include
        for rule in packs.load(name).rules
        for _ in packs.examples(rule)
    )
    assert (data["passed"], data["failed"], data["errors"]) == (examples, 0, 0)
    assert {r["suite"] for r in data["results"]} == {f"cupcake:{n}" for n in packs.names() if not packs.load(n).include}


# ## A scenario's `expect` that is not a string is reported, never a crash ##########################


def test_a_list_as_expect_is_a_problem_not_a_crash():
    found = problems_of({"expect": ["deny"], "command": "ls"}, "s.toml scenario 1")
    assert any("`expect` must be one of" in p and "['deny']" in p for p in found)


def test_an_alias_still_names_its_decision():
    assert not any("`expect`" in p for p in problems_of({"expect": "deny", "command": "ls"}, "s"))
