from pytest_bdd import scenarios

scenarios("run_command.feature")
