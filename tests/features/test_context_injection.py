from pytest_bdd import scenarios

scenarios("context_injection.feature")
