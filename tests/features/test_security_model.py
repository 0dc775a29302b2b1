from pytest_bdd import scenarios

scenarios("security_model.feature")
