from pytest_bdd import scenarios

scenarios("agent_copilot.feature")
