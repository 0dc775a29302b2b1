"""The fake context of tests/fakes.py."""

from __future__ import annotations

import pytest

from tests.fakes import Fakes


@pytest.fixture
def fakes(tmp_path) -> Fakes:
    return Fakes(tmp_path)
