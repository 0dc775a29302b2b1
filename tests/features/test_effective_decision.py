from pytest_bdd import scenarios

scenarios("effective_decision.feature")
