from pytest_bdd import scenarios

scenarios("shadow_runs.feature")
