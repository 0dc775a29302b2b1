from pytest_bdd import scenarios

scenarios("claude_code_answers.feature")
