"""The cold commands' one error handler, through the installed executable in a fresh process: exit 1 for
a reported problem, 2 for usage, 3 for an unexpected error (traceback in the log, or on stderr with
CUPCAKE_DEBUG=1), 130 for Ctrl-C; never a bare traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import Installation, cupcake_executable


def run(args, cwd, env_extra=None, executable=None, **kw):
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run(
        [executable or cupcake_executable(), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, **kw
    )


def test_a_reported_problem_exits_1(tmp_path):
    (tmp_path / "cupcake.toml").write_text(
        '[[policy]]\nname = "x"\nconditions = [{ type = "command_regex", value = "(" }]\n'
    )
    done = run(["validate"], tmp_path)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr + done.stdout


def test_a_usage_error_exits_2(tmp_path):
    done = run(["validate", "--no-such-option"], tmp_path)
    assert done.returncode == 2
    assert "No such option" in done.stderr and "Traceback" not in done.stderr


def _sabotaged(tmp_path: Path) -> tuple[dict, str]:
    """(environment, executable): an installation whose `validate` command raises an error nobody
    expected (a copy of the package: the launcher ignores PYTHONPATH and sitecustomize)."""
    installation = Installation(tmp_path / "installation")
    module = installation.copy_package() / "cupcake" / "cli" / "validate.py"
    module.write_text(
        module.read_text() + "\n\ndef validate_files(*a, **k):\n    raise ZeroDivisionError('planted for the test')\n"
    )
    return {"XDG_CACHE_HOME": str(tmp_path / "cache")}, installation.executable


def test_an_unexpected_error_exits_3_with_one_line_and_the_traceback_in_the_log(tmp_path):
    env, executable = _sabotaged(tmp_path)
    done = run(["validate"], tmp_path, env, executable)
    assert done.returncode == 3, done
    assert "Traceback" not in done.stderr
    log = tmp_path / "cache" / "cupcake" / "cupcake.log"
    assert done.stderr.strip() == (
        f"cupcake: unexpected error: ZeroDivisionError: planted for the test (the traceback is in {log})"
    )
    assert "Traceback" in log.read_text() and "planted for the test" in log.read_text()
    assert oct(log.stat().st_mode & 0o777) == "0o600"


def test_cupcake_debug_shows_the_traceback(tmp_path):
    env, executable = _sabotaged(tmp_path)
    done = run(["validate"], tmp_path, {**env, "CUPCAKE_DEBUG": "1"}, executable)
    assert done.returncode == 3
    assert "Traceback (most recent call last)" in done.stderr and "ZeroDivisionError" in done.stderr
    assert not (tmp_path / "cache" / "cupcake" / "cupcake.log").exists()


def test_ctrl_c_exits_130(tmp_path):
    # `cupcake init` waits at its question for an answer: interrupt it there.
    (tmp_path / "CLAUDE.md").write_text("- never delete fixtures\n")
    proc = subprocess.Popen(
        [cupcake_executable(), "init", "--template"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err


def test_the_handler_is_not_on_the_hot_path():
    probe = "import sys, cupcake.cli.entry, cupcake.cli.run; print('cupcake.cli.errors' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "False"
