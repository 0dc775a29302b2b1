from pytest_bdd import scenarios

scenarios("approvals.feature")
