"""Binds features/nothing_fails_silently.feature; its own steps are below (the shared ones are in conftest)."""

from pytest_bdd import scenarios

scenarios("nothing_fails_silently.feature")
