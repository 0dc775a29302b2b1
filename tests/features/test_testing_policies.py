from pytest_bdd import scenarios

scenarios("testing_policies.feature")
