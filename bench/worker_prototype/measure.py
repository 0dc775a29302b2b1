"""THROWAWAY PROTOTYPE: what the worker gives, measured as the bench measures (whole process of what
the agent starts, against the same venv's `python -c pass`, interleaved, medians; CPU from wait4).

    python bench/worker_prototype/measure.py VENV RUNS

Scenario 21's project (50 policies + cupcake:recommended, `ls -la`) and scenario 23's deny; the client
is `sh -c 'socat ...'` (what a hook command line would run: the agent starts a shell) and, for the
fork variant, the same. Prints a table; the numbers go into docs/persistent-worker.md."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench  # noqa: E402


def run(argv, stdin, cwd, env):
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.chdir(cwd)
        fd = os.open(stdin, os.O_RDONLY)
        os.dup2(fd, 0)
        out = os.open(
            os.path.join(tempfile.gettempdir(), f"wp-out-{os.getppid()}"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        )
        os.dup2(out, 1)
        os.execve(argv[0], argv, env)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    with open(os.path.join(tempfile.gettempdir(), f"wp-out-{os.getpid()}"), "rb") as f:
        output = f.read()
    return wall * 1000, (ru.ru_utime + ru.ru_stime) * 1000, output


def main() -> int:
    venv, runs = Path(sys.argv[1]).absolute(), int(sys.argv[2])
    tmp = Path(tempfile.mkdtemp(prefix="worker-proto-"))
    bench.Launcher.start(tmp)
    cmd = [str(venv / "bin" / "cupcake"), "run", "--event", "{event}"]
    rows = []
    servers = []
    for key in ("21", "23"):
        p = bench.prepare(bench.find_scenario(key), tmp, cmd, True)
        p.run()
        framed = p.scratch / "framed"
        framed.write_bytes(b"PreToolUse\n" + p.payload_path.read_bytes())
        for mode in ("inproc", "fork"):
            sock = str(tmp / f"s-{key}-{mode}" / "cupcake.sock")
            proc = subprocess.Popen(
                [str(venv / "bin" / "python"), str(Path(__file__).with_name("server.py")), sock]
                + (["--fork"] if mode == "fork" else []),
                cwd=p.cwd,
                env=p.env,
            )
            servers.append(proc)
            for _ in range(200):
                if os.path.exists(sock):
                    break
                time.sleep(0.05)
            client = ["/bin/sh", "-c", f"exec socat -t5 - UNIX-CONNECT:{sock}"]
            rows.append((f"{key} worker ({mode}), socat client", client, str(framed), p))
        rows.append((f"{key} cupcake run (a process per call)", p.argv, str(p.payload_path), p))
    bench.Launcher.close()
    base = [str(venv / "bin" / "python"), "-c", "pass"]
    results = {label: ([], []) for label, *_ in rows}
    results["python -c pass"] = ([], [])
    for _ in range(runs):
        w, c, _ = run(base, "/dev/null", str(tmp), os.environ.copy())
        results["python -c pass"][0].append(w)
        results["python -c pass"][1].append(c)
        for label, argv, stdin, p in rows:
            w, c, out = run(argv, stdin, str(p.cwd), p.env)
            deny = b'"permissionDecision":"deny"' in out
            if deny != label.startswith("23") or (not deny and out.strip()):
                raise SystemExit(f"{label}: not the answer the scenario gives: {out[:200]!r}")
            results[label][0].append(w)
            results[label][1].append(c)
    for proc in servers:
        proc.kill()
    bw = statistics.median(results["python -c pass"][0])
    bc = statistics.median(results["python -c pass"][1])
    print(f"load {os.getloadavg()[0]:.1f}, {runs} interleaved runs; medians (x python -c pass)")
    for label, (wall, cpu) in results.items():
        w, c = statistics.median(wall), statistics.median(cpu)
        print(f"{label:<44} wall {w:6.2f} ms ({w / bw:4.2f}x)  client cpu {c:6.2f} ms ({c / bc:4.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
