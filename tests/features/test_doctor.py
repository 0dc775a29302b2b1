from pytest_bdd import scenarios

scenarios("doctor.feature")
