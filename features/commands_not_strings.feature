Feature: Commands, not strings
    A `command` condition reads a Bash line the way the shell would: every simple command that
    would run, through `&&`, `||`, `;`, pipes, subshells, `$(…)`, `eval`, `sh -c`, here-documents fed
    to a shell, `xargs`, `find -exec` and wrappers such as `sudo`, `env` and `nice`. Programs are
    normalised (`/bin/rm`, `\rm` and `r''m` are `rm`), subcommands come after global options
    (`git -C . push` is `git push`), short flags cluster (`-rf` is `-r -f`) and long forms count
    (`--recursive`). Text that is only data (an `echo`, a `grep` pattern, a commit message, a
    here-document read by `cat`) is never taken for a command.

    Background:
        Given the project policy:
            """
            [[policy]]
            name = "No recursive delete outside the project"
            matcher = "Bash"
            conditions = [{ type = "command", program = "rm", flags = ["-r|-R|--recursive", "-f|--force"], path_outside = ["{project}", "/tmp"] }]
            action = { type = "block_with_feedback", feedback_message = "Delete only inside the project." }

            [[policy]]
            name = "No push"
            matcher = "Bash"
            conditions = [{ type = "command", program = "git", subcommand = "push" }]
            action = { type = "block_with_feedback", feedback_message = "Ask the user to push." }

            [[policy]]
            name = "No broad find -delete"
            matcher = "Bash"
            conditions = [{ type = "command", program = "find", flags = ["-delete"], path_outside = ["{project}"] }]
            action = { type = "block_with_feedback", feedback_message = "Run find inside the project." }
            """

    Scenario Outline: Rephrasing a command does not get it past the policy
        When the agent asks to run "<command>"
        Then the tool call is denied by the policy "<policy>"

        Examples:
            | command                      | policy                                   |
            | rm -r -f /                   | No recursive delete outside the project |
            | rm -fr /                     | No recursive delete outside the project |
            | rm -Rf /                     | No recursive delete outside the project |
            | rm --recursive --force /     | No recursive delete outside the project |
            | \\rm -rf /                   | No recursive delete outside the project |
            | command rm -fr /             | No recursive delete outside the project |
            | /bin/rm -r -f /              | No recursive delete outside the project |
            | r''m -rf /                   | No recursive delete outside the project |
            | xargs rm -r -f               | No recursive delete outside the project |
            | sudo env -i nice rm -rf ~    | No recursive delete outside the project |
            | sh -c 'rm -rf /etc'          | No recursive delete outside the project |
            | find / -delete               | No broad find -delete                   |
            | git  push                    | No push                                 |
            | git -c a=b push              | No push                                 |
            | git -C . push                | No push                                 |
            | g''it push                   | No push                                 |
            | echo ok && (cd x; git push)  | No push                                 |
            | echo $(git push)             | No push                                 |
            | eval "git push"              | No push                                 |

    Scenario Outline: Data and look-alikes are not the command
        When the agent asks to run "<command>"
        Then the tool call is let through

        Examples:
            | command                                 |
            | git commit-tree HEAD^{tree} -m x        |
            | grep "rm -rf" notes.md                  |
            | echo "git push --force"                 |
            | git commit -m "never git push --force"  |
            | rm -rf build                            |
            | rm -rf /tmp/scratch                     |
            | find . -name '*.pyc' -delete            |

    Scenario: A here-document read by cat is data
        When the agent asks to run:
            """
            cat <<EOF
            rm -rf /
            EOF
            """
        Then the tool call is let through

    Scenario: A here-document fed to a shell runs
        When the agent asks to run:
            """
            bash <<EOF
            rm -rf /
            EOF
            """
        Then the tool call is denied by the policy "No recursive delete outside the project"

    Scenario: A mistake in a command condition is reported where it is written
        Given the project policy:
            """
            [[policy]]
            name = "Bad flags"
            conditions = [{ type = "command", program = "rm", flags = ["recursive"] }]
            action = { type = "block_with_feedback", feedback_message = "no" }
            """
        When the user runs "cupcake validate"
        Then the output says "each `flags` entry lists flags such as"
        And the exit code is 1
