import pytest
from pytest_bdd import scenarios

from tests.jail.conftest import need_bwrap

scenarios("os_layer.feature")


@pytest.fixture(autouse=True)
def _bubblewrap():
    need_bwrap()
