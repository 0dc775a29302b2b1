"""Trust Codex hooks the way its `/hooks` review does, through `codex app-server` (JSON-RPC over stdio).

Codex skips every non-managed hook that is not trusted, without a word. Trust is a hash of the hook
entry stored in config.toml under ``hooks.state."<source>:<event>:<group>:<index>".trusted_hash``;
``hooks/list`` reports each hook's ``currentHash`` and ``trustStatus``, ``config/batchWrite`` stores it.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from pathlib import Path
from typing import Any

TRUST_TIMEOUT = 30.0


class CodexTrustError(RuntimeError):
    pass


class _Rpc:
    def __init__(self, process: subprocess.Popen, deadline: float) -> None:
        self.process = process
        self.deadline = deadline
        self.next_id = 0
        self.buffer = b""

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def _line(self) -> bytes:
        stdout = self.process.stdout
        assert stdout is not None
        while b"\n" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise CodexTrustError("codex app-server did not answer in time")
            ready, _, _ = select.select([stdout], [], [], left)
            if ready:
                chunk = os.read(stdout.fileno(), 65536)
                if not chunk:
                    raise CodexTrustError("codex app-server closed its output")
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def call(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:  # notifications and server requests in between are skipped
            message = json.loads(self._line() or b"{}")
            if message.get("id") == self.next_id and "method" not in message:
                if "error" in message:
                    raise CodexTrustError(f"{method}: {message['error']}")
                return message.get("result")


def list_hooks(rpc: _Rpc, cwd: Path) -> list[dict[str, Any]]:
    result = rpc.call("hooks/list", {"cwds": [str(cwd)]})
    hooks = []
    for entry in result.get("data", []):
        if entry.get("errors"):
            raise CodexTrustError(f"codex could not load hooks: {entry['errors']}")
        hooks += entry.get("hooks", [])
    return hooks


def trust_all_hooks(codex: Path, project: Path, env: dict[str, str]) -> list[str]:
    """Trust every untrusted or modified hook Codex finds for ``project``; returns the keys trusted."""
    process = subprocess.Popen(
        [str(codex), "app-server"],
        cwd=project,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        rpc = _Rpc(process, time.monotonic() + TRUST_TIMEOUT)
        rpc.call(
            "initialize", {"clientInfo": {"name": "cupcake-tests", "title": None, "version": "0"}, "capabilities": None}
        )
        rpc.send({"method": "initialized"})
        pending = {
            h["key"]: h["currentHash"]
            for h in list_hooks(rpc, project)
            if h.get("trustStatus") in ("untrusted", "modified")
        }
        if pending:
            state = {key: {"trusted_hash": digest} for key, digest in pending.items()}
            edit = {"keyPath": "hooks.state", "value": state, "mergeStrategy": "upsert"}
            rpc.call("config/batchWrite", {"edits": [edit]})
            still = [h["key"] for h in list_hooks(rpc, project) if h.get("trustStatus") in ("untrusted", "modified")]
            if still:
                raise CodexTrustError(f"hooks still untrusted after config/batchWrite: {still}")
        return sorted(pending)
    finally:
        process.kill()
        process.wait()
