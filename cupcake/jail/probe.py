"""Whether Cupcake's jail can start here, and why not: ``true`` run through the very command a hook
answer would give, in this project (cold: ``sync --sandbox`` before it turns the layer on, ``doctor``)."""

from __future__ import annotations

import os
import subprocess
import time

from cupcake.jail import launch

TIMEOUT = 20


class Probe:
    __slots__ = ("ok", "cause", "fix", "seconds")

    def __init__(self, ok: bool, cause: str = "", fix: str = "", seconds: float = 0.0):
        self.ok = ok
        self.cause = cause
        self.fix = fix
        self.seconds = seconds


def protected_set(root: str, env) -> dict:
    """The protected set as the hook would compute it (the compiled policies', else the defaults)."""
    try:
        from cupcake.stores.policies.loader import load

        loaded = load(root, env, use_cache=False)
        compiled = loaded.compiled if loaded is not None else None
        found = compiled.get("protected") if isinstance(compiled, dict) else None
        if found:
            return found
    except Exception:  # a probe must answer: the defaults are what a failed load protects
        pass
    from cupcake.protection.protected_set import protected_defaults

    return protected_defaults(root, env)


def check(root: str, env, agent: str = "", shell: str = "bash", unshare_net: bool = False) -> Probe:
    """Run ``true`` in the jail from ``root``, as an agent's shell would."""
    import sys

    if not (sys.platform.startswith("linux") or sys.platform == "darwin"):
        return Probe(False, f"Cupcake's jail runs on Linux and macOS, not on {sys.platform}", "use the hook layer only")
    from cupcake.jail import decide, runtime

    if sys.platform.startswith("linux") and not os.path.isfile(runtime.bwrap()):
        return Probe(
            False,
            f"bubblewrap is not installed (looked for {', '.join(runtime.BWRAP_PLACES)})",
            launch.INSTALL_BWRAP,
        )
    try:
        line = decide.jailed_command(
            "true",
            root=root,
            env=env,
            protected=protected_set(root, env),
            shell=shell,
            agent=agent,
            unshare_net=unshare_net,
        )
    except decide.Unjailable as exc:
        return Probe(False, str(exc), "run `cupcake doctor`")
    started = time.monotonic()
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", line], cwd=root, env=dict(env), capture_output=True, text=True, timeout=TIMEOUT
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Probe(False, f"the jail did not answer ({exc})", "run `cupcake jail -- true` to see why")
    seconds = time.monotonic() - started
    if done.returncode == 0:
        return Probe(True, seconds=seconds)
    marker = "the command was not run: "
    text = done.stderr
    if marker in text:
        said = text[text.index(marker) + len(marker) :]
        cause, _, rest = said.partition(". Fix: ")
        fix = rest.split(". Cupcake's OS layer never runs", 1)[0]
        return Probe(False, cause.strip(), fix.strip(), seconds)
    return Probe(False, f"`true` in the jail exited {done.returncode}: {text.strip()[-300:]}", "run `cupcake doctor`")
