from pytest_bdd import scenarios

scenarios("custom_stages.feature")
