from pytest_bdd import scenarios

scenarios("fail_closed.feature")
