"""Real OpenTelemetry receivers for the telemetry tests: rotel (an OTLP collector that prints what it
receives) and MLflow's tracking server (a store with a query API).

They are big (MLflow ≈ 850 MB), so they live in a venv of their own in the shared test cache
(``~/.cache/cupcake-tests/otlp-receivers-…``), never in the test venv. ``.ci/run`` installs them first
(``python -m tests.telemetry.receivers install``), so the install is timed on its own and no test waits
for it; a test on a developer's machine installs them on first use, or is skipped when that cannot be.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.realclient.claude_client import install_lock

ROTEL = "rotel==0.0.1a15"  # only pre-releases exist
MLFLOW = "mlflow==3.17.2"


class ReceiverUnavailable(Exception):
    """The receivers cannot be installed or started here."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cupcake-tests" / f"otlp-receivers-{ROTEL.split('==')[1]}-{MLFLOW.split('==')[1]}"


def _python(venv: Path) -> Path:
    return venv / "bin" / "python"


def _installed(venv: Path) -> bool:
    marker = venv / "installed"
    return marker.exists() and marker.read_text() == f"{ROTEL} {MLFLOW}\n"


def ensure_receivers(venv: Path | None = None) -> Path:
    """The receivers' venv, installed on first use (under a lock: test workers share the cache)."""
    venv = venv or cache_dir() / "venv"
    with install_lock(venv):
        if _installed(venv):
            return venv
        commands = [
            [sys.executable, "-m", "venv", "--clear", str(venv)],
            [str(_python(venv)), "-m", "pip", "install", "--quiet", "--pre", ROTEL, MLFLOW],
        ]
        for command in commands:
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=1200)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise ReceiverUnavailable(f"`{shlex.join(command)}` failed: {exc}") from None
            if done.returncode != 0:
                raise ReceiverUnavailable(f"`{shlex.join(command)}` exited {done.returncode}:\n{done.stderr[-2000:]}")
        (venv / "installed").write_text(f"{ROTEL} {MLFLOW}\n")
    return venv


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until(ready, timeout: float, what: str, log: Path) -> None:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        if ready():
            return
        time.sleep(0.2)
    raise ReceiverUnavailable(f"{what} was not ready after {timeout:g} s; its output:\n{log.read_text()[-3000:]}")


def _listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
        return True
    return False


class Receiver:
    """One receiver process that can be stopped and started again on the same port."""

    name = "receiver"
    startup_seconds = 60.0

    def __init__(self, venv: Path, workdir: Path):
        self.venv = venv
        self.workdir = workdir
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        raise NotImplementedError

    def env(self) -> dict:
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.workdir)}

    def ready(self) -> bool:
        return _listening(self.port)

    def log(self, n: int | None = None) -> Path:
        return self.workdir / f"{self.name}.{self.starts if n is None else n}.log"

    def start(self):
        self.starts += 1
        with open(self.log(), "wb") as out:
            self.process = subprocess.Popen(  # a group of its own: the server's workers stop with it
                self.command(),
                stdout=out,
                stderr=subprocess.STDOUT,
                env=self.env(),
                cwd=self.workdir,
                start_new_session=True,
            )
        _wait_until(self.ready, self.startup_seconds, self.name, self.log())
        return self

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        give_up = time.monotonic() + 15
        while _listening(self.port) and time.monotonic() < give_up:
            time.sleep(0.1)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class Rotel(Receiver):
    """rotel, an OTLP collector: with --debug-log it prints every span and log record it receives."""

    name = "rotel"
    startup_seconds = 30.0

    def command(self) -> list[str]:
        site = subprocess.run(
            [str(_python(self.venv)), "-c", "import rotel, os; print(os.path.dirname(rotel.__file__))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return [
            os.path.join(site, "rotel-agent"),
            "start",
            "--otlp-http-endpoint",
            f"127.0.0.1:{self.port}",
            "--otlp-grpc-endpoint",
            f"127.0.0.1:{free_port()}",
            "--exporter",
            "blackhole",
            "--debug-log",
            "traces",
            "--debug-log",
            "logs",
            "--debug-log-verbosity",
            "detailed",
        ]

    def printed(self) -> str:
        """Everything rotel printed, over every start."""
        return "".join(self.log(n).read_text(errors="replace") for n in range(1, self.starts + 1))


class MLflow(Receiver):
    """MLflow's tracking server: takes OTLP spans at /v1/traces into SQLite, answers queries."""

    name = "mlflow"
    startup_seconds = 120.0

    def command(self) -> list[str]:
        return [
            str(self.venv / "bin" / "mlflow"),
            "server",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            "1",
            "--backend-store-uri",
            f"sqlite:///{self.workdir / 'mlflow.db'}",
            "--default-artifact-root",
            str(self.workdir / "artifacts"),
        ]

    def env(self) -> dict:
        return {**super().env(), "MLFLOW_DISABLE_TELEMETRY": "true"}

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/health", timeout=2) as answer:
                return answer.status == 200
        except OSError:
            return False

    def trace_count(self) -> int:
        """How many traces experiment 0 holds (one per decision), through the REST API: cheap to poll."""
        url = f"{self.url}/api/2.0/mlflow/traces?experiment_ids=0&max_results=500"
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                return len(json.loads(answer.read()).get("traces", []))
        except OSError:
            return 0

    def spans(self) -> list[dict]:
        """Every span of experiment 0 ("Default"), through MLflow's own client."""
        script = (
            "import json, mlflow\n"
            f"mlflow.set_tracking_uri({self.url!r})\n"
            "out = []\n"
            "for t in mlflow.search_traces(locations=['0'], return_type='list'):\n"
            "    for s in t.data.spans:\n"
            "        out.append({'trace': t.info.trace_id, 'span': s.span_id, 'name': s.name, 'attributes': s.attributes})\n"
            "print(json.dumps(out))\n"
        )
        done = subprocess.run(
            [str(_python(self.venv)), "-c", script],
            capture_output=True,
            text=True,
            timeout=120,
            env={**self.env(), "MLFLOW_TRACKING_URI": self.url},
        )
        if done.returncode != 0:
            raise AssertionError(f"querying MLflow failed:\n{done.stderr[-3000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])


def rotel_spans(printed: str) -> list[dict]:
    """The spans rotel printed: each one's ID and its string attributes."""
    spans: list[dict] = []
    current: dict | None = None
    section = None
    for line in printed.splitlines():
        stripped = line.strip()
        if stripped.startswith("Span #"):
            current = {"attributes": {}, "events": 0}
            spans.append(current)
            section = "span"
        elif stripped.startswith(("ResourceSpans #", "ResourceLog #", "LogRecord #")):
            current, section = None, None
        elif current is not None and stripped.startswith("ID ") and ":" in stripped:
            current["id"] = stripped.split(":", 1)[1].strip()
        elif current is not None and stripped.startswith("Trace ID") and ":" in stripped:
            current["trace"] = stripped.split(":", 1)[1].strip()
        elif current is not None and stripped == "Events:":
            section = "events"
        elif current is not None and stripped.startswith("SpanEvent #"):
            current["events"] += 1
        elif current is not None and section == "span" and stripped.startswith("-> ") and ": " in stripped:
            key, _, value = stripped[3:].partition(": ")
            if value.startswith("Str(") and value.endswith(")"):
                current["attributes"][key] = value[4:-1]
            elif value.startswith("Int(") and value.endswith(")"):
                current["attributes"][key] = int(value[4:-1])
    return spans


def rotel_log_records(printed: str) -> int:
    return sum(1 for line in printed.splitlines() if line.strip().startswith("LogRecord #"))


def main(argv: list[str]) -> int:
    if argv != ["install"]:
        print("usage: python -m tests.telemetry.receivers install")
        return 2
    started = time.monotonic()
    venv = ensure_receivers()
    print(f"OTLP receivers ({ROTEL}, {MLFLOW}) in {venv}: ready after {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
