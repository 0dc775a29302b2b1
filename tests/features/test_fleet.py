from pytest_bdd import scenarios

scenarios("fleet.feature")
