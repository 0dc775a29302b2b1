from pytest_bdd import scenarios

scenarios("validate.feature")
