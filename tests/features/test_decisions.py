from pytest_bdd import scenarios

scenarios("decisions.feature")
