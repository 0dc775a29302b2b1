from pytest_bdd import scenarios

scenarios("session_state.feature")
