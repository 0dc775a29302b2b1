from pytest_bdd import scenarios

scenarios("init.feature")
