Feature: Custom stages from integrators
    A hook event flows through numbered systems. A security team adds a secret scanner, a platform
    team ships every decision to its own log store, without forking Cupcake: they write a system
    (subclass cupcake.BaseSystem), ship it under the entry-point group "cupcake.systems", and a
    project enables it by name, at an order, in [pipeline.systems]. Installing a package enables
    nothing. A custom system may add feedback, context or a stricter decision; it can never loosen
    what the policies decided, and once the answer is sealed (700) it may only add warnings. If it
    raises, runs too long or breaks those rules, its changes are undone, the user is told, and
    [settings] fail_mode decides whether the operation proceeds; a block always stands.

    Scenario: The built-in systems and their order
        Then the built-in systems, in cupcake/pipeline/order.py and in docs/custom-stages.md, are:
            | order | system               | core | what it does                                       |
            | 100   | input_parse          | yes  | reads the hook event                               |
            | 200   | policy_load          | yes  | loads the policies (from the cache when valid)     |
            | 300   | state_load           | no   | loads the session's state                          |
            | 400   | feedback_collection  | yes  | pass 1: every soft message and context             |
            | 500   | hard_action_scan     | yes  | pass 2: the first hard action                      |
            | 600   | response_preparation | yes  | turns both passes into one answer                  |
            | 700   | feedback_guarantee   | yes  | makes sure an answer exists, then seals it         |
            | 800   | response_routing     | yes  | renders the answer for the agent                   |
            | 900   | state_write          | no   | records the session's tool use; runs the side effects |
            | 950   | shadow_evaluation    | no   | the shadow candidate and observed policies (when set) |
            | 1000  | audit_write          | no   | the audit trail                                    |
            | 1100  | telemetry_spool      | no   | the decision, spooled for an OpenTelemetry backend |

    Scenario: A stage enabled by its entry point blocks what no policy covers
        Given the integrator package "acme-cupcake" is installed
        And the project policy:
            """
            [pipeline.systems]
            acme-secrets = 450

            [[policy]]
            name = "Style"
            matcher = "Write"
            action = { type = "provide_feedback", message = "Keep lines under 100 characters" }
            """
        When the agent asks to write "deploy.py" with:
            """
            AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE"
            """
        Then the tool call is denied with:
            """
            Operation blocked: An AWS access key id (AKIA…MPLE) must never be written into the repository: read it from the environment instead.

            Additional policy feedback:
            • Keep lines under 100 characters
            """

    Scenario: The same stage, through the cupcake command Claude Code runs
        Given the integrator package "acme-cupcake" is installed
        And the project policy:
            """
            [pipeline.systems]
            acme-secrets = 450
            """
        When the agent asks, through the cupcake command, to write "deploy.py" with:
            """
            key = "AKIAIOSFODNN7EXAMPLE"
            """
        Then the tool call is denied with:
            """
            Operation blocked: An AWS access key id (AKIA…MPLE) must never be written into the repository: read it from the environment instead.
            """

    Scenario: Installed but not named, a stage never runs
        Given the integrator package "acme-cupcake" is installed
        And the project policy:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        When the agent asks to write "deploy.py" with:
            """
            key = "AKIAIOSFODNN7EXAMPLE"
            """
        Then the tool call is let through
        And no module of "acme_cupcake" was loaded

    Scenario: A sink enabled by its import path records every answer
        Given the integrator package "acme-cupcake" is installed
        And the project policy:
            """
            [pipeline.systems]
            "acme_cupcake.decision_log:DecisionLog" = 850

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        When the agent asks to run "sudo reboot"
        And the agent asks to run "ls"
        Then the tool call is let through
        And ".cupcake/acme-decisions.jsonl" holds the decisions:
            | event      | tool | decision | by      | reason                     |
            | PreToolUse | Bash | block    | No sudo | Operation blocked: No sudo |
            | PreToolUse | Bash | none     |         |                            |

    Scenario: A stage written in the project's own module, by import path
        Given the integrator module "house_rules.py":
            """
            from cupcake import BaseSystem, Decision


            class NoFridayDeploys(BaseSystem):
                def should_process(self, ctx):
                    return ctx.payload.get("tool_name") == "Bash"

                def process(self, ctx):
                    if "deploy" in ctx.payload["tool_input"].get("command", ""):
                        ctx.decide(Decision.ASK, "Deploys need a person's yes", by=self.name)
            """
        And the project policy:
            """
            [pipeline.systems]
            "house_rules:NoFridayDeploys" = 450
            """
        When the agent asks to run "make deploy"
        Then the person is asked with the reason "Deploys need a person's yes"

    Scenario: Two systems on one order are refused
        Given the project policy:
            """
            [pipeline.systems]
            acme-secrets = 500
            """
        When the agent asks to run "ls"
        Then the answer is only a note to the user saying "cupcake.toml:2: [pipeline.systems] \"acme-secrets\" = 500: order 500 is taken by the built-in hard_action_scan; two systems never share an order: give it a free number such as 550"

    Scenario: Two custom systems on one order, in the two files, are refused
        Given the user policy:
            """
            [pipeline.systems]
            "my_stages:Timer" = 450
            """
        And the project policy:
            """
            [pipeline.systems]
            acme-secrets = 450
            """
        When the agent asks to run "ls"
        Then the answer is only a note to the user saying "~/.claude/cupcake.toml:2: [pipeline.systems] \"my_stages:Timer\" = 450: order 450 is taken by \"acme-secrets\" (cupcake.toml:2)"

    Scenario Outline: Core systems cannot be turned off; others can
        Given the project policy:
            """
            [pipeline.systems]
            <system> = false
            """
        When the agent asks to run "ls"
        Then the answer is only a note to the user saying "<message>"

        Examples:
            | system             | message                                                                                                                    |
            | hard_action_scan   | cupcake.toml:2: [pipeline.systems] \"hard_action_scan\" = false: \"hard_action_scan\" is a core system                    |
            | feedback_guarantee | cupcake.toml:2: [pipeline.systems] \"feedback_guarantee\" = false: \"feedback_guarantee\" is a core system                |
            | audit_writ         | cupcake.toml:2: [pipeline.systems] \"audit_writ\" = false: false turns a built-in system off, and there is no built-in system \"audit_writ\" (did you mean \"audit_write\"?) |

    Scenario: A custom system cannot run before the policies are loaded
        Given the project policy:
            """
            [pipeline.systems]
            acme-secrets = 150
            """
        When the agent asks to run "ls"
        Then the answer is only a note to the user saying "custom systems run after the policies are loaded (200), which is where [pipeline.systems] is read; give it an order above 200"

    Scenario Outline: A named entry point that is not installed
        Given the project policy:
            """
            [settings]
            fail_mode = "<fail_mode>"

            [pipeline.systems]
            acme-secrets = 450
            """
        When the agent asks to run "ls"
        Then the answer is <answer> saying "custom system \"acme-secrets\" (cupcake.toml:5) could not be loaded: no installed distribution has an entry point \"acme-secrets\" in the group \"cupcake.systems\""

        Examples:
            | fail_mode | answer                  |
            | open      | only a note to the user |
            | closed    | a denial                |

    Scenario Outline: A stage that raises: fail_mode decides, and the policies' block stands
        Given the integrator module "flaky_scanner.py":
            """
            from cupcake import BaseSystem


            class Scanner(BaseSystem):
                def process(self, ctx):
                    ctx.add_feedback("half a finding")
                    raise ConnectionError("scanner backend unreachable")
            """
        And the project policy:
            """
            [settings]
            fail_mode = "<fail_mode>"
            audit_logging = true

            [pipeline.systems]
            "flaky_scanner:Scanner" = 450

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        When the agent asks to run "ls"
        Then the answer is <answer> saying "flaky_scanner:Scanner failed: ConnectionError: scanner backend unreachable"
        And no stack trace is shown
        When the agent asks to run "sudo ls"
        Then the tool call is denied with:
            """
            Operation blocked: No sudo
            """
        And the user is told "Cupcake: flaky_scanner:Scanner failed: ConnectionError: scanner backend unreachable"
        And the last audit record says:
            | field    | value                                                                                                                                    |
            | decision | "block"                                                                                                                                  |
            | failures | [{"system": "flaky_scanner:Scanner", "message": "flaky_scanner:Scanner failed: ConnectionError: scanner backend unreachable", "decides": true, "custom": true}] |

        Examples:
            | fail_mode | answer                  |
            | open      | only a note to the user |
            | closed    | a denial                |

    Scenario Outline: A stage after the hard-action scan cannot turn a block into an allow
        Given the integrator module "loosener.py":
            """
            from cupcake import BaseSystem, Decision, Response


            class Loosen(BaseSystem):
                def process(self, ctx):
                    <change>
            """
        And the project policy:
            """
            [pipeline.systems]
            "loosener:Loosen" = <order>

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        When the agent asks to run "sudo rm -rf /var/lib"
        Then the tool call is denied with:
            """
            Operation blocked: No sudo
            """
        And the user is told "Cupcake: loosener:Loosen: <what>; its changes were undone"

        Examples:
            | order | change                                     | what                                                                              |
            | 550   | ctx.hard = None                            | tried to loosen the decision: it removed the block by \"No sudo\"                 |
            | 550   | ctx.hard = ("approve", "fine", "me")       | tried to loosen the decision: it replaced the block by \"No sudo\" with approve by \"me\" |
            | 650   | ctx.response = Response(Decision.NONE)     | tried to change the prepared answer; a block stands                               |
            | 750   | ctx.response.decision = Decision.APPROVE   | changed the answer after it was sealed (700)                                      |
            | 850   | ctx.add_feedback("never mind")             | added to ctx.soft after the answer was sealed (700); only warnings may be added   |

    Scenario: A stricter decision from a stage stands over a policy's approve
        Given the integrator module "strict.py":
            """
            from cupcake import BaseSystem, Decision


            class AskFirst(BaseSystem):
                def process(self, ctx):
                    ctx.decide(Decision.ASK, "A person looks at every push", by=self.name)
            """
        And the project policy:
            """
            [pipeline.systems]
            "strict:AskFirst" = 550

            [[policy]]
            name = "Trusted git"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^git " }]
            action = { type = "approve", reason = "git is fine" }
            """
        When the agent asks to run "git push"
        Then the person is asked with the reason "A person looks at every push"

    Scenario: A stage that returns something other than None is contained
        Given the integrator module "confused.py":
            """
            from cupcake import BaseSystem


            class ReturnsBlock(BaseSystem):
                def process(self, ctx):
                    return "block"
            """
        And the project policy:
            """
            [pipeline.systems]
            "confused:ReturnsBlock" = 450
            """
        When the agent asks to run "ls"
        Then the answer is only a note to the user saying "confused:ReturnsBlock: process returned 'block'; a system changes the context (ctx.decide, ctx.add_feedback, ctx.warn) and returns None"

    Scenario: A stage that runs past the deadline is stopped, and the answer still comes
        Given the integrator module "slow_scanner.py":
            """
            import time

            from cupcake import BaseSystem


            class Slow(BaseSystem):
                def process(self, ctx):
                    while True:
                        try:
                            time.sleep(30)
                        except Exception:
                            pass  # swallows the first interruption: it is interrupted again
            """
        And the project policy:
            """
            [settings]
            fail_mode = "closed"
            hook_timeout_seconds = 6

            [pipeline.systems]
            "slow_scanner:Slow" = 450
            """
        When the agent asks to run "ls"
        Then the answer is a denial saying "slow_scanner:Slow: ran past the run's deadline"
        And the answer came within 3 seconds

    Scenario: A stage that will not stop at all: the command answers and exits
        Given the integrator module "stuck.py":
            """
            import time

            from cupcake import BaseSystem


            class Stuck(BaseSystem):
                def process(self, ctx):
                    while True:
                        try:
                            time.sleep(30)
                        except BaseException:
                            pass
            """
        And the project policy:
            """
            [settings]
            fail_mode = "closed"
            hook_timeout_seconds = 6

            [pipeline.systems]
            "stuck:Stuck" = 550

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        When the agent asks, through the cupcake command, to run "ls"
        Then the answer is a denial saying "stuck:Stuck: ran past the run's deadline and would not stop"
        And the answer came within 4 seconds

    Scenario: What a stage prints never mixes with the answer
        Given the integrator module "chatty.py":
            """
            import os

            from cupcake import BaseSystem


            class Chatty(BaseSystem):
                def process(self, ctx):
                    print("scanning...")
                    os.write(1, b"raw bytes on fd 1\n")
            """
        And the project policy:
            """
            [pipeline.systems]
            "chatty:Chatty" = 450

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        When the agent asks, through the cupcake command, to run "sudo ls"
        Then the tool call is denied with:
            """
            Operation blocked: No sudo
            """
        And stderr holds "scanning..."

    Scenario: cupcake systems lists the resolved plan
        Given the integrator package "acme-cupcake" is installed
        And the project policy:
            """
            [pipeline.systems]
            acme-secrets = 450
            audit_write = false
            """
        When the user runs "cupcake systems"
        Then the exit code is 0
        And the output is:
            """
            order  system                from                enabled  configured in
              100  input_parse           built-in, core      yes
              200  policy_load           built-in, core      yes
              300  state_load            built-in            yes
              400  feedback_collection   built-in, core      yes
              450  acme-secrets          acme-cupcake 0.1.0  yes      cupcake.toml:2
              500  hard_action_scan      built-in, core      yes
              600  response_preparation  built-in, core      yes
              700  feedback_guarantee    built-in, core      yes
              800  response_routing      built-in, core      yes
              900  state_write           built-in            yes
             1000  audit_write           built-in            no       cupcake.toml:3
             1100  telemetry_spool       built-in            yes

            Installed, not enabled (name one in [pipeline.systems] to run it):
              acme-decision-log  acme-cupcake 0.1.0
            """

    Scenario: cupcake systems --json, with an import path and a system that cannot be loaded
        Given the integrator package "acme-cupcake" is installed
        And the project policy:
            """
            [pipeline.systems]
            "acme_cupcake.decision_log:DecisionLog" = 850
            acme-secrest = 450
            """
        When the user runs "cupcake systems --json"
        Then the exit code is 1
        And the JSON lists the custom systems:
            | order | name                                  | from        | distribution | version | enabled | configured_in  |
            | 450   | acme-secrest                          | entry point |              |         | no      | cupcake.toml:3 |
            | 850   | acme_cupcake.decision_log:DecisionLog | import path | acme-cupcake | 0.1.0   | yes     | cupcake.toml:2 |
        And the JSON reports the problem "custom system \"acme-secrest\" could not be loaded: no installed distribution has an entry point \"acme-secrest\" in the group \"cupcake.systems\""
