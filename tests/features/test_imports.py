from pytest_bdd import scenarios

scenarios("imports.feature")
