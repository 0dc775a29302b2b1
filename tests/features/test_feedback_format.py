from pytest_bdd import scenarios

scenarios("feedback_format.feature")
