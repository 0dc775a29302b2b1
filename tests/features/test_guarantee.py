from pytest_bdd import scenarios

scenarios("guarantee.feature")
