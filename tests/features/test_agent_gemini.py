from pytest_bdd import scenarios

scenarios("agent_gemini.feature")
