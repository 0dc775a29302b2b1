"""The step vocabulary: every step says what it does, and no step text is bound twice.

A step text bound twice is silently shadowed by one of its bindings (pytest-bdd keeps one fixture per
text), so a scenario could run other code than its reader thinks.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter
from pathlib import Path

from pytest_bdd.steps import step_function_context_registry

import tests.features.steps as steps_package

HERE = Path(__file__).parent
REALCLIENT_STEPS = "tests.realclient.test_real_client"


def step_modules() -> list[str]:
    """The step modules, the feature test modules that bind steps of their own, and the real client's."""
    names = [f"{steps_package.__name__}.{m.name}" for m in pkgutil.iter_modules(steps_package.__path__)]
    for path in sorted(HERE.glob("test_*.py")):
        if "@given(" in path.read_text() or "@when(" in path.read_text() or "@then(" in path.read_text():
            names.append(f"tests.features.{path.stem}")
    return names + [REALCLIENT_STEPS]


def bound_steps() -> list[tuple[str, str, object]]:
    """(module, "given|when|then text", step function) for every step of the modules."""
    modules = {importlib.import_module(name).__name__ for name in step_modules()}
    return [
        (context.step_func.__module__, f"{context.type} {context.parser.name}", context.step_func)
        for context in list(step_function_context_registry.values())
        if context.step_func.__module__ in modules
    ]


def test_the_vocabulary_is_found():
    found = {module for module, _text, _func in bound_steps()}
    assert len(found) >= 15 and REALCLIENT_STEPS in found, found


def test_every_step_says_what_it_does():
    missing = [f"{module}: {text} ({func.__name__})" for module, text, func in bound_steps() if not func.__doc__]
    assert not missing, "steps without a docstring:\n" + "\n".join(missing)


def test_no_step_text_is_bound_twice():
    """Within one scope: the in-process features, and the real client (which has its own fixtures)."""
    for scope in (lambda m: m != REALCLIENT_STEPS, lambda m: m == REALCLIENT_STEPS):
        counts = Counter((text, id(func)) for module, text, func in bound_steps() if scope(module))
        texts = Counter(text for text, _func in counts)
        assert [text for text, n in texts.items() if n > 1] == []
