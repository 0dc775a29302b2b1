Feature: The agent cannot change what governs it
    Self-protection is on by default: the agent may not write, edit or delete the policy files
    (cupcake.toml, ~/.claude/cupcake.toml, every imported file and any new file an imports glob
    would pick up), anything under .cupcake/, or Claude Code's .claude/settings*.json (in the
    project and in the home directory, where Cupcake's hooks are); nor run
    `cupcake sync --uninstall`. A Bash command that plainly targets one of those paths is blocked
    too. The answer tells the agent that a person must make the change. Reading is fine, except the
    key that seals the policy cache: no tool may read it, or a forged cache would pass as Cupcake's.

    It is checked before any policy, so no approve can pre-empt it, and it holds even when a policy
    file is broken. Only `self_protection = false` in [settings] turns it off.

    Background:
        Given the project policy:
            """
            imports = ["policies/*.toml"]

            [[policy]]
            name = "Trust everything"
            action = { type = "approve", reason = "the agent is trusted" }
            """
        And the file "policies/security.toml":
            """
            [[policy]]
            name = "Security review"
            matcher = "Write"
            conditions = [{ type = "filepath_regex", value = "^src/auth/" }]
            action = { type = "ask", reason = "auth code needs a review" }
            """

    Scenario: Writing a policy file is blocked, and the agent is told a person must do it
        When the agent uses Write on "cupcake.toml"
        Then the tool call is denied with:
            """
            Operation blocked: Cupcake self-protection: cupcake.toml is a Cupcake policy file. Agents may not change it: a person must make this change, so ask the user to do it.
            """

    Scenario Outline: Each protected path, with each file-writing tool
        Given the file "~/.claude/settings.json" exists
        When the agent uses <tool> on "<path>"
        Then the tool call is denied
        And the model is shown a note that "Cupcake self-protection: <shown> <what>. Agents may not change it: a person must make this change"

        Examples:
            | tool         | path                        | shown                       | what                                                                  |
            | Write        | cupcake.toml                | cupcake.toml                | is a Cupcake policy file                                              |
            | Edit         | ~/.claude/cupcake.toml      | ~/.claude/cupcake.toml      | is a Cupcake policy file                                              |
            | MultiEdit    | policies/security.toml      | policies/security.toml      | is a Cupcake policy file                                              |
            | Write        | policies/backdoor.toml      | policies/backdoor.toml      | would be imported as a Cupcake policy file (imports "policies/*.toml") |
            | Write        | .cupcake/policy.cache       | .cupcake/policy.cache       | is Cupcake's own data (.cupcake/)                                     |
            | Write        | .cupcake/state/s1.json      | .cupcake/state/s1.json      | is Cupcake's own data (.cupcake/)                                     |
            | Edit         | .claude/settings.json       | .claude/settings.json       | is Claude Code's settings, where Cupcake's hooks are installed        |
            | Write        | .claude/settings.local.json | .claude/settings.local.json | is Claude Code's settings, where Cupcake's hooks are installed        |
            | Edit         | ~/.claude/settings.json     | ~/.claude/settings.json     | is Claude Code's settings, where Cupcake's hooks are installed        |
            | NotebookEdit | .cupcake/notes.ipynb        | .cupcake/notes.ipynb        | is Cupcake's own data (.cupcake/)                                     |

    Scenario: A path that leads to a protected file through a symbolic link is the file itself
        Given "docs/rules.toml" is a symlink to "../cupcake.toml"
        When the agent uses Edit on "docs/rules.toml"
        Then the tool call is denied
        And the model is shown a note that "Cupcake self-protection: docs/rules.toml is a Cupcake policy file."

    Scenario: From a subdirectory, a relative path is still resolved
        Given the agent works in "src/" without CLAUDE_PROJECT_DIR
        When the agent uses Write on "../.claude/settings.json"
        Then the tool call is denied

    Scenario Outline: Bash commands that plainly target a protected path
        When the agent asks to run "<command>"
        Then the tool call is denied
        And the model is shown a note that "Cupcake self-protection: this command (<kind>) would change <shown>"
        And the model is shown a note that "a person must make this change"

        Examples:
            | command                                          | kind        | shown                       |
            | echo 'action = 1' > cupcake.toml                 | redirection | cupcake.toml                |
            | cat rules.txt >> policies/security.toml          | redirection | policies/security.toml      |
            | rm -f cupcake.toml                               | rm          | cupcake.toml                |
            | rm -rf .cupcake                                  | rm          | .cupcake                    |
            | rm -rf policies                                  | rm          | policies                    |
            | mv cupcake.toml cupcake.toml.off                 | mv          | cupcake.toml                |
            | cp /tmp/permissive.toml cupcake.toml             | cp onto     | cupcake.toml                |
            | sed -i 's/approve/ask/' policies/security.toml   | sed -i      | policies/security.toml      |
            | echo '{}' \| tee .claude/settings.json           | tee         | .claude/settings.json       |
            | truncate -s 0 .claude/settings.local.json        | truncate    | .claude/settings.local.json |
            | chmod 000 cupcake.toml                           | chmod       | cupcake.toml                |
            | ln -sf /dev/null cupcake.toml                    | ln          | cupcake.toml                |
            | cd .claude && rm settings.json                   | rm          | .claude/settings.json       |
            | sudo rm ~/.claude/cupcake.toml                   | rm          | ~/.claude/cupcake.toml      |
            | bash -c 'rm -f cupcake.toml'                     | rm          | cupcake.toml                |
            | git checkout -- cupcake.toml                     | git checkout | cupcake.toml               |
            | echo x > policies/new.toml                       | redirection | policies/new.toml           |

    Scenario Outline: Disguising the name or the command does not help
        When the agent asks to run "<command>"
        Then the tool call is denied
        And the model is shown a note that "Cupcake self-protection: "
        And the model is shown a note that "a person must make this change"

        Examples:
            | command                                          |
            | rm cup''cake.toml                                |
            | sed -i d cup\\cake.toml                          |
            | echo x > [c]upcake.toml                          |
            | rm cupcake.{toml,}                               |
            | eval 'rm cupcake.toml'                           |
            | echo 'rm cupcake.toml' \| sh                     |
            | find . -name cupcake.toml -delete                |
            | echo cupcake.toml \| xargs rm                    |
            | (cd /tmp); echo x > cupcake.toml                 |
            | cd /nonexistent 2>/dev/null; echo x > cupcake.toml |
            | python3 -c "open('cup' + 'cake.toml', 'w')"      |
            | rm -r .claude                                    |

    Scenario Outline: Git commands that would restore over a policy file are for a person
        The project's worktree holds cupcake.toml (usually tracked): resetting, restoring, stashing,
        cleaning or switching to another commit would replace the version the person wrote.
        Given the file ".git/HEAD" exists
        When the agent asks to run "<command>"
        Then the tool call is denied
        And the model is shown a note that "<named>"

        Examples:
            | command                         | named             |
            | git checkout .                  | cupcake.toml      |
            | git -C . checkout -- cupcake.toml | cupcake.toml    |
            | git reset --hard                | git reset --hard  |
            | git stash                       | git stash         |
            | git clean -fdx                  | git clean         |

    Scenario: A target Cupcake cannot know is blocked when it could be a protected file
        When the agent asks to run "echo '[settings]' > $TARGET"
        Then the tool call is denied
        And the model is shown a note that "Cupcake cannot tell which file it names"

    Scenario Outline: Ordinary work goes on
        Given the file ".git/HEAD" exists
        When the agent asks to run "<command>"
        Then the tool call is allowed with the reason "the agent is trusted"

        Examples:
            | command                  |
            | git status               |
            | git checkout -b feature  |
            | rm -rf build             |
            | echo x > notes.txt       |
            | grep cupcake README.md   |
            | cd src && make           |

    Scenario Outline: Cupcake's own set-up is for a person
        When the agent asks to run "<command>"
        Then the tool call is denied
        And the model is shown a note that "<named>"
        And the model is shown a note that "Agents may not run it: a person must make this change"

        Examples:
            | command                                | named                      |
            | cupcake init --template --yes --no-sync | `cupcake init --template --yes --no-sync` |
            | cupcake sync                           | `cupcake sync`             |
            | pip uninstall -y cupcake               | would remove or replace the installed Cupcake |

    Scenario Outline: Removing Cupcake's hooks is for a person
        When the agent asks to run "<command>"
        Then the tool call is denied
        And the model is shown a note that "Cupcake self-protection: `cupcake sync <args>` removes or replaces Cupcake's hooks. Agents may not run it: a person must make this change"

        Examples:
            | command                                  | args                |
            | cupcake sync --uninstall                 | --uninstall         |
            | cupcake sync --scope user --uninstall    | --scope user --uninstall |
            | python3 -m cupcake sync --command true   | --command true      |

    Scenario Outline: A program Cupcake does not know, handed a policy file by name, could change it
        When the agent asks to run "<command>"
        Then the tool call is denied
        And the model is shown a note that "hands <path> to `<program>`, and Cupcake does not know whether `<program>` changes the files it is given"

        Examples:
            | command                              | path                  | program   |
            | npx tomlfmt --write cupcake.toml     | cupcake.toml          | tomlfmt   |
            | toml-sort --in-place cupcake.toml    | cupcake.toml          | toml-sort |
            | python3 fix.py .cupcake/audit.log    | .cupcake/audit.log    | python3   |

    Scenario Outline: Reading, and commands that only mention a protected path, are fine
        When the agent asks to run "<command>"
        Then the tool call is allowed with the reason "the agent is trusted"

        Examples:
            | command                                   |
            | cat cupcake.toml                          |
            | cp cupcake.toml /tmp/cupcake.toml.bak     |
            | grep -rn settings src/ > /tmp/found.txt   |
            | git commit -m 'Update the settings page'  |
            | cupcake validate                          |
            | jq . .claude/settings.json                |
            | less cupcake.toml                         |
            | cat <<EOF > notes.md\nrm cupcake.toml\nEOF |

    Scenario: The Read tool is fine
        When the agent uses Read on "cupcake.toml"
        Then the tool call is allowed with the reason "the agent is trusted"

    Scenario: It holds even when a policy file is broken
        Given the project policy:
            """
            [[policy]]
            name = "Typo"
            action = { type = "blok", feedback_message = "x" }
            """
        When the agent uses Write on "cupcake.toml"
        Then the tool call is denied
        And the model is shown a note that "Cupcake self-protection: cupcake.toml is a Cupcake policy file."
        And the user is told "out of service until fixed"

    Scenario: self_protection = false turns it off
        Given the project policy:
            """
            [settings]
            self_protection = false

            [[policy]]
            name = "Trust everything"
            action = { type = "approve", reason = "the agent is trusted" }
            """
        When the agent uses Write on "cupcake.toml"
        Then the tool call is allowed with the reason "the agent is trusted"
        When the agent asks to run "rm -rf .cupcake"
        Then the tool call is allowed with the reason "the agent is trusted"

    Scenario: Any other value than false keeps it on
        Given the project policy:
            """
            [settings]
            self_protection = "no"
            """
        When the agent uses Write on "cupcake.toml"
        Then the tool call is denied

    Scenario Outline: No tool may read the key that seals the policy cache
        When the agent uses the tool "<tool>" with:
            """
            <input>
            """
        Then the tool call is denied
        And the model is shown a note that "a secret Cupcake relies on (the key that seals its policy cache)"

        Examples:
            | tool                               | input                                                      |
            | Read                               | {"file_path": "~/.cache/cupcake/cache-secret"}             |
            | Grep                               | {"pattern": ".", "path": "~/.cache/cupcake"}               |
            | mcp__filesystem__read_file         | {"path": "~/.cache/cupcake/cache-secret"}                  |
            | mcp__filesystem__read_multiple_files | {"paths": ["notes.md", "~/.cache/cupcake/cache-secret"]} |
            | Write                              | {"file_path": "~/.cache/cupcake/cache-secret", "content": "k"} |

    Scenario Outline: No tool may read the agents' session transcripts, which hold the approval codes shown to the person
        When the agent uses the tool "<tool>" with:
            """
            <input>
            """
        Then the tool call is denied
        And the model is shown a note that "an agent's session transcripts, which hold the approval codes shown to the person"

        Examples:
            | tool                       | input                                                                |
            | Read                       | {"file_path": "~/.claude/projects/-home-dev-project/00893aaf.jsonl"} |
            | Grep                       | {"pattern": "approve", "path": "~/.factory/sessions"}                |
            | Grep                       | {"pattern": "approve", "path": "~/.claude"}                          |
            | Glob                       | {"pattern": "**/*.jsonl", "path": "~/.codex/sessions"}               |
            | mcp__filesystem__read_file | {"path": "~/.copilot/session-state/2b96429a/events.jsonl"}           |
            | Read                       | {"file_path": "~/.gemini/tmp/proj/chats/session-1.jsonl"}            |

    Scenario Outline: The agents' session transcripts cannot be read through Bash
        When the agent asks to run "<command>"
        Then the tool call is denied
        And the model is shown a note that "an agent's session transcripts, which hold the approval codes shown to the person and must stay unreadable to agents"

        Examples:
            | command                                              |
            | cat ~/.claude/projects/*/*.jsonl                     |
            | grep -r "cupcake allow" ~/.factory/sessions          |
            | grep -r "cupcake allow" ~/.claude                    |
            | tail -n 5 ~/.codex/sessions/2026/11/22/rollout.jsonl |
            | cat ~/.gemini/tmp/$PROJECT/chats/*.jsonl             |

    Scenario Outline: Work beside the transcripts goes on
        When the agent asks to run "<command>"
        Then the tool call is not denied

        Examples:
            | command                                   |
            | ls ~/.claude                              |
            | grep -rn "projects" src                   |
            | python3 -c "print('sessions', 'projects')" |
            | cat ~/.claude/CLAUDE.md                   |
