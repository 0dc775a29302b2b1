from pytest_bdd import scenarios

scenarios("eval_feedback.feature")
