from pytest_bdd import scenarios

scenarios("self_protection.feature")
