#!/usr/bin/env python3
"""Start-up benchmark for `cupcake run`.

Claude Code starts `cupcake run --event <Event>` on every tool call, so the whole
process's wall time is what users pay.  This script measures it against the bare
interpreter of the same venv (`<venv>/bin/python -c pass`), interleaved in the same
run (baseline, scenario A, baseline, scenario B, ... per round), and checks budgets
expressed as ratios to the baseline median.  Plain standard library, no services.

Usage (from the repository root):

    python bench/bench.py                    # fresh venv + regular install, 30 runs, budgets enforced
    python bench/bench.py --quick            # 5 runs, report only (never fails on budgets)
    python bench/bench.py --runs 10 --report-only --json-out bench/results-ci.json
    python bench/bench.py --scenario 1 --scenario thousand-policies
    python bench/bench.py --venv .venv       # reuse a venv that has a REGULAR install of cupcake
    python bench/bench.py --importtime nothing-matches   # top imports of one run, for developers
    python bench/bench.py --list             # the scenario table

Exit codes: 0 all budgets met (or --report-only); 1 a budget missed; 2 a run gave
the wrong output (an error path must never be what gets measured) or set-up failed.

Scenarios are declared in SCENARIOS below: an id, a name, a budget and a function that
writes the project (cupcake.toml) and returns the payload and the expected output.
The ids and names are stable: documentation refers to them.
"""

from __future__ import annotations

import argparse
import json
import marshal
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_REPO = HERE.parent
DEFAULT_JSON_OUT = HERE / "results.json"

RUN_TIMEOUT_S = 60.0  # one run that takes longer than this is killed and reported
EXIT_OK, EXIT_BUDGET, EXIT_ERROR = 0, 1, 2


class BenchError(Exception):
    """Set-up failed or a run did not give the output its scenario expects."""


# --------------------------------------------------------------------------------------
# Policy files and payloads
# --------------------------------------------------------------------------------------


def toml_str(value: str) -> str:
    # A JSON string (ASCII, \" \\ \n \uXXXX escapes) is a valid TOML basic string.
    return json.dumps(value)


def policy_block(
    name: str, matcher: str, conditions: list[tuple[str, str]], action: dict[str, str], hook_event: str = "PreToolUse"
) -> str:
    conds = ", ".join(f"{{ type = {toml_str(t)}, value = {toml_str(v)} }}" for t, v in conditions)
    act = ", ".join(f"{k} = {toml_str(v)}" for k, v in action.items())
    return (
        "[[policy]]\n"
        f"name = {toml_str(name)}\n"
        f"hook_event = {toml_str(hook_event)}\n"
        f"matcher = {toml_str(matcher)}\n"
        f"conditions = [{conds}]\n"
        f"action = {{ {act} }}\n"
    )


def policy_file(blocks: list[str]) -> str:
    return 'policy_schema_version = "1.0"\n\n' + "\n".join(blocks)


def _action(kind: str, i: int, what: str) -> dict[str, str]:
    if kind == "block_with_feedback":
        return {"type": kind, "feedback_message": f"{what} is not allowed here (rule {i:04d})."}
    if kind == "provide_feedback":
        return {"type": kind, "message": f"Careful: {what} (rule {i:04d})."}
    if kind == "ask":
        return {"type": kind, "reason": f"{what} needs a person's confirmation (rule {i:04d})."}
    return {"type": "approve"}


# Realistic-looking rules, none of which matches `ls -la` nor the benchmark's file paths.
_BASH_RULES = [
    (r"\brm\s+-rf\s+/(?:\s|$)", "Deleting the filesystem root"),
    (r"\bgit\s+push\s+.*--force\b", "Force-pushing"),
    (r"\bterraform\s+(?:apply|destroy)\b", "Changing infrastructure"),
    (r"\bkubectl\s+delete\s+namespace\b", "Deleting a namespace"),
    (r"\bcurl\b.*\|\s*(?:ba)?sh\b", "Piping a download into a shell"),
    (r"\bnpm\s+publish\b", "Publishing a package"),
    (r"\bdocker\s+system\s+prune\b", "Pruning Docker"),
    (r"\bchmod\s+-R\s+777\b", "World-writable permissions"),
    (r"\bpsql\b.*\bDROP\s+TABLE\b", "Dropping a table"),
    (r"\bgit\s+reset\s+--hard\s+origin/main\b", "Discarding local work"),
]
_FILE_RULES = [
    (r"(?:^|/)\.env(?:\.[^/]*)?$", "Environment files"),
    (r"(?:^|/)migrations/\d{4}_.*\.sql$", "Applied migrations"),
    (r"\.pem$", "Private keys"),
    (r"(?:^|/)vendor/", "Vendored code"),
    (r"(?:^|/)package-lock\.json$", "The lock file"),
    (r"(?:^|/)\.github/workflows/", "CI workflows"),
    (r"(?:^|/)secrets?/", "The secrets folder"),
    (r"\.generated\.ts$", "Generated code"),
    (r"(?:^|/)Dockerfile\.prod$", "The production Dockerfile"),
    (r"(?:^|/)LICENSE$", "The licence"),
]
_ACTION_KINDS = ["block_with_feedback", "provide_feedback", "ask", "block_with_feedback", "approve"]


def fifty_policies() -> list[str]:
    """50 PreToolUse policies on Bash, Write|Edit, Write, Edit and Read; none matches the payloads."""
    blocks = []
    for i in range(50):
        kind = _ACTION_KINDS[i % len(_ACTION_KINDS)]
        group = i % 5
        if group in (0, 1):  # Bash, command_regex, 20 of them
            regex, what = _BASH_RULES[(i // 5 * 2 + group) % len(_BASH_RULES)]
            regex = f"{regex}.*#bench{i:02d}" if i >= 20 else regex
            blocks.append(
                policy_block(f"bash rule {i:02d}: {what}", "Bash", [("command_regex", regex)], _action(kind, i, what))
            )
        else:  # file rules, filepath_regex, 30 of them
            matcher = {2: "Write|Edit", 3: "Read", 4: ("Write" if i % 2 else "Edit")}[group]
            regex, what = _FILE_RULES[(i // 5 * 3 + group) % len(_FILE_RULES)]
            regex = f"bench{i:02d}/.*{regex}" if i >= 30 else regex
            conds = [("filepath_regex", regex)]
            if i % 7 == 0:  # a few two-condition policies
                conds.append(("file_content_regex", f"DO_NOT_COMMIT_{i:02d}"))
            blocks.append(policy_block(f"file rule {i:02d}: {what}", matcher, conds, _action(kind, i, what)))
    return blocks


def thousand_policies() -> list[str]:
    """1,000 policies, a quarter each on Bash, Write|Edit, Read and mcp__.*, each regex with a distinct literal."""
    blocks = []
    for i in range(1000):
        quarter = i % 4
        kind = _ACTION_KINDS[i % len(_ACTION_KINDS)]
        if quarter == 0:
            matcher, conds = "Bash", [("command_regex", rf"deploy_{i:04d}\b")]
        elif quarter == 1:
            matcher = "Write|Edit"
            conds = (
                [("file_content_regex", f"FORBIDDEN_{i:04d}")]
                if i % 8 == 1
                else [("filepath_regex", rf"secret_{i:04d}\.txt$")]
            )
        elif quarter == 2:
            matcher, conds = "Read", [("filepath_regex", rf"(?:^|/)private_{i:04d}/.*\.key$")]
        else:  # the matcher is a regex, so an engine cannot index these by tool name
            matcher, conds = "mcp__.*", [("filepath_regex", rf"mcp_store_{i:04d}/")]
        blocks.append(policy_block(f"generated rule {i:04d}", matcher, conds, _action(kind, i, f"rule {i:04d}")))
    return blocks


def payload(project: Path, tool_name: str, tool_input: dict) -> dict:
    return {
        "session_id": "bench",
        "transcript_path": str(project.parent / "home" / ".claude" / "projects" / "bench.jsonl"),
        "cwd": str(project),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool_name,
        "tool_input": tool_input,
        "tool_use_id": "t1",
    }


def bash_payload(project: Path, command: str = "ls -la") -> dict:
    return payload(project, "Bash", {"command": command})


def two_kb_source() -> str:
    """About 2 KB of ordinary code that none of the generated rules matches."""
    unit = (
        "def total_price(items, tax_rate=0.2):\n"
        '    """Sum the items and add tax; used by the checkout page."""\n'
        "    subtotal = sum(item.price * item.quantity for item in items)\n"
        "    return round(subtotal * (1 + tax_rate), 2)\n\n"
    )
    text = "# billing helpers\nimport math\n\n"
    n = 0
    while len(text) < 2048:
        text += unit.replace("total_price", f"total_price_{n}")
        n += 1
    return text[:2048]


# --------------------------------------------------------------------------------------
# Expected outputs
# --------------------------------------------------------------------------------------

Check = Callable[[bytes], "str | None"]  # returns a reason when the output is wrong


def expect_nothing(stdout: bytes) -> str | None:
    if stdout.strip():
        return "expected no output (nothing matches), got some"
    return None


def expect_deny(block_message: str, feedback: list[str]) -> Check:
    def check(stdout: bytes) -> str | None:
        try:
            answer = json.loads(stdout)
            hso = answer["hookSpecificOutput"]
            decision = hso["permissionDecision"]
            reason = hso["permissionDecisionReason"]
        except (ValueError, KeyError, TypeError) as exc:
            return f"expected a PreToolUse deny answer, could not read it ({exc!r})"
        if decision != "deny":
            return f'expected "permissionDecision": "deny", got {decision!r}'
        if not reason.startswith(f"Operation blocked: {block_message}"):
            return "the deny reason does not start with 'Operation blocked: <the block message>'"
        bullets = [line for line in reason.split("\n") if line.startswith("\u2022 ")]
        if len(bullets) != len(feedback):
            return f"expected {len(feedback)} '\u2022 ' feedback lines in the reason, got {len(bullets)}"
        missing = [m for m in feedback if f"\u2022 {m}" not in reason]
        if missing:
            return f"feedback missing from the reason: {missing!r}"
        return None

    return check


def error_path(stdout: bytes) -> str | None:
    """Cupcake reports its own failures as {"systemMessage": "Cupcake: ..."}: never measure that."""
    if b"systemMessage" not in stdout:
        return None
    try:
        message = str(json.loads(stdout).get("systemMessage", ""))
    except (ValueError, AttributeError):
        message = stdout.decode("utf-8", "replace")
    if "Cupcake:" in message and "\n  cupcake allow " not in message:  # an approval code for the person is no error
        return f"cupcake reported an internal error: {message[:500]}"
    return None


# --------------------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------------------


@dataclass
class Setup:
    payload: dict
    check: Check
    event: str = "PreToolUse"
    extra_args: tuple = ()  # after `run --event <event>`: e.g. ("--agent", "codex")


@dataclass
class Scenario:
    id: int
    name: str
    description: str
    time_budget: float  # max ratio of the median to the baseline median
    mem_budget: float | None  # max ratio of the median peak RSS to the baseline's; None = not checked
    make: Callable[[Path], Setup] | None  # writes <project>/cupcake.toml; None = not built yet
    cold: bool = False  # touch the policy file before every run (cache rebuilt), no warm-up

    @property
    def built(self) -> bool:
        return self.make is not None


def make_nothing_matches(project: Path) -> Setup:
    (project / "cupcake.toml").write_text(policy_file(fifty_policies()), encoding="utf-8")
    return Setup(bash_payload(project), expect_nothing)


BLOCK_MESSAGE = "Listing files is disabled in this benchmark."
FEEDBACK = [
    "ls: prefer the project's file index.",
    "Long listings are slow on big trees.",
    "Hidden files are listed too.",
]


def make_block_and_feedback(project: Path) -> Setup:
    blocks = fifty_policies()
    blocks[10:10] = [
        policy_block(
            "feedback: ls", "Bash", [("command_regex", r"^ls\b")], {"type": "provide_feedback", "message": FEEDBACK[0]}
        )
    ]
    blocks[25:25] = [
        policy_block(
            "block: ls",
            "Bash",
            [("command_regex", r"^\s*ls(?:\s|$)")],
            {"type": "block_with_feedback", "feedback_message": BLOCK_MESSAGE},
        )
    ]
    blocks += [
        policy_block(
            "feedback: long listing",
            "Bash",
            [("command_regex", r"\s-\w*l")],
            {"type": "provide_feedback", "message": FEEDBACK[1]},
        ),
        policy_block(
            "feedback: hidden files",
            "Bash",
            [("command_regex", r"\s-\w*a")],
            {"type": "provide_feedback", "message": FEEDBACK[2]},
        ),
    ]
    (project / "cupcake.toml").write_text(policy_file(blocks), encoding="utf-8")
    return Setup(bash_payload(project), expect_deny(BLOCK_MESSAGE, FEEDBACK))


def make_thousand_policies(project: Path) -> Setup:
    (project / "cupcake.toml").write_text(policy_file(thousand_policies()), encoding="utf-8")
    (project / "src").mkdir(exist_ok=True)
    write = {"file_path": str(project / "src" / "billing.py"), "content": two_kb_source()}
    return Setup(payload(project, "Write", write), expect_nothing)


def make_audit_on(project: Path) -> Setup:
    """Scenario 1 with the audit trail on for every run (``audit_allows``): each run appends a line."""
    settings = "[settings]\naudit_logging = true\naudit_allows = true\n\n"
    text = policy_file(fifty_policies()).replace(
        'policy_schema_version = "1.0"\n\n', 'policy_schema_version = "1.0"\n\n' + settings, 1
    )
    (project / "cupcake.toml").write_text(text, encoding="utf-8")
    return Setup(bash_payload(project), expect_nothing)


READ_BEFORE_EDIT = """[[policy]]
name = "Ensure context is read before editing"
hook_event = "PreToolUse"
matcher = "Edit|Write"
conditions = [
  { type = "filepath_regex", value = "file\\\\.xyz" },
  { type = "state_missing", tool = "Read", path = "filexyz.md" }
]
action = { type = "block_with_feedback", feedback_message = "You must read filexyz.md before editing file.xyz." }
"""  # seed 003's example


def session_log(project: Path, events: int) -> None:
    """`events` recorded tool uses of the benchmark's session: reads, edits and commands over many files,
    with the one read the policy asks for in the middle, as `cupcake run` writes them."""
    state = project / ".cupcake" / "state"
    state.mkdir(parents=True, exist_ok=True)
    start = time.time() - events  # one event a second, ending now
    lines = []
    for i in range(events):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(start + i)) + ".000Z"
        if i == events // 2:
            tool, tool_input, path = "Read", {"file_path": str(project / "filexyz.md")}, "filexyz.md"
        elif i % 3 == 0:
            tool, tool_input, path = "Bash", {"command": f"pytest tests/test_{i % 997}.py -q"}, None
        else:
            rel = f"src/module_{i % 1009}/file_{i % 31}.py"
            tool, tool_input, path = ("Read" if i % 3 == 1 else "Edit"), {"file_path": str(project / rel)}, rel
        entry = {"timestamp": stamp, "tool": tool, "success": i % 17 != 0, "input": tool_input}
        if path:
            entry["path"] = path
        lines.append(json.dumps(entry, separators=(",", ":")))
    (state / "bench.json").write_text("\n".join(lines) + "\n", encoding="utf-8")


def make_state_query(events: int) -> Callable[[Path], Setup]:
    """50 policies + seed 003's "read before edit"; an Edit of file.xyz in a session of `events` tool uses
    that include the read: allowed, no output. The warm-up run builds the state summary."""

    def make(project: Path) -> Setup:
        (project / "cupcake.toml").write_text(policy_file(fifty_policies() + [READ_BEFORE_EDIT]), encoding="utf-8")
        session_log(project, events)
        edit = {"file_path": str(project / "file.xyz"), "old_string": "a", "new_string": "b"}
        return Setup(payload(project, "Edit", edit), expect_nothing)

    return make


def make_agent_allow(agent: str) -> Callable[[Path], Setup]:
    """Scenario 1 (50 policies, none matches) as ``agent`` sends it: its own event, tool and fields."""

    def make(project: Path) -> Setup:
        (project / "cupcake.toml").write_text(policy_file(fifty_policies()), encoding="utf-8")
        base = bash_payload(project)
        tool_input = {"command": base["tool_input"]["command"]}
        cwd = str(project)
        event, payload = {
            "codex": ("PreToolUse", {**base, "model": "gpt-5.5", "turn_id": "t-1"}),
            "gemini": (
                "BeforeTool",
                {
                    **base,
                    "hook_event_name": "BeforeTool",
                    "tool_name": "run_shell_command",
                    "tool_input": {**tool_input, "description": "list"},
                },
            ),
            "copilot": (
                "preToolUse",
                {
                    "sessionId": base["session_id"],
                    "timestamp": 1795329833163,
                    "cwd": cwd,
                    "toolName": "bash",
                    "toolArgs": {**tool_input, "description": "list"},
                },
            ),
            "droid": (
                "PreToolUse",
                {
                    **base,
                    "tool_name": "Execute",
                    "tool_input": {**tool_input, "summary": "x", "riskLevel": "low", "riskLevelReason": "x"},
                },
            ),
            "cursor": (
                "preToolUse",
                {
                    "conversation_id": base["session_id"],
                    "generation_id": "g-1",
                    "hook_event_name": "preToolUse",
                    "workspace_roots": [cwd],
                    "cwd": cwd,
                    "tool_name": "Shell",
                    "tool_input": tool_input,
                },
            ),
        }[agent]
        return Setup(payload, expect_nothing, event, ("--agent", agent))

    return make


AGENT_SCENARIOS = {12: "codex", 13: "gemini", 14: "copilot", 15: "droid", 16: "cursor"}
TELEMETRY_SCENARIOS = {25: "down", 26: "up"}  # 19 is packs' (recommended-secret-scan), 21-24 and 27 perf's


def make_shadow_candidate(project: Path) -> Setup:
    """Scenario 1, with a shadow candidate (the same 50 policies) evaluated beside them and one observed
    policy: the candidate matches nothing either, so nothing is recorded. What the mechanism costs; a
    candidate that imports a pack adds what the pack costs anyway (scenario 8)."""
    shadow = '[shadow]\ncandidate = "cupcake.candidate.toml"\n\n'
    observed = policy_block(
        "watch curl", "Bash", [("command_regex", "curl")], {"type": "provide_feedback", "message": "curl"}
    )
    observed = observed.replace("[[policy]]\n", '[[policy]]\nmode = "observe"\n', 1)
    (project / "cupcake.toml").write_text(policy_file(fifty_policies() + [observed]) + "\n" + shadow, encoding="utf-8")
    candidate = "\n".join(fifty_policies())
    (project / "cupcake.candidate.toml").write_text(candidate, encoding="utf-8")
    return Setup(bash_payload(project), expect_nothing)


def expect_jailed(stdout: bytes) -> str | None:
    """The OS layer's answer: Codex's allow with the command rewritten into the jail."""
    try:
        answer = json.loads(stdout)
        command = answer["hookSpecificOutput"]["updatedInput"]["command"]
    except (ValueError, KeyError, TypeError):
        return f"expected the jailed command in updatedInput, got {stdout[:300]!r}"
    return None if "/cupcake/jail/" in command and " -I -S " in command else f"not a jailed command: {command[:300]!r}"


def make_jailed_allow(project: Path) -> Setup:
    """Scenario 12 (Codex, the allow path) with the OS layer on (``--jail``): the same answer, rewritten.
    The home holds the per-user secret, as `cupcake sync` leaves it (the jail's index is sealed with it)."""
    secret = project.parent / "home" / ".cache" / "cupcake" / "cache-secret"
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_bytes(os.urandom(32))
    setup = make_agent_allow("codex")(project)
    return Setup(setup.payload, expect_jailed, setup.event, (*setup.extra_args, "--jail"))


PACK_NAMES = (
    "shell",
    "secrets",
    "sensitive-files",
    "destructive",
    "processes",
    "databases",
    "containers",
    "cloud",
    "git",
    "network",
    "publishing",
    "system",
)


def make_recommended_harmless(project: Path) -> Setup:
    (project / "cupcake.toml").write_text('imports = ["cupcake:recommended"]\n', encoding="utf-8")
    return Setup(bash_payload(project, "ls -la"), expect_nothing)


def make_recommended_compound(project: Path) -> Setup:
    # Quotes and `$(…)` defeat the literal prefilters: the line must be parsed, and nothing matches.
    (project / "cupcake.toml").write_text('imports = ["cupcake:recommended"]\n', encoding="utf-8")
    command = "cd src && git status --short | grep -v '^??' ; echo \"$(git rev-parse HEAD)\" && python -m pytest -q"
    return Setup(bash_payload(project, command), expect_nothing)


def make_thousand_policies_and_packs(project: Path) -> Setup:
    imports = "imports = [" + ", ".join(f'"cupcake:{n}"' for n in PACK_NAMES) + "]\n\n"
    (project / "cupcake.toml").write_text(imports + policy_file(thousand_policies()), encoding="utf-8")
    return Setup(bash_payload(project, "git push origin feature && rm -rf build"), expect_nothing)


def hundred_kb_source() -> str:
    """About 100 KB of ordinary Python with no secret in it (what a Write of a large file carries)."""
    block = (
        two_kb_source() + '\ndb_password = os.environ.get("DB_PASSWORD", "")\nAPI_URL = "https://api.example.com/v1"\n'
    )
    return "\n".join(block.replace("total_price", f"total_price_{i}") for i in range(50))


def make_recommended_secret_scan(project: Path) -> Setup:
    """cupcake:recommended on, a Write of 100 KB whose content the secret rules scan: no output."""
    (project / "cupcake.toml").write_text('imports = ["cupcake:recommended"]\n', encoding="utf-8")
    content = hundred_kb_source()
    tool_input = {"file_path": str(project / "src" / "big.py"), "content": content}
    return Setup(payload(project, "Write", tool_input), expect_nothing)


SELF_PROTECTION_COMMAND = (
    'cd src && make -j4 all 2>&1 | tee ../build/make.log; for f in *.c; do gcc -Wall -O2 -c "$f" '
    "-o \"../build/${f%.c}.o\"; done && git add -A && git commit -qm 'wip: objects' && echo done > ../build/status.txt"
)


def make_self_protection_compound(project: Path) -> Setup:
    """Scenario 1's 50 policies; self-protection (on by default) must read a 200-character compound
    command that writes (a tee, redirections) outside Cupcake's files: no output."""
    (project / "cupcake.toml").write_text(policy_file(fifty_policies()), encoding="utf-8")
    for name in ("src", "build"):
        (project / name).mkdir(exist_ok=True)
    return Setup(bash_payload(project, SELF_PROTECTION_COMMAND), expect_nothing)


# The budgets of issue 29: each on 50 policies and the recommended packs, as a team would run them.
RECOMMENDED = 'imports = ["cupcake:recommended"]\n\n'


def with_recommended(blocks: list[str]) -> str:
    return RECOMMENDED + policy_file(blocks)


def make_budget_harmless(project: Path) -> Setup:
    """50 policies and the recommended packs, a harmless Bash call (ls -la): no output."""
    (project / "cupcake.toml").write_text(with_recommended(fifty_policies()), encoding="utf-8")
    return Setup(bash_payload(project), expect_nothing)


def make_budget_compound(project: Path) -> Setup:
    """50 policies and the recommended packs; a 200-character compound command (pipes, a loop, quotes,
    redirections, ``$(…)``-free but nothing a literal prefilter can skip) that the Bash reader must parse,
    for the packs and for self-protection: no output."""
    (project / "cupcake.toml").write_text(with_recommended(fifty_policies()), encoding="utf-8")
    for name in ("src", "build"):
        (project / name).mkdir(exist_ok=True)
    return Setup(bash_payload(project, SELF_PROTECTION_COMMAND), expect_nothing)


DENY_MESSAGE = "Recursive deletes are not allowed here."


def make_budget_deny(project: Path) -> Setup:
    """50 policies (one of them blocks ``rm -rf``) and the recommended packs; ``rm -rf ~``: a deny."""
    blocks = fifty_policies()
    blocks[7:7] = [
        policy_block(
            "block: rm -rf",
            "Bash",
            [("command_regex", r"\brm\s+-(?:rf|fr)\b")],
            {"type": "block_with_feedback", "feedback_message": DENY_MESSAGE},
        )
    ]
    (project / "cupcake.toml").write_text(with_recommended(blocks), encoding="utf-8")
    return Setup(bash_payload(project, "rm -rf ~"), expect_any_deny)


def expect_any_deny(stdout: bytes) -> str | None:
    """A PreToolUse deny with Cupcake's block text (whichever rule decides: the policy or a pack)."""
    try:
        hso = json.loads(stdout)["hookSpecificOutput"]
        decision, reason = hso["permissionDecision"], hso["permissionDecisionReason"]
    except (ValueError, KeyError, TypeError) as exc:
        return f"expected a PreToolUse deny answer, could not read it ({exc!r})"
    if decision != "deny" or not reason.startswith("Operation blocked: "):
        return f"expected a deny with 'Operation blocked: ...', got {decision!r}: {reason[:200]!r}"
    return None


def make_budget_deny_offer(project: Path) -> Setup:
    """Scenario 23's project, ``rm -rf build``: a policy's deny alone, so the person is offered an approval
    code (``rm -rf ~`` is blocked by self-protection too, where no code is offered)."""
    make_budget_deny(project)
    return Setup(bash_payload(project, "rm -rf build"), expect_offer)


def expect_offer(stdout: bytes) -> str | None:
    """A deny with Cupcake's block text and an approval code for the person."""
    wrong = expect_any_deny(stdout)
    if wrong is None and "\n  cupcake allow " not in str(json.loads(stdout).get("systemMessage", "")):
        wrong = "expected an approval code in the systemMessage"
    return wrong


def make_budget_secret_scan(project: Path) -> Setup:
    """50 policies and the recommended packs, a Write of 100 KB whose content is scanned for secrets."""
    (project / "cupcake.toml").write_text(with_recommended(fifty_policies()), encoding="utf-8")
    (project / "src").mkdir(exist_ok=True)
    tool_input = {"file_path": str(project / "src" / "big.py"), "content": hundred_kb_source()}
    return Setup(payload(project, "Write", tool_input), expect_nothing)


class ReceiverStandIn:
    """An OTLP/HTTP receiver on 127.0.0.1 that accepts every batch (for the telemetry scenario with the
    receiver up): the standard library's HTTP server in a thread, started once, for the whole bench."""

    _server = None

    @classmethod
    def url(cls) -> str:
        if cls._server is None:
            import http.server
            import threading

            class Accept(http.server.BaseHTTPRequestHandler):
                def do_POST(self) -> None:
                    self.rfile.read(int(self.headers.get("Content-Length") or 0))
                    body = b"{}"
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)

                def log_message(self, *args) -> None:
                    pass

            cls._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Accept)
            threading.Thread(target=cls._server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{cls._server.server_address[1]}"


def make_telemetry_on(receiver: str) -> Callable[[Path], Setup]:
    """Scenario 1 with telemetry on: each run appends its decision to the spool, and at most once per
    interval (30 s) starts the forwarder. ``receiver``: "down" (nothing listens at the endpoint) or "up"."""

    def make(project: Path) -> Setup:
        endpoint = "http://127.0.0.1:9" if receiver == "down" else ReceiverStandIn.url()
        settings = f'[telemetry]\nenabled = true\nendpoint = "{endpoint}"\n\n'
        (project / "cupcake.toml").write_text(policy_file(fifty_policies()) + "\n" + settings, encoding="utf-8")
        return Setup(bash_payload(project), expect_nothing)

    return make


# The scenario table. To add one: a make_* function that writes <project>/cupcake.toml (and any other
# project files) and returns the payload and its expected output, then one line here. Ids are stable.
# 4 and 7 differ only in the session's length (SCALE_BUDGETS).
SCENARIOS: list[Scenario] = [
    Scenario(
        1, "nothing-matches", "50 policies, a Bash call that none matches: no output", 2.3, 1.5, make_nothing_matches
    ),
    Scenario(
        2,
        "block-and-feedback",
        "the same 50 + 1 block and 3 feedback that match: deny",
        2.3,
        1.5,
        make_block_and_feedback,
    ),
    Scenario(
        3,
        "thousand-policies",
        "1,000 policies (Bash, Write|Edit, Read, mcp__.*), a 2 KB Write: no output",
        2.7,
        1.5,
        make_thousand_policies,
    ),  # issue 10 asked 3.0; measured 2.27
    Scenario(
        4,
        "state-100k",
        "a state query (read before edit) in a session of 100,000 recorded events",
        2.5,
        1.5,
        make_state_query(100_000),
    ),  # asked 3.0; measured 1.73
    Scenario(
        5,
        "cold-cache",
        "scenario 1 with the policy file touched before every run (cache rebuilt)",
        10.0,
        None,
        make_nothing_matches,
        cold=True,
    ),  # asked 15; measured 7.4
    Scenario(
        6,
        "audit-on",
        "scenario 1 with audit logging on for every run (audit_allows): a line per run",
        2.3,
        1.5,
        make_audit_on,
    ),
    Scenario(
        7,
        "state-10",
        "scenario 4's query in a session of 10 recorded events (its reference)",
        2.5,
        1.5,
        make_state_query(10),
    ),
    Scenario(
        8,
        "recommended-harmless",
        "cupcake:recommended on, a harmless Bash call (ls -la): no output",
        1.8,
        1.5,
        make_recommended_harmless,
    ),
    Scenario(
        9,
        "recommended-compound",
        "cupcake:recommended on, a compound command that must be parsed and matches nothing",
        2.0,
        1.5,
        make_recommended_compound,
    ),
    Scenario(
        10,
        "thousand-policies-and-packs",
        "1,000 policies and every pack, a Bash call the parser reads (git push && rm -rf build): no output",
        2.7,
        1.5,
        make_thousand_policies_and_packs,
    ),
    Scenario(
        11,
        "self-protection-compound",
        "50 policies + self-protection reading a 200-character compound command that writes: no output",
        2.0,
        1.5,
        make_self_protection_compound,
    ),
    Scenario(
        17,
        "shadow-candidate",
        "scenario 1 with a shadow candidate (the same 50 policies) and an observed policy: no output",
        2.5,
        1.5,
        make_shadow_candidate,
    ),
] + [
    Scenario(
        number,
        f"allow-{agent}",
        f"scenario 1 (the allow path) as {agent} sends it, through its adapter (--agent {agent})",
        2.3,
        1.5,
        make_agent_allow(agent),
    )
    for number, agent in AGENT_SCENARIOS.items()
]
SCENARIOS.append(
    Scenario(
        19,
        "recommended-secret-scan",
        "cupcake:recommended on, a Write of 100 KB whose content is scanned for secrets: no output",
        2.5,
        1.5,
        make_recommended_secret_scan,
    )
)
SCENARIOS.append(
    Scenario(
        18,
        "jailed-codex",
        "scenario 12 with the OS layer on (--jail): the allowed call comes back rewritten into the jail",
        2.3,
        1.5,
        make_jailed_allow,
    )
)

# Issue 29's budgets (ids 21-24, and 27: a deny that offers an approval code; 17-20 are other features'):
# the ones the README table shows.
BUDGET_SCENARIOS = [
    Scenario(
        21,
        "budget-harmless",
        "50 policies + cupcake:recommended, a harmless Bash call (ls -la): no output",
        1.5,
        1.5,
        make_budget_harmless,
    ),
    Scenario(
        22,
        "budget-compound",
        "50 policies + cupcake:recommended, a 200-character compound command the reader parses: no output",
        1.8,
        1.5,
        make_budget_compound,
    ),
    Scenario(
        23,
        "budget-deny",
        "50 policies (one blocks rm -rf) + cupcake:recommended, rm -rf ~: deny",
        1.7,
        1.5,
        make_budget_deny,
    ),
    Scenario(
        24,
        "budget-secret-scan",
        "50 policies + cupcake:recommended, a Write of 100 KB whose content is scanned for secrets: no output",
        2.5,
        1.5,
        make_budget_secret_scan,
    ),
    Scenario(
        27,
        "budget-deny-offer",
        "scenario 23's project, rm -rf build: a policy's deny, with an approval code offered",
        1.7,
        1.5,
        make_budget_deny_offer,
    ),
]
SCENARIOS += BUDGET_SCENARIOS


SCENARIOS += [
    Scenario(
        number,
        f"telemetry-receiver-{state}",
        f"scenario 1 with telemetry on, the receiver {state}: the decision spooled, the forwarder started once",
        2.3,
        1.5,
        make_telemetry_on(state),
    )
    for number, state in TELEMETRY_SCENARIOS.items()
]


# (scenario, reference, max ratio): growth that must not cost more than this. The ratio compares the
# two scenarios' paired figures (each run over the baseline run just before it), which a busy machine
# disturbs far less than a ratio of raw medians; both are reported.
# Each agent's allow path costs at most Claude Code's (scenario 1) + 5%.
# A shadow candidate as large as the enforced set costs at most 10% more than scenario 1 (issue 25).
SCALE_BUDGETS = [(4, 7, 1.20), (17, 1, 1.10)] + [(number, 1, 1.05) for number in AGENT_SCENARIOS]
# (scenario, reference, max extra ms): the OS layer's rewrite costs the answer at most 0.5 ms (issue 26).
# Half a millisecond is well inside a busy machine's wall-time noise, so the budget is on processor time
# (user + system, from wait4): the median, over rounds, of the scenario's run minus the reference's run
# in the same round. Wall time is reported the same way beside it.
# Telemetry on costs a run at most 0.5 ms, whatever the receiver's state (issue 28).
EXTRA_MS_BUDGETS = [(18, 12, 0.5)] + [(number, 1, 0.5) for number in TELEMETRY_SCENARIOS]
# What the jail adds to the start of the command it wraps (issue 26): `bash -c <jailed true>` against
# `bash -c true`, interleaved, medians.
JAIL_START_BUDGET_MS = 30.0


def scale_checks(results: list[dict]) -> list[dict]:
    """The SCALE_BUDGETS whose two scenarios were both measured, with their ratios."""
    by_id = {r["id"]: r for r in results if "median_ms" in r}
    checks = []
    for big, small, budget in SCALE_BUDGETS:
        if big in by_id and small in by_id:
            a, b = by_id[big], by_id[small]
            ratio = a["ratio_paired_median"] / b["ratio_paired_median"]
            checks.append(
                {
                    "scenario": a["name"],
                    "reference": b["name"],
                    "ratio_paired": ratio,
                    "ratio_median": a["median_ms"] / b["median_ms"],
                    "budget": budget,
                    "ok": ratio <= budget,
                }
            )
    return checks


def extra_ms_checks(results: list[dict]) -> list[dict]:
    """The EXTRA_MS_BUDGETS whose two scenarios were both measured, with the added milliseconds."""
    by_id = {r["id"]: r for r in results if "median_ms" in r}
    checks = []
    for big, small, budget in EXTRA_MS_BUDGETS:
        if big in by_id and small in by_id:
            a, b = by_id[big], by_id[small]
            cpu = statistics.median(x - y for x, y in zip(a["samples_cpu_ms"], b["samples_cpu_ms"], strict=True))
            wall = statistics.median(x - y for x, y in zip(a["samples_ms"], b["samples_ms"], strict=True))
            checks.append(
                {
                    "scenario": a["name"],
                    "reference": b["name"],
                    "extra_cpu_ms": cpu,
                    "extra_wall_ms": wall,
                    "budget_ms": budget,
                    "ok": cpu <= budget,
                }
            )
    return checks


def measure_jail_start(venv: Path, root: Path, runs: int) -> dict:
    """What Cupcake's jail adds to the start of a command: the jailed `true` the hook answers with,
    run by bash, against bash running `true`, interleaved; medians in ms."""
    if not sys.platform.startswith("linux") or not os.access("/usr/bin/bwrap", os.X_OK):
        return {"status": "skipped", "why": "needs Linux and /usr/bin/bwrap"}
    project, home = root / "jail-start" / "project", root / "jail-start" / "home"
    project.mkdir(parents=True, exist_ok=True)
    home.mkdir(parents=True, exist_ok=True)
    (project / "cupcake.toml").write_text(policy_file(fifty_policies()), encoding="utf-8")
    event = {**bash_payload(project, "true"), "model": "gpt-5.5"}
    env = {**clean_env(), "HOME": str(home)}
    argv = [str(venv / "bin" / "cupcake"), "run", "--event", "PreToolUse", "--agent", "codex", "--jail"]
    done = subprocess.run(argv, input=json.dumps(event).encode(), capture_output=True, cwd=project, env=env)
    problem = expect_jailed(done.stdout)
    if problem:
        raise BenchError(f"jail start: {problem} (stderr: {done.stderr[-300:]!r})")
    jailed = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    import resource

    def cpu_ms() -> float:
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (used.ru_utime + used.ru_stime) * 1000

    plain_ns, jailed_ns, plain_cpu, jailed_cpu = [], [], [], []
    for command in ("true", jailed):  # warm-up
        subprocess.run(["/bin/bash", "-c", command], cwd=project, env=env, check=True)
    for _ in range(runs):
        for command, samples, cpu in (("true", plain_ns, plain_cpu), (jailed, jailed_ns, jailed_cpu)):
            c0, t0 = cpu_ms(), time.perf_counter_ns()
            code = subprocess.run(["/bin/bash", "-c", command], cwd=project, env=env).returncode
            samples.append(time.perf_counter_ns() - t0)
            cpu.append(cpu_ms() - c0)
            if code != 0:
                raise BenchError(f"jail start: `{command[:80]}` exited {code}")
    paired = statistics.median(j - p for j, p in zip(jailed_ns, plain_ns, strict=True)) / 1e6
    # Processor time (the children's user + system): what the jail costs, which a busy machine does not
    # inflate as it does wall time. The budget is checked on it; wall time is reported beside it.
    added_cpu = statistics.median(j - p for j, p in zip(jailed_cpu, plain_cpu, strict=True))
    return {
        "status": "ok" if added_cpu <= JAIL_START_BUDGET_MS else "missed",
        "runs": runs,
        "bash_true_median_ms": statistics.median(plain_ns) / 1e6,
        "jailed_true_median_ms": statistics.median(jailed_ns) / 1e6,
        "added_paired_median_ms": paired,
        "added_cpu_median_ms": added_cpu,
        "budget_ms": JAIL_START_BUDGET_MS,
        "ok": added_cpu <= JAIL_START_BUDGET_MS,
    }


def find_scenario(key: str) -> Scenario:
    for sc in SCENARIOS:
        if key == str(sc.id) or key == sc.name:
            return sc
    names = ", ".join(f"{s.id}/{s.name}" for s in SCENARIOS)
    raise BenchError(f"unknown scenario {key!r} (known: {names})")


# --------------------------------------------------------------------------------------
# The venv
# --------------------------------------------------------------------------------------

_COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "*.pyc",
    ".venv",
    "venv",
    ".cupcake",
    ".pytest_cache",
    "results*.json",
)


def create_venv(python: str, repo: Path, workdir: Path, install: bool) -> Path:
    venv = workdir / "venv"
    print(f"bench: creating a venv with {python} ...", flush=True)
    run_or_fail([python, "-m", "venv", str(venv)], "venv creation failed")
    if install:
        # Install from a copy so that the build leaves nothing (build/, *.egg-info) in the work tree.
        src = workdir / "src"
        shutil.copytree(repo, src, ignore=_COPY_IGNORE)
        print("bench: pip install <repo> (regular install, not editable) ...", flush=True)
        t0 = time.monotonic()
        run_or_fail(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(src)],
            "pip install of the repository failed",
        )
        print(f"bench: installed in {time.monotonic() - t0:.0f} s", flush=True)
    return venv


def run_or_fail(cmd: list[str], what: str) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"{what} (exit {proc.returncode}):\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return proc.stdout


_INSPECT_INSTALL = r"""
import glob, json, os, sysconfig
from importlib import metadata, util
out = {"version": None, "editable": False, "why": []}
try:
    dist = metadata.distribution("cupcake")
except metadata.PackageNotFoundError:
    print(json.dumps(out)); raise SystemExit
out["version"] = dist.version
direct = dist.read_text("direct_url.json")
if direct and json.loads(direct).get("dir_info", {}).get("editable"):
    out["editable"] = True; out["why"].append('direct_url.json says "editable": true')
for d in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
    for hit in glob.glob(os.path.join(d, "__editable__*cupcake*")) + glob.glob(os.path.join(d, "cupcake*.egg-link")):
        out["editable"] = True; out["why"].append("found " + os.path.basename(hit))
spec = util.find_spec("cupcake")
if spec is not None and spec.origin:
    pkg = os.path.dirname(spec.origin)
    sites = [os.path.realpath(sysconfig.get_paths()[k]) for k in ("purelib", "platlib")]
    if not any(os.path.realpath(pkg).startswith(s + os.sep) for s in sites):
        out["editable"] = True; out["why"].append("the cupcake package is imported from outside site-packages")
print(json.dumps(out))
"""


def inspect_install(venv: Path) -> dict:
    env = clean_env()
    proc = subprocess.run(
        [str(venv / "bin" / "python"), "-c", _INSPECT_INSTALL],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
    )
    if proc.returncode != 0:
        raise BenchError(f"could not inspect the venv's cupcake install:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


# --------------------------------------------------------------------------------------
# Running one process: posix_spawn + wait4 in a small launcher process
# --------------------------------------------------------------------------------------
#
# Why a launcher: on Linux a child's ru_maxrss also counts the memory of the process it was
# spawned from (at exec the kernel keeps the old address space's resident size: with vfork,
# posix_spawn's way, that is the parent's). Spawned from this script (~19 MiB) every child
# would seem to peak at >= 19 MiB. The launcher is `python -S -I` using builtin modules only
# (not even `os`, nor buffered I/O), its code passed in compiled: its resident set (~8.5 MiB
# here) stays at or below the peak of a bare `python -c pass` in a venv (~8.5 MiB, which GNU
# time confirms), so the children's figures are their own; should that ever fail, the report
# says so. The launcher also does the timing: nothing of this script's work is measured.

_LAUNCHER = r"""
import marshal, posix, time, _signal
child = [0, False]
def fire(signum, frame):
    child[1] = True
    if child[0]:
        try:
            posix.kill(child[0], 9)
        except ProcessLookupError:
            pass
_signal.signal(14, fire)  # SIGALRM
def read_exact(n):
    buf = b""
    while len(buf) < n:
        chunk = posix.read(0, n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf
def send(obj):
    data = marshal.dumps(obj)
    data = len(data).to_bytes(4, "little") + data
    while data:
        data = data[posix.write(1, data):]
def rss():
    try:
        fd = posix.open("/proc/self/status", posix.O_RDONLY)
    except OSError:
        return -1
    data = posix.read(fd, 8192)
    posix.close(fd)
    i = data.find(b"VmRSS:")
    return int(data[i + 6:data.index(b"kB", i)]) if i >= 0 else -1
send(("ready", rss()))
while True:
    try:
        argv, env, cwd, fin, fout, ferr, timeout = marshal.loads(read_exact(int.from_bytes(read_exact(4), "little")))
    except EOFError:
        break
    fds = (posix.open(fin, posix.O_RDONLY), posix.open(fout, posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC, 0o600),
           posix.open(ferr, posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC, 0o600))
    posix.chdir(cwd)  # posix_spawn has no cwd argument in 3.11: the child inherits this one
    actions = [(posix.POSIX_SPAWN_DUP2, fds[0], 0), (posix.POSIX_SPAWN_DUP2, fds[1], 1),
               (posix.POSIX_SPAWN_DUP2, fds[2], 2)]
    child[1] = False
    before = rss()
    try:
        _signal.setitimer(0, timeout)  # ITIMER_REAL
        t0 = time.perf_counter_ns()
        child[0] = posix.posix_spawn(argv[0], argv, env, file_actions=actions)
        pid, status, ru = posix.wait4(child[0], 0)
        t1 = time.perf_counter_ns()
        _signal.setitimer(0, 0)
        cpu_ns = int((ru.ru_utime + ru.ru_stime) * 1e9)
        reply = ("ok", t1 - t0, ru.ru_maxrss, posix.waitstatus_to_exitcode(status), child[1], before, cpu_ns)
    except OSError as exc:
        _signal.setitimer(0, 0)
        reply = ("error", "%s: %s" % (argv[0], exc))
    child[0] = 0
    for fd in fds:
        posix.close(fd)
    send(reply)
"""


@dataclass
class RunResult:
    wall_ns: int
    maxrss_kib: int
    exit_code: int
    stdout: bytes
    stderr: bytes
    timed_out: bool
    cpu_ns: int = 0  # the child's user + system time (wait4)


_RSS_UNIT_KIB = 1 / 1024 if sys.platform == "darwin" else 1  # macOS reports bytes, Linux KiB


class Launcher:
    """The small process that spawns, times and reaps every measured run."""

    _instance: Launcher | None = None

    def __init__(self, workdir: Path) -> None:
        # The launcher's code goes in compiled (marshal), so that compiling it costs the launcher nothing.
        code_path = workdir / "launcher.marshal"
        code_path.write_bytes(marshal.dumps(compile(_LAUNCHER, "<bench launcher>", "exec")))
        boot = f"import marshal,posix;f=posix.open({str(code_path)!r},0);exec(marshal.loads(posix.read(f,1<<20)))"
        self.proc = subprocess.Popen(
            [sys.executable, "-S", "-I", "-c", boot], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        tag, self.max_rss_kib = self._recv()  # the launcher's resident set when it spawns
        assert tag == "ready"

    @classmethod
    def start(cls, workdir: Path) -> None:
        cls._instance = cls(workdir)

    @classmethod
    def get(cls) -> Launcher:
        assert cls._instance is not None, "Launcher.start() first"
        return cls._instance

    @classmethod
    def close(cls) -> None:
        if cls._instance is not None:
            cls._instance.proc.stdin.close()
            cls._instance.proc.wait()
            cls._instance = None

    def _read(self, n: int) -> bytes:
        data = self.proc.stdout.read(n)
        if len(data) != n:
            raise BenchError("the launcher process died")
        return data

    def _recv(self):
        return marshal.loads(self._read(int.from_bytes(self._read(4), "little")))

    def run(
        self,
        argv: list[str],
        cwd: Path,
        env: dict[str, str],
        stdin_path: Path,
        stdout_path: Path,
        stderr_path: Path,
        timeout: float,
    ) -> tuple[int, int, int, bool, int]:
        data = marshal.dumps((argv, env, str(cwd), str(stdin_path), str(stdout_path), str(stderr_path), timeout))
        self.proc.stdin.write(len(data).to_bytes(4, "little") + data)
        self.proc.stdin.flush()
        reply = self._recv()
        if reply[0] != "ok":
            raise BenchError(f"could not start {reply[1]}")
        _, wall_ns, maxrss, code, timed_out, launcher_rss, cpu_ns = reply
        self.max_rss_kib = max(self.max_rss_kib, launcher_rss)
        return wall_ns, int(maxrss * _RSS_UNIT_KIB), code, timed_out, cpu_ns


def clean_env() -> dict[str, str]:
    """The caller's environment without anything that changes how Python or Cupcake starts."""
    drop_prefixes = ("PYTHON", "CUPCAKE", "CLAUDE")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop_prefixes)}
    env.pop("VIRTUAL_ENV", None)
    env.pop("__PYVENV_LAUNCHER__", None)
    return env


def run_once(
    argv: list[str], cwd: Path, env: dict[str, str], stdin_path: Path, scratch: Path, timeout: float = RUN_TIMEOUT_S
) -> RunResult:
    out_path, err_path = scratch / "stdout", scratch / "stderr"
    wall_ns, maxrss, code, timed_out, cpu_ns = Launcher.get().run(
        argv, cwd, env, stdin_path, out_path, err_path, timeout
    )
    return RunResult(wall_ns, maxrss, code, out_path.read_bytes(), err_path.read_bytes(), timed_out, cpu_ns)


# --------------------------------------------------------------------------------------
# A prepared scenario: its directories, command and checks
# --------------------------------------------------------------------------------------


@dataclass
class Prepared:
    scenario: Scenario
    argv: list[str]
    cwd: Path
    env: dict[str, str]
    payload_path: Path
    scratch: Path
    check: Check | None  # None: output not checked (stand-in command)
    policy_path: Path
    event: str = "PreToolUse"
    times_ns: list[int] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    cpu_ns: list[int] = field(default_factory=list)  # processor time of each run, in round order
    paired_base_ns: list[int] = field(default_factory=list)  # the baseline run just before each run
    warnings: list[str] = field(default_factory=list)
    _mtime_ns: int = 0

    def before_run(self) -> None:
        if self.scenario.cold:
            # A new mtime (and so a new ctime) invalidates the cache key: the next run rebuilds it.
            self._mtime_ns = max(time.time_ns(), self._mtime_ns + 1_000_000)
            os.utime(self.policy_path, ns=(self._mtime_ns, self._mtime_ns))

    def run(self) -> RunResult:
        self.before_run()
        res = run_once(self.argv, self.cwd, self.env, self.payload_path, self.scratch)
        verify(self.scenario.name, res, self.check)
        return res

    def cache_stamp(self) -> int | None:
        try:
            return (self.cwd / ".cupcake" / "policy.cache").stat().st_mtime_ns
        except OSError:
            return None


def verify(label: str, res: RunResult, check: Check | None) -> None:
    problems = []
    if res.timed_out:
        problems.append(f"killed after {RUN_TIMEOUT_S:.0f} s")
    if res.exit_code != 0:
        problems.append(f"exit code {res.exit_code}, expected 0")
    for reason in (error_path(res.stdout), check(res.stdout) if check else None):
        if reason:
            problems.append(reason)
    if b"Traceback (most recent call last)" in res.stderr:
        problems.append("a traceback on stderr")
    if problems:
        raise BenchError(
            f"scenario {label}: the run did not give the expected output, refusing to measure it:\n"
            + "".join(f"  - {p}\n" for p in problems)
            + f"  stdout: {res.stdout[:1500]!r}\n  stderr: {res.stderr[-1500:]!r}"
        )


def give_cache_secret(home: Path) -> None:
    """The per-user secret that seals the policy cache, as `cupcake sync` leaves it (without one, no
    run writes or trusts a cache: every run would compile)."""
    folder = home / ".cache" / "cupcake"
    folder.mkdir(parents=True, mode=0o700, exist_ok=True)
    (folder / "cache-secret").write_bytes(os.urandom(32))
    (folder / "cache-secret").chmod(0o600)


def prepare(sc: Scenario, root: Path, command: list[str], check_output: bool) -> Prepared:
    assert sc.make is not None
    base = root / sc.name
    project, home, scratch = base / "project", base / "home", base / "scratch"
    for d in (project, home, scratch):
        d.mkdir(parents=True)
    project = project.resolve()
    setup = sc.make(project)
    payload_path = scratch / "payload.json"
    payload_path.write_text(json.dumps(setup.payload), encoding="utf-8")
    env = clean_env()
    env["HOME"] = str(home.resolve())  # no user policy file (~/.claude/cupcake.toml) can interfere
    env["CLAUDE_PROJECT_DIR"] = str(project)
    give_cache_secret(home)
    argv = [a.replace("{event}", setup.event) for a in command] + list(setup.extra_args)
    return Prepared(
        sc,
        argv,
        project,
        env,
        payload_path,
        scratch,
        setup.check if check_output else None,
        project / "cupcake.toml",
        setup.event,
    )


def prepare_baseline(root: Path, python: Path) -> Prepared:
    base = root / "baseline"
    project, home, scratch = base / "project", base / "home", base / "scratch"
    for d in (project, home, scratch):
        d.mkdir(parents=True)
    payload_path = scratch / "payload.json"
    payload_path.write_text(json.dumps(bash_payload(project.resolve())), encoding="utf-8")
    env = clean_env()
    env["HOME"] = str(home.resolve())
    env["CLAUDE_PROJECT_DIR"] = str(project.resolve())
    sc = Scenario(0, "baseline", "python -c pass", 1.0, None, None)
    return Prepared(
        sc,
        [str(python), "-c", "pass"],
        project.resolve(),
        env,
        payload_path,
        scratch,
        expect_nothing,
        project / "cupcake.toml",
    )


# --------------------------------------------------------------------------------------
# Statistics and the report
# --------------------------------------------------------------------------------------


def p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def summarize(p: Prepared) -> dict:
    ms = [t / 1e6 for t in p.times_ns]
    rss = [r / 1024 for r in p.rss_kib]  # MiB
    return {
        "runs": len(ms),
        "median_ms": statistics.median(ms),
        "p95_ms": p95(ms),
        "min_ms": min(ms),
        "mean_ms": statistics.fmean(ms),
        "stdev_ms": statistics.stdev(ms) if len(ms) > 1 else 0.0,
        "max_rss_median_mib": statistics.median(rss),
        "max_rss_max_mib": max(rss),
        "samples_ms": [round(x, 3) for x in ms],
        "samples_max_rss_kib": list(p.rss_kib),
        "samples_cpu_ms": [round(c / 1e6, 3) for c in p.cpu_ns],
        "cpu_median_ms": statistics.median(c / 1e6 for c in p.cpu_ns) if p.cpu_ns else 0.0,
    }


def evaluate(stats: dict, base: dict, sc: Scenario) -> dict:
    ratio = stats["median_ms"] / base["median_ms"]
    mem_ratio = stats["max_rss_median_mib"] / base["max_rss_median_mib"]
    time_ok = ratio <= sc.time_budget
    mem_ok = sc.mem_budget is None or mem_ratio <= sc.mem_budget
    return {
        "ratio_median": ratio,
        # Processor time (user + system, wait4) over the baseline's: what a busy machine inflates least.
        "ratio_cpu": stats["cpu_median_ms"] / base["cpu_median_ms"] if base["cpu_median_ms"] else 0.0,
        "ratio_p95": stats["p95_ms"] / base["median_ms"],
        "max_rss_ratio": mem_ratio,
        "time_budget": sc.time_budget,
        "mem_budget": sc.mem_budget,
        "time_ok": time_ok,
        "mem_ok": mem_ok,
        "ok": time_ok and mem_ok,
    }


def print_table(base: dict, rows: list[tuple[Scenario, dict | None]]) -> None:
    head = (
        f"{'id':>2}  {'scenario':<20} {'median ms':>9} {'p95 ms':>8} {'x base':>7} {'p95 x':>6} {'pair x':>6} "
        f"{'budget':>7} {'cpu x':>6}  {'RSS MiB':>7} {'x base':>6} {'budget':>6}  result"
    )
    print(head)
    print("-" * len(head))
    print(
        f"{'':>2}  {'baseline (-c pass)':<20} {base['median_ms']:9.2f} {base['p95_ms']:8.2f} "
        f"{1.0:7.2f} {base['p95_ms'] / base['median_ms']:6.2f} {'':>6} {'':>7} {1.0:6.2f}  {base['max_rss_median_mib']:7.1f} "
        f"{1.0:6.2f} {'':>6}"
    )
    for sc, r in rows:
        if r is None:
            print(f"{sc.id:>2}  {sc.name:<20} {'not built yet (skipped)':>47}")
            continue
        mem_budget = f"<={sc.mem_budget:g}" if sc.mem_budget is not None else "-"
        verdict = (
            "ok"
            if r["ok"]
            else "MISSED " + ", ".join(w for w, ok in (("time", r["time_ok"]), ("memory", r["mem_ok"])) if not ok)
        )
        print(
            f"{sc.id:>2}  {sc.name:<20} {r['median_ms']:9.2f} {r['p95_ms']:8.2f} {r['ratio_median']:7.2f} "
            f"{r['ratio_p95']:6.2f} {r['ratio_paired_median']:6.2f} {'<=' + format(sc.time_budget, 'g'):>7} "
            f"{r['ratio_cpu']:6.2f}  "
            f"{r['max_rss_median_mib']:7.1f} "
            f"{r['max_rss_ratio']:6.2f} {mem_budget:>6}  {verdict}"
        )


# --------------------------------------------------------------------------------------
# --importtime
# --------------------------------------------------------------------------------------

_IMPORT_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)\s*$")
_NOTABLE = [
    "pydantic",
    "typer",
    "rich",
    "click",
    "dataclasses",
    "typing",
    "inspect",
    "subprocess",
    "orjson",
    "datetime",
    "hashlib",
    "pickle",
    "tomli",
    "tomllib",
    "uuid",
    "tenacity",
    "importlib.metadata",
    "logging",
    "argparse",
]


def importtime_report(p: Prepared) -> None:
    if p.scenario.cold:
        print("bench: cold scenario: the policy file is touched first, so this run rebuilds the cache")
    else:
        p.run()  # warm-up: builds .cupcake/policy.cache
    p.before_run()
    # The launcher starts Python with -I -S, which ignores PYTHONPROFILEIMPORTTIME: start the Python
    # part of the very same launcher the way its shell part does, with -X importtime added.
    env = dict(p.env)
    argv = list(p.argv)
    python = str(Path(argv[0]).parent / "python")
    if Path(python).exists():
        argv = [python, "-I", "-S", "-X", "importtime", *argv]
    how = "the launcher's Python part under -X importtime (python -I -S -X importtime bin/cupcake ...)"
    res = run_once(argv, p.cwd, env, p.payload_path, p.scratch)
    rows, other = [], []
    for line in res.stderr.decode("utf-8", "replace").splitlines():
        m = _IMPORT_LINE.match(line)
        if m:
            rows.append((int(m.group(1)), int(m.group(2)), len(m.group(3)) // 2, m.group(4)))
        elif not line.startswith("import time: self"):
            other.append(line)
    res.stderr = "\n".join(other).encode()
    verify(p.scenario.name, res, p.check)
    if not rows:
        raise BenchError("no -X importtime output: is the command a Python process?")
    top_level = sum(cum for _, cum, depth, _ in rows if depth == 0)
    print(f"\nscenario {p.scenario.id} {p.scenario.name}: one run via {how}")
    print(
        f"wall time {res.wall_ns / 1e6:.1f} ms (importtime itself adds overhead); "
        f"{len(rows)} modules imported, top-level imports total {top_level / 1000:.1f} ms\n"
    )
    print(f"{'cumulative ms':>13} {'self ms':>8}  module (indented by depth)")
    for self_us, cum_us, depth, name in sorted(rows, key=lambda r: -r[1])[:15]:
        print(f"{cum_us / 1000:13.2f} {self_us / 1000:8.2f}  {'  ' * depth}{name}")
    imported = {name for *_, name in rows}
    notable = [n for n in _NOTABLE if n in imported]
    print("\nnotable modules imported: " + (", ".join(notable) if notable else "none of " + ", ".join(_NOTABLE)))


# --------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="bench/bench.py",
        description="Whole-process start-up time of `cupcake run` against `<venv>/bin/python -c pass`, interleaved.",
        epilog="Exit: 0 ok or --report-only; 1 a budget missed; 2 wrong output or set-up failure.",
    )
    ap.add_argument("--runs", type=int, default=30, help="measured runs per scenario (default 30)")
    ap.add_argument("--quick", action="store_true", help="5 runs and --report-only")
    ap.add_argument("--report-only", action="store_true", help="report budgets but never fail on them")
    ap.add_argument("--scenario", action="append", metavar="ID", help="id or name; repeatable (default: all)")
    ap.add_argument(
        "--json-out",
        type=Path,
        default=DEFAULT_JSON_OUT,
        help="where to write the results (default bench/results.json)",
    )
    ap.add_argument("--venv", type=Path, help="reuse a venv with a regular (non-editable) install of cupcake")
    ap.add_argument(
        "--allow-editable",
        action="store_true",
        help="with --venv: measure an editable install anyway (slower by an import finder)",
    )
    ap.add_argument("--python", default=sys.executable, help="interpreter for the fresh venv (default: this one)")
    ap.add_argument(
        "--repo",
        type=Path,
        default=DEFAULT_REPO,
        help="the repository to install (default: the one holding this script)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory and print where it is")
    ap.add_argument(
        "--importtime",
        metavar="SCENARIO",
        help="run that scenario once under -X importtime, print the top 15 cumulative imports, measure nothing",
    )
    ap.add_argument("--list", action="store_true", help="print the scenario table and exit")
    ap.add_argument(
        "--command",
        help="harness debugging: a stand-in command instead of `cupcake run --event E`; "
        "{python}, {venv} and {event} are substituted (e.g. \"{python} -c 'import json'\"); "
        "the scenarios' output checks are off, the error-path check stays",
    )
    ap.add_argument(
        "--no-install",
        action="store_true",
        help="with --command: create the fresh venv but do not install the repository",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.runs = 5
        args.report_only = True
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.no_install and not args.command:
        ap.error("--no-install only makes sense with --command")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.list:
        for sc in SCENARIOS:
            mem = f"<= {sc.mem_budget:g}x" if sc.mem_budget is not None else "not checked"
            state = "" if sc.built else "  [not built yet]"
            print(f"{sc.id}  {sc.name:<20} time <= {sc.time_budget:g}x, memory {mem}: {sc.description}{state}")
        return EXIT_OK
    try:
        if args.importtime:
            selected = [find_scenario(args.importtime)]
        elif args.scenario:
            selected = [find_scenario(k) for k in dict.fromkeys(args.scenario)]
        else:
            selected = list(SCENARIOS)
        return _main(args, selected)
    except BenchError as exc:
        print(f"\nbench: ERROR: {exc}", file=sys.stderr)
        return EXIT_ERROR


def _main(args: argparse.Namespace, selected: list[Scenario]) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="cupcake-bench-")).resolve()
    try:
        return _run(args, selected, tmp)
    finally:
        Launcher.close()
        if args.keep:
            print(f"bench: kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def _run(args: argparse.Namespace, selected: list[Scenario], tmp: Path) -> int:
    Launcher.start(tmp)
    venv, venv_kind, info = open_venv(args, tmp)
    command, check_output = resolve_command(args, venv)
    built = [sc for sc in selected if sc.built]
    for sc in selected:
        if not sc.built:
            print(f"bench: scenario {sc.id} {sc.name}: not built yet (skipped)")

    if args.importtime:
        if not built:
            raise BenchError(f"scenario {args.importtime} is not built yet")
        importtime_report(prepare(built[0], tmp / "scenarios", command, check_output))
        return EXIT_OK
    if not built:
        print("bench: no built scenario selected, nothing measured")
        return EXIT_OK

    baseline = prepare_baseline(tmp / "scenarios", venv / "bin" / "python")
    prepared = [prepare(sc, tmp / "scenarios", command, check_output) for sc in built]
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    measure(baseline, prepared, args.runs, check_output)
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    base = summarize(baseline)
    rows: list[tuple[Scenario, dict | None]] = []
    results = []
    for sc in selected:
        p = next((q for q in prepared if q.scenario is sc), None)
        if p is None:
            rows.append((sc, None))
            results.append(
                {
                    "id": sc.id,
                    "name": sc.name,
                    "description": sc.description,
                    "status": "not built yet",
                    "time_budget": sc.time_budget,
                    "mem_budget": sc.mem_budget,
                }
            )
            continue
        stats = summarize(p)
        stats.update(evaluate(stats, base, sc))
        # Each run over the baseline run just before it: steadier than median/median on a busy machine.
        paired = [t / b for t, b in zip(p.times_ns, p.paired_base_ns, strict=True)]
        stats["ratio_paired_median"] = statistics.median(paired)
        extra = [(t - b) / 1e6 for t, b in zip(p.times_ns, p.paired_base_ns, strict=True)]
        stats["paired_extra_median_ms"] = statistics.median(extra)
        rows.append((sc, stats))
        results.append(
            {
                "id": sc.id,
                "name": sc.name,
                "description": sc.description,
                "event": p.event,
                "cold": sc.cold,
                "status": "ok" if stats["ok"] else "missed",
                "warnings": p.warnings,
                **stats,
            }
        )

    print()
    print(
        f"cupcake run start-up, {args.runs} runs per scenario interleaved with the baseline "
        f"(python {platform.python_version()}, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs; cupcake {info['version']}, {venv_kind} venv, "
        f"{'editable' if info['editable'] else 'regular'} install)"
    )
    print()
    print_table(base, rows)
    for p in prepared:
        for w in p.warnings:
            print(f"warning: scenario {p.scenario.id} {p.scenario.name}: {w}")
    launcher_kib = Launcher.get().max_rss_kib
    if launcher_kib > 0 and base["max_rss_median_mib"] * 1024 * 1.02 < launcher_kib:
        print(
            f"warning: the launcher's resident set ({launcher_kib / 1024:.2f} MiB) is above the baseline's "
            "peak: peak-RSS figures below it are floored by it"
        )
    print(
        "\nx base = median / baseline median (the budgeted figure); p95 x = p95 / baseline median;\n"
        "pair x = median of each run / the baseline run just before it (a cross-check, steadier under load);\n"
        "cpu x = median processor time (user + system, wait4) / the baseline's (what load inflates least);\n"
        "RSS MiB = median of the child's peak resident set (wait4); the memory budget applies to warm runs only."
    )

    scale = scale_checks(results)
    for c in scale:
        print(
            f"{c['scenario']} / {c['reference']}: {c['ratio_paired']:.3f} x paired (budget <= {c['budget']:g}), "
            f"{c['ratio_median']:.3f} x of medians  {'ok' if c['ok'] else 'MISSED'}"
        )
    extra = extra_ms_checks(results)
    for c in extra:
        print(
            f"{c['scenario']} - {c['reference']}, run against run in each round: {c['extra_cpu_ms']:+.2f} ms processor "
            f"time (budget <= +{c['budget_ms']:g} ms), {c['extra_wall_ms']:+.2f} ms wall time  "
            f"{'ok' if c['ok'] else 'MISSED'}"
        )
    jail_start = measure_jail_start(venv, tmp / "scenarios", args.runs) if 18 in {s.id for s in built} else None
    if jail_start is not None:
        if jail_start["status"] == "skipped":
            print(f"jail start: skipped ({jail_start['why']})")
        else:
            print(
                f"jail start: bash -c true {jail_start['bash_true_median_ms']:.2f} ms, the same jailed "
                f"{jail_start['jailed_true_median_ms']:.2f} ms (+{jail_start['added_paired_median_ms']:.2f} ms paired "
                f"wall time); +{jail_start['added_cpu_median_ms']:.2f} ms processor time "
                f"(budget <= {jail_start['budget_ms']:g} ms)  {'ok' if jail_start['ok'] else 'MISSED'}"
            )
    missed = [r for r in results if r.get("status") == "missed"]
    missed += [{"id": f"{c['scenario']}/{c['reference']}", "name": "scale"} for c in scale if not c["ok"]]
    missed += [{"id": f"{c['scenario']}-{c['reference']}", "name": "extra ms"} for c in extra if not c["ok"]]
    if jail_start is not None and jail_start.get("status") == "missed":
        missed.append({"id": "jail", "name": "jail start"})
    out = {
        "schema": 1,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "runs": args.runs,
        "report_only": args.report_only,
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.release()} {platform.machine()}",
        "cpus": os.cpu_count(),
        # The one-minute load average before and after the rounds: a shared machine's figures move with it.
        "load": [load_before, load_after],
        "cupcake_version": info["version"],
        "install": "editable" if info["editable"] else ("none" if args.no_install else "regular"),
        "venv": venv_kind,
        "git_commit": git_commit(args.repo),
        "command": (["<stand-in>"] + shlex.split(args.command))
        if args.command
        else ["<venv>/bin/cupcake", "run", "--event", "<event>"],
        "launcher_rss_kib": launcher_kib,
        "baseline": {"command": ["<venv>/bin/python", "-c", "pass"], **base},
        "scenarios": results,
        "scale": scale,
        "extra_ms": extra,
        "jail_start": jail_start,
        "budgets_met": not missed,
    }
    args.json_out.parent.mkdir(parents=True, exist_ok=True)
    args.json_out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"results written to {args.json_out}")

    if missed:
        names = ", ".join(f"{r['id']} {r['name']}" for r in missed)
        if args.report_only:
            print(f"budgets missed: {names} (--report-only: not failing)")
            return EXIT_OK
        print(f"budgets missed: {names}", file=sys.stderr)
        return EXIT_BUDGET
    return EXIT_OK


def open_venv(args: argparse.Namespace, tmp: Path) -> tuple[Path, str, dict]:
    """The venv to measure: a fresh one with a regular install, or --venv after checking its install."""
    if args.venv:
        venv = args.venv.absolute()
        if not (venv / "bin" / "python").exists():
            raise BenchError(f"--venv {args.venv}: no bin/python there")
        venv_kind = "given"
    else:
        venv = create_venv(args.python, args.repo.resolve(), tmp, install=not args.no_install)
        venv_kind = "fresh"
    info = {"version": None, "editable": False, "why": []}
    if not args.no_install:
        info = inspect_install(venv)
        if info["version"] is None:
            raise BenchError("cupcake is not installed in the venv")
        if info["editable"]:
            msg = (
                "cupcake is an editable install (" + "; ".join(info["why"]) + "): its import finder "
                "adds ~14 ms to every start, which users do not pay (and its .pth slows the baseline too)"
            )
            if not args.allow_editable:
                raise BenchError(msg + ". Use a regular install (`pip install .`) or pass --allow-editable.")
            print(f"bench: WARNING: {msg}", file=sys.stderr)
    return venv, venv_kind, info


def resolve_command(args: argparse.Namespace, venv: Path) -> tuple[list[str], bool]:
    """The measured argv ({event} still to fill in) and whether the scenarios' output checks apply."""
    if args.command:
        python = venv / "bin" / "python"
        command = [a.replace("{python}", str(python)).replace("{venv}", str(venv)) for a in shlex.split(args.command)]
        if not os.path.isabs(command[0]):
            command[0] = shutil.which(command[0]) or command[0]
        print("bench: stand-in command: scenario output checks are OFF (the error-path check stays)")
        return command, False
    command = [str(venv / "bin" / "cupcake"), "run", "--event", "{event}"]
    if not Path(command[0]).exists():
        raise BenchError("the venv has no bin/cupcake console script")
    return command, True


def measure(baseline: Prepared, prepared: list[Prepared], runs: int, check_cache: bool) -> None:
    """Warm up, then per round: baseline, scenario A, baseline, scenario B, ..."""
    # Warm-up: the page cache for the interpreter, and .cupcake/policy.cache for warm scenarios.
    baseline.run()
    warm_stamps = {}
    for p in prepared:
        if not p.scenario.cold:
            p.run()
            warm_stamps[p.scenario.id] = p.cache_stamp()
            if check_cache and warm_stamps[p.scenario.id] is None:
                p.warnings.append("no .cupcake/policy.cache after the warm-up run")

    print(f"bench: {runs} rounds x {len(prepared)} scenario(s), each after a baseline run ...", flush=True)
    t_start = time.monotonic()
    for rnd in range(runs):
        for p in prepared:
            for q in (baseline, p):
                before = q.cache_stamp() if q.scenario.cold else None
                res = q.run()
                q.times_ns.append(res.wall_ns)
                q.rss_kib.append(res.maxrss_kib)
                q.cpu_ns.append(res.cpu_ns)
                if q.scenario.cold and check_cache and q.cache_stamp() in (None, before):
                    msg = "the cache was not rewritten by a cold run: was it cold?"
                    if msg not in q.warnings:
                        q.warnings.append(msg)
            p.paired_base_ns.append(baseline.times_ns[-1])
        if rnd == 0 or (rnd + 1) % 10 == 0:
            print(f"bench: round {rnd + 1}/{runs} ({time.monotonic() - t_start:.0f} s)", flush=True)

    for p in prepared:
        if check_cache and not p.scenario.cold and p.cache_stamp() != warm_stamps[p.scenario.id]:
            p.warnings.append("the cache was rewritten during the warm runs: were they warm?")


def git_commit(repo: Path) -> str | None:
    try:
        proc = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    dirty = subprocess.run(
        ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    ).stdout.strip()
    return proc.stdout.strip() + ("-dirty" if dirty else "")


if __name__ == "__main__":
    sys.exit(main())
