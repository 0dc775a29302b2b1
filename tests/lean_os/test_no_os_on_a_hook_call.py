"""No budgeted hook call imports ``os`` (1 ms of the interpreter's 10): each of bench/bench.py's budget
scenarios, and a telemetry run, answered through the installed package's bundle in ``python -I -S`` (as
the launcher starts it), with the answer the bench checks and the standard library's modules it loaded."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, installed_package

# Run as the launcher runs it: isolated, without site, the package's folder on the path, the bundle's finder.
PROBE = """
import sys, posix
sys.path.append(sys.argv[1])
import cupcake.start
cupcake.start.install(fast=True)
from cupcake.cli.run import main
try:
    code = main(["--event", sys.argv[2]])
except SystemExit as stop:
    code = stop.code
sys.stdout.flush()
loaded = sorted(name for name in ("os", "posixpath", "stat", "_collections_abc") if name in sys.modules)
posix.write(2, ("LOADED " + " ".join(loaded) + "\\n").encode())
"""


def _bench():
    spec = importlib.util.spec_from_file_location("cupcake_bench_for_tests", REPO / "bench" / "bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


@pytest.mark.parametrize("scenario", BENCH.BUDGET_SCENARIOS, ids=lambda sc: sc.name)
def test_a_budgeted_hook_call_never_imports_os(scenario, tmp_path):
    command = ["{event}"]
    prepared = BENCH.prepare(scenario, tmp_path, command, check_output=True)
    site = str(Path(installed_package()).parent)
    payload = prepared.payload_path.read_bytes()
    for _ in range(2):  # the first run compiles the policies; the second is a warm hook call
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-c", PROBE, site, prepared.event],
            input=payload,
            capture_output=True,
            cwd=prepared.cwd,
            env=prepared.env,
            timeout=60,
        )
    loaded = [line.split()[1:] for line in done.stderr.decode().splitlines() if line.startswith("LOADED")]
    assert loaded == [[]], done.stderr.decode()[-2000:]
    assert prepared.check(done.stdout) is None, done.stdout
