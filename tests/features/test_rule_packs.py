from pytest_bdd import scenarios

scenarios("rule_packs.feature")
