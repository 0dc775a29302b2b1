from pytest_bdd import scenarios

scenarios("audit_trail.feature")
