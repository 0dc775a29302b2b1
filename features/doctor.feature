Feature: Finding out why Cupcake did not block, with cupcake doctor
    `cupcake doctor` checks an installation in the order a hook call depends on it, for every agent
    that has Cupcake's hooks (Claude Code's settings here; features/agent_*.feature for the others):
    Cupcake's hook entries in each settings scope (project, local, user), the executable they name
    (found on this PATH and on a fresh login shell's, and answering `--version`), the policy files
    (loaded as `cupcake run` loads them), a writable .cupcake/, and finally a sample PreToolUse event
    (the agent asks to run `echo cupcake doctor`) sent through the hook command itself, as the agent
    runs it, with its measured time.
    Every finding is ok, a warning, or a problem; each one that is not ok says how to fix it.
    The exit code is 1 when there is a problem. `--json` gives the same findings to scripts.

    Background:
        Given cupcake is on the PATH
        And a fresh login shell finds cupcake too
        And the project policy:
            """
            [[policy]]
            name = "No force pushes"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git push.*--force" }]
            action = { type = "block_with_feedback", feedback_message = "Force pushes rewrite shared history" }
            """

    Scenario: A healthy installation
        Given the user runs "cupcake sync"
        When the user runs "cupcake doctor"
        Then the exit code is 0
        And the doctor finds no problem and no warning
        And the doctor reports as ok ".claude/settings.json: Cupcake's hook on all 11 events"
        And the doctor reports as ok "`cupcake` is $CUPCAKE (cupcake "
        And the doctor reports as ok "1 policy in cupcake.toml loads without errors"
        And the doctor reports as ok "a sample PreToolUse (Bash `echo cupcake doctor`) through the PreToolUse hook in .claude/settings.json: answered in time, no objection"
        And the doctor reports the round trip's time in milliseconds

    Scenario: No hooks at all
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem "no agent calls Cupcake: no agent's hook settings hold Cupcake's hooks"
        And its fix says "run `cupcake sync`"

    Scenario: Hooks for only some events
        Given the file ".claude/settings.local.json":
            """
            {"hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "cupcake run --event PreToolUse"}]}]}}
            """
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem ".claude/settings.local.json: no Cupcake hook for PostToolUse, Notification, Stop"
        And its fix says "run `cupcake sync --scope local`"

    Scenario: A hook listed under one event that runs another
        `--event` wins over the event Claude Code names, so PreToolUse policies would never run.
        Given the user runs "cupcake sync"
        And in ".claude/settings.json" the PreToolUse hook is changed to "cupcake run --event PostToolUse"
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem ".claude/settings.json: the hook listed under PreToolUse runs `--event PostToolUse`, so PreToolUse policies are never evaluated"

    Scenario: Hooks installed while every policy is commented out: the user is warned they are not protected
        Given the project policy:
            """
            # imports = ["cupcake:recommended"]

            # [[policy]]
            # name = "Keep xyz"
            """
        And the user runs "cupcake sync"
        When the user runs "cupcake doctor"
        Then the exit code is 0
        And the doctor warns "the hooks are installed but no policy is active (every policy is commented out, or there is none): only self-protection is enforced"
        And its fix says "turn on the recommended rules with imports = ["cupcake:recommended"] in cupcake.toml"

    Scenario: Hooks in two scopes with different commands run Cupcake twice per event
        Claude Code runs identical hook commands once, but `cupcake` and an absolute path differ.
        Given the user runs "cupcake sync"
        And the user runs "cupcake sync --scope local"
        When the user runs "cupcake doctor"
        Then the exit code is 0
        And the doctor warns "Cupcake runs more than once per event: different hook commands in .claude/settings.json, .claude/settings.local.json"

    Scenario: The hooks name an executable that does not exist
        Given the user runs "cupcake sync --command /opt/nowhere/cupcake"
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem "`/opt/nowhere/cupcake` (the hooks in .claude/settings.json) is not found there: every hook fails, and Claude Code then blocks every call it could stop"
        And the doctor reports the problem "the hook exited 2, which blocks every call (cupcake missing or crashed): Cupcake: this hook could not run /opt/nowhere/cupcake (exit 127"

    Scenario: cupcake is not on the PATH Claude Code starts with
        Given the user runs "cupcake sync"
        And cupcake is not on the PATH
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem "`cupcake` (the hooks in .claude/settings.json) is not found on PATH"
        And its fix says "`pipx install .` or `uv tool install .` from its source"
        When cupcake is on the PATH
        And the user runs "cupcake doctor"
        Then the exit code is 0

    Scenario: The hooks run another program named cupcake
        Given the user runs "cupcake sync"
        And another program named cupcake comes first on the PATH
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem "which is not Cupcake"

    Scenario: A broken policy file: the problem, and what the hook does about it
        Given the project policy:
            """
            [[policy]]
            name = "Typo in the action"
            matcher = "Bash"
            action = { type = "blok", feedback_message = "No sudo" }
            """
        And the user runs "cupcake sync"
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem "cupcake.toml:4: policy "Typo in the action": unknown action type "blok" (did you mean "block_with_feedback"?)"
        And its fix says "`cupcake validate` lists every problem"
        And the doctor reports the problem "Cupcake answered with a failure instead of a decision"

    Scenario: A fresh login shell does not find cupcake
        Only this shell's PATH finds it (a virtual environment that is active here): Claude Code started
        from the desktop or a new terminal would find no cupcake, and block every call it could stop.
        Given the user runs "cupcake sync"
        And the user's profile sets a PATH without cupcake
        When the user runs "cupcake doctor"
        Then the exit code is 0
        And the doctor warns "a fresh login shell does not find `cupcake` (only this shell's PATH does)"
        And its fix says "`pipx install .` or `uv tool install .` from its source"

    Scenario: Hooks an older Cupcake wrote let the call through when cupcake cannot start
        Given the file ".claude/settings.json":
            """
            {"hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "cupcake run --event PreToolUse", "timeout": 600}]}]}}
            """
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem ".claude/settings.json: if cupcake cannot start, Claude Code lets the call through (a shell's exit 127 is not a block) on PreToolUse"
        And its fix says "run `cupcake sync`"

    Scenario: fail_mode "closed" without its guard in the hooks
        Given the user runs "cupcake sync"
        And the project policy file is changed to say fail_mode "closed"
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem "fail_mode is "closed", but in .claude/settings.json a missing or crashing cupcake lets the call through"
        And its fix says "run `cupcake sync`"

    Scenario: .cupcake cannot be written
        Given the user runs "cupcake sync"
        And .cupcake cannot be written
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem ".cupcake is not a directory"

    Scenario: A settings file that disables every hook
        Given the user runs "cupcake sync"
        And the file ".claude/settings.local.json":
            """
            {"disableAllHooks": true}
            """
        When the user runs "cupcake doctor"
        Then the exit code is 1
        And the doctor reports the problem ".claude/settings.local.json sets "disableAllHooks": true: Claude Code runs no hooks at all"

    Scenario: --json for scripts
        Given the user runs "cupcake sync --command /opt/nowhere/cupcake"
        When the user runs "cupcake doctor --json"
        Then the exit code is 1
        And the JSON output says ok is false
        And the JSON output has a "problem" finding from the "executable" check
        And the JSON output has the round trip's exit code 2
