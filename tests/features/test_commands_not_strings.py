from pytest_bdd import scenarios

scenarios("commands_not_strings.feature")
