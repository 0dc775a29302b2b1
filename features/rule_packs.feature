Feature: Rule packs
    Cupcake ships rule packs for what teams fear: secrets, sensitive files, destructive filesystem
    commands, processes, databases, containers and Kubernetes, cloud, git history, network exposure,
    publishing, privilege and hidden code, and `recommended` (all of them: what a new project should
    start with). A policy file enables one with `imports = ["cupcake:<pack>"]`. Every rule has an id,
    a lane (block, ask, or warn: the call goes ahead and both the person and the agent are told), a
    message that tells the agent what to do instead, and examples of what it stops and the near
    misses it lets through. `[packs] disable = [...]` switches rules off by id, `[packs.levels]`
    moves a rule to another lane and `[packs.messages]` replaces what the agent is told.

    Scenario: The recommended pack stops a force push and says what to do instead
        Given the project policy:
            """
            imports = ["cupcake:recommended"]
            """
        When the agent asks to run "git push --force origin main"
        Then the tool call is denied by the policy "git.force-push"
        And the denial says "Push normally"

    Scenario: A rule that holds only on the part of a line Cupcake could not read says so first
        Past the Bash reader's bounds, a rule is taken to hold when its program could be in the part not
        read: the call is blocked, and the answer begins with what could not be read and how to write it.
        Given the project policy:
            """
            imports = ["cupcake:recommended"]
            """
        When the agent asks to run one line of 2,010 commands like "mkdir d{n}", then "ls"
        Then the tool call is denied
        And the denial says "Cupcake could not read all of this command (too many commands), and the part it could not read may be what this rule stops"

    Scenario: A folder rule covers every name under it, one with a newline too
        A path rule's ** crosses directories and any character a name may hold: bash makes a name with
        a newline in it without effort, and such a name under ~/.ssh is still under ~/.ssh.
        Given the project policy:
            """
            imports = ["cupcake:recommended"]
            """
        When the agent asks to run "echo key >> ~/.ssh/$'a\nb'"
        Then the tool call is denied by the policy "sensitive-files.ssh-and-gnupg"

    Scenario: A path glob that makes no pattern is an error of the policy file, not of a run
        Given the project policy:
            """
            [[policy]]
            name = "Keys"
            hook_event = "PreToolUse"
            conditions = [{ type = "path", paths = ["~/{.ssh,.gnupg}/**", "~/.keys/[z-a]*"] }]
            action = { type = "block_with_feedback", feedback_message = "Not the key folders." }
            """
        When the user runs "cupcake validate"
        Then the exit code is 1
        And the output says "condition path: the glob '~/.keys/[z-a]*' cannot be read (bad character range z-a"

    Scenario: A rule switched off by id no longer stops anything
        Given the project policy:
            """
            imports = ["cupcake:git"]

            [packs]
            disable = ["git.force-push"]
            """
        When the agent asks to run "git push --force origin main"
        Then the tool call is let through

    Scenario: A rule's message can be replaced
        Given the project policy:
            """
            imports = ["cupcake:git"]

            [packs.messages]
            "git.reset-hard" = "Use git stash in this repository."
            """
        When the agent asks to run "git reset --hard"
        Then the denial says "Use git stash in this repository. [git.reset-hard]"

    Scenario: A misspelled id in [packs] disable is an error, and the rule meant is still on
        Given the project policy:
            """
            imports = ["cupcake:git"]

            [packs]
            disable = ["git.force-pushes"]
            """
        When the user runs "cupcake validate"
        Then the exit code is 1
        And the output says "cupcake.toml:4: error: [packs] disable: no built-in rule has the id "git.force-pushes" (did you mean "git.force-push"?), so no rule is switched off for it (`cupcake packs` lists the ids)"
        When the agent asks to run "git push --force"
        Then the tool call is denied
        And the user is told "[packs] disable: no built-in rule has the id \"git.force-pushes\""

    Scenario: An unknown id in [packs.messages] is reported on its own line
        Given the project policy:
            """
            imports = ["cupcake:git"]

            [packs.messages]
            "git.reset-hard" = "Use git stash in this repository."
            "git.force-pushes" = "Open a pull request instead."
            """
        When the user runs "cupcake validate"
        Then the exit code is 0
        And the output says "cupcake.toml:5: warning: [packs.messages]: no built-in rule has the id "git.force-pushes" (did you mean "git.force-push"?), so this message is never shown"

    Scenario: An unknown pack is an error
        Given the project policy:
            """
            imports = ["cupcake:gits"]
            """
        When the user runs "cupcake validate"
        Then the output says "no built-in pack"
        And the exit code is 1

    Scenario: The packs are listed, as text and as JSON
        When the user runs "cupcake packs"
        Then the output says "cupcake:recommended"
        And the output says "git.force-push"
        When the user runs "cupcake packs --json"
        Then the JSON output lists the pack "git" with the rule "git.force-push"

    Scenario: Reading the project's .env file warns, reading its example says nothing
        Given the project policy:
            """
            imports = ["cupcake:secrets"]
            """
        When the agent uses Read on ".env"
        Then the tool call goes ahead with the warning "reads the project's `.env` file"
        When the agent uses Read on ".env.example"
        Then the tool call is let through

    Scenario: Every pack's own examples hold
        When the user runs "cupcake test --packs"
        Then the output says "0 failed"
        And the exit code is 0

    Scenario: cupcake packs NAME shows one pack in full
        When the user runs "cupcake packs git"
        Then the exit code is 0
        And the output says "Turn it on in cupcake.toml: imports = ["cupcake:git"]"
        And the output says "git.reset-hard  (high, block, Bash)"
        And the output says "  catches: git reset --hard; git reset --hard HEAD~5"

    Scenario: cupcake packs --project shows which packs and rules this project has on
        Given the project policy:
            """
            imports = ["cupcake:git"]

            [packs]
            disable = ["git.no-verify"]
            """
        When the user runs "cupcake packs --project"
        Then the exit code is 0
        And the output says "cupcake:git (imported by cupcake.toml): 9 of 10 rules on"
        And the output says "  off  git.no-verify  switched off by [packs] disable in cupcake.toml"

    Scenario: A warning lets the call go ahead and tells the person and the agent
        Given the project policy:
            """
            imports = ["cupcake:secrets"]
            """
        When the agent asks to run "printenv"
        Then the tool call goes ahead with the warning "This prints the whole environment"

    Scenario: A team moves a rule to another lane by id
        Given the project policy:
            """
            imports = ["cupcake:git"]

            [packs.levels]
            "git.force-push" = "ask"
            """
        When the agent asks to run "git push --force origin main"
        Then the person is asked with the reason "Force-pushing rewrites the remote branch and can destroy others' commits. Push normally (pull and rebase first), or ask the user to force-push. [git.force-push]"

    Scenario: An unknown rule id in the levels is rejected with the nearest one
        Given the project policy:
            """
            imports = ["cupcake:git"]

            [packs.levels]
            "git.force-pushh" = "warn"
            """
        When the user runs "cupcake validate"
        Then the output says "git.force-pushh"
        And the output says "did you mean"
        And the exit code is 1

    Scenario: A credential written into a file is stopped
        Given the project policy:
            """
            imports = ["cupcake:secrets"]
            """
        When the agent asks to write "config.py" with:
            """
            AWS_ACCESS_KEY_ID = 'AKIAQYLPMN5HHHFPZAM2'
            """
        Then the tool call is denied by the policy "secrets.write-credentials"

    Scenario: SQL that deletes every row is stopped through a here-document
        Given the project policy:
            """
            imports = ["cupcake:databases"]
            """
        When the agent asks to run:
            """
            psql app <<'EOF'
            DELETE FROM users;
            EOF
            """
        Then the tool call is denied by the policy "databases.destructive-sql"

    Scenario: A command hidden in a git alias is read like any other
        Given the project policy:
            """
            imports = ["cupcake:destructive"]

            [settings]
            self_protection = false  # it refuses any git alias that runs a program: the pack's reading is shown alone
            """
        When the agent asks to run "git -c alias.x='!rm -rf /' x"
        Then the tool call is denied by the policy "destructive.rm-recursive-outside"

    Scenario: Code decoded at run time is refused with how to write it plainly
        Given the project policy:
            """
            imports = ["cupcake:shell"]
            """
        When the agent asks to run:
            """
            python3 -c "import os; getattr(os, 'sys' + 'tem')('id')"
            """
        Then the tool call is denied by the policy "shell.hidden-code"
        And the denial says "Write the command out plainly"
