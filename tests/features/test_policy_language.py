from pytest_bdd import scenarios

scenarios("policy_language.feature")
