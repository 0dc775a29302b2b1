from pytest_bdd import scenarios

scenarios("agent_cursor.feature")
