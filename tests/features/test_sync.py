from pytest_bdd import scenarios

scenarios("sync.feature")
