Feature: Splitting policies over several files with imports
    One flat file does not scale to a team. `imports = ["policies/*.toml"]` in cupcake.toml pulls
    in more policy files: the importing file's own policies come first, then each entry in list
    order, a glob's matches sorted by path. Entries are relative to the importing file and must
    stay inside its directory. Imported files hold policies only: settings and imports are read
    from cupcake.toml and ~/.claude/cupcake.toml alone, so imports never nest and never form a
    cycle. Policy names are unique across all files. The policy cache watches every imported
    file and every directory a glob looks into, so a new file that matches counts at once.

    Scenario: The importing file's policies first, then each entry in order, a glob's files sorted
        Given the project policy:
            """
            imports = ["policies/*.toml", "team/extra.toml"]

            [[policy]]
            name = "Project style"
            action = { type = "provide_feedback", message = "from cupcake.toml" }
            """
        And the file "policies/security.toml":
            """
            [[policy]]
            name = "Security"
            action = { type = "provide_feedback", message = "from policies/security.toml" }
            """
        And the file "policies/docs.toml":
            """
            [[policy]]
            name = "Docs"
            action = { type = "provide_feedback", message = "from policies/docs.toml" }
            """
        And the file "team/extra.toml":
            """
            [[policy]]
            name = "Extra"
            action = { type = "provide_feedback", message = "from team/extra.toml" }
            """
        When the agent asks to run "ls"
        Then the tool call is denied with:
            """
            Policy feedback found:
            • from cupcake.toml
            • from policies/docs.toml
            • from policies/security.toml
            • from team/extra.toml

            Please address these issues before proceeding.
            """

    Scenario: A new file that matches the glob is seen at once, without a stale cache
        Given the per-user secret exists, as `cupcake sync` leaves it
        And the project policy:
            """
            imports = ["policies/*.toml"]
            """
        And the file "policies/style.toml":
            """
            [[policy]]
            name = "Style"
            action = { type = "provide_feedback", message = "Use the design system" }
            """
        When the agent asks to run "sudo ls"
        Then the policy cache exists
        When the agent asks to run "sudo ls" again
        Then the policy cache was not rewritten
        When the file "policies/sudo.toml" is added:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        And the agent asks to run "sudo ls" again
        Then the tool call is denied with:
            """
            Operation blocked: No sudo

            Additional policy feedback:
            • Use the design system
            """

    Scenario: An edit to an imported file is seen at once
        Given the project policy:
            """
            imports = ["policies/*.toml"]
            """
        And the file "policies/style.toml":
            """
            [[policy]]
            name = "Style"
            action = { type = "provide_feedback", message = "Use the design system" }
            """
        When the agent asks to run "ls"
        And the file "policies/style.toml" is changed to:
            """
            [[policy]]
            name = "Style"
            action = { type = "provide_feedback", message = "Use the design system, version 2" }
            """
        And the agent asks to run "ls" again
        Then the model is shown:
            """
            Policy feedback found:
            • Use the design system, version 2

            Please address these issues before proceeding.
            """

    Scenario: A policy name used in two files is an error that names both places
        The first use keeps enforcing; the second is out of service, and every run says so.
        Given the project policy:
            """
            imports = ["policies/*.toml"]

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        And the file "policies/ops.toml":
            """
            [[policy]]
            name = "Deploys need a person"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "deploy" }]
            action = { type = "ask", reason = "Deploys need a person" }

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "ask", reason = "sudo needs a person" }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            policies/ops.toml:8: error: policy "No sudo": duplicate policy name: also defined at cupcake.toml:3 (names must be unique across all policy files, imported ones included)
            1 error, 0 warnings
            """
        And the exit code is 1
        When the agent asks to run "sudo ls"
        Then the tool call is denied
        And the user is told "out of service until fixed (every other policy is enforced):\n- policies/ops.toml:8: policy \"No sudo\": duplicate policy name: also defined at cupcake.toml:3"

    Scenario: An imported file holds policies only
        Given the project policy:
            """
            imports = ["policies/*.toml"]
            """
        And the file "policies/loose.toml":
            """
            imports = ["more/*.toml"]

            [settings]
            fail_mode = "open"

            [[policy]]
            name = "Style"
            action = { type = "provide_feedback", message = "Use the design system" }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            policies/loose.toml:1: error: `imports` is not allowed in an imported file: this file is imported by cupcake.toml, and only cupcake.toml and ~/.claude/cupcake.toml may import, so imports never nest and never form a cycle
            policies/loose.toml:3: error: `settings` is not allowed in an imported file: settings are read only from cupcake.toml and ~/.claude/cupcake.toml
            2 errors, 0 warnings
            """
        And the exit code is 1

    Scenario: A glob that matches the importing file itself is a cycle
        Given the project policy:
            """
            imports = ["*.toml"]

            [[policy]]
            name = "Style"
            action = { type = "provide_feedback", message = "Use the design system" }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            cupcake.toml:1: error: imports: "cupcake.toml" is the importing file itself (an import cycle)
            1 error, 0 warnings
            """

    Scenario: Paths outside the project are refused
        Given the project policy:
            """
            imports = [
                "../shared/policies.toml",
                "/etc/cupcake/policies.toml",
                "~/policies.toml",
                "linked/*.toml",
                ".cupcake/state/*.toml",
                "missing.toml",
            ]
            """
        And the file "../shared/policies.toml":
            """
            [[policy]]
            name = "Outside"
            action = { type = "approve" }
            """
        And "linked/outside.toml" is a symlink to "../../shared/policies.toml"
        When the user runs "cupcake validate"
        Then the output is:
            """
            cupcake.toml:2: error: imports: "../shared/policies.toml" leads outside the project (".."): imports must stay inside the importing file's directory
            cupcake.toml:3: error: imports: "/etc/cupcake/policies.toml" is not relative: imports must stay inside the project (paths relative to this file)
            cupcake.toml:4: error: imports: "~/policies.toml" is not relative: imports must stay inside the project (paths relative to this file)
            cupcake.toml:5: error: imports: "linked/outside.toml" leads outside the importing file's directory (through a symbolic link): refused
            cupcake.toml:6: error: imports: ".cupcake/state/*.toml" is inside .cupcake/, which holds Cupcake's own data, never policies
            cupcake.toml:7: error: imports: imported file "missing.toml" does not exist
            6 errors, 0 warnings
            """
        And the exit code is 1
        When the agent asks to run "ls"
        Then the answer is only a note to the user saying "out of service until fixed"

    Scenario: The user's file imports relative to ~/.claude
        Given the user policy:
            """
            imports = ["cupcake.d/*.toml"]
            """
        And the file "~/.claude/cupcake.d/git.toml":
            """
            [[policy]]
            name = "No force pushes"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git push.*--force" }]
            action = { type = "block_with_feedback", feedback_message = "Force pushes rewrite shared history" }
            """
        When the agent asks to run "git push --force"
        Then the tool call is denied with:
            """
            Operation blocked: Force pushes rewrite shared history
            """

    Rule: An import that cannot be read completely keeps protection on and fails per fail_mode
        Too many folders or files, or a folder that cannot be listed, is an error for that entry:
        every run says so, and under fail_mode "closed" every call is blocked. The folders an import
        reads are protected like its files: the agent may not make, flood, lock or remove them.

        Scenario: A flooded import folder blocks every call under fail_mode "closed"
            Given the project policy:
                """
                imports = ["policies/**/*.toml"]

                [settings]
                fail_mode = "closed"
                """
            And the file "policies/team/rules.toml":
                """
                [[policy]]
                name = "no rm -rf"
                conditions = [{ type = "command_regex", value = "rm -rf" }]
                action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
                """
            And the folder "policies" holds 510 folders
            When the agent asks to run "ls"
            Then the tool call is denied
            And the model is shown a note that "scans more than 500 directories"

        Scenario Outline: The agent may not make or change the folders an import reads
            Given the project policy:
                """
                imports = ["policies/**/*.toml"]
                """
            And the file "policies/team/rules.toml":
                """
                [[policy]]
                name = "no rm -rf"
                conditions = [{ type = "command_regex", value = "rm -rf" }]
                action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
                """
            When the agent asks to run "<command>"
            Then the tool call is denied
            And the model is shown a note that "<why>"

            Examples:
                | command               | why                                                    |
                | mkdir policies/extra  | where imports "policies/**/*.toml" looks for policy files |
                | chmod 000 policies    | a folder Cupcake reads policy files from               |
                | rm -rf policies/team  | policies/team, which is where imports "policies/**/*.toml" looks |
