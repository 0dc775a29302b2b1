"""One adapter per agent: its payload in (``parse``), its answer out (``render``), what it can honour
(``capabilities``) and its settings files. Nothing outside this package knows an agent's field names.

The registry maps the names ``cupcake run --agent NAME`` takes to adapter modules, imported on first use."""

from __future__ import annotations

DEFAULT = "claude"

# name -> the module of its adapter (NAME, DISPLAY_NAME, ANSWER_CAP, capabilities, parse, render).
ADAPTERS = {
    "claude": "cupcake.agents.claude.adapter",
}


class UnknownAgent(ValueError):
    """``--agent`` named no adapter."""


def adapter(name: str = DEFAULT):
    """The adapter module for ``name``."""
    module = ADAPTERS.get(name)
    if module is None:
        known = ", ".join(sorted(ADAPTERS))
        raise UnknownAgent(f"unknown agent {name!r} (known: {known})")
    return __import__(module, fromlist=("parse",))


def names() -> tuple[str, ...]:
    return tuple(ADAPTERS)


def project_dir_in(env) -> str | None:
    """The project directory an agent names in the environment (a command run from inside the agent), or None."""
    return adapter(DEFAULT).project_dir(env)
