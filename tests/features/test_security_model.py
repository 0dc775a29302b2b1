import os

from pytest_bdd import given, parsers, scenarios

scenarios("security_model.feature")


@given(parsers.parse("the user policy file is {kind}"))
def user_policy_file_is(project, kind):
    path = project.home / ".claude" / "cupcake.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "a directory":
        path.mkdir()
    elif kind == "a FIFO":
        os.mkfifo(path)
    else:
        raise AssertionError(kind)
