"""Trusting Cupcake's Codex hooks, as Codex's own ``/hooks`` review does (``cupcake sync --agent codex --trust``).

Codex skips, without a word, every hook that is not trusted by hash, and it reads a project's
``.codex/`` only when the project is trusted. Both live in ``$CODEX_HOME/config.toml``:
``[projects."<dir>"] trust_level = "trusted"`` and ``[hooks.state."<file>:<event>:<group>:<index>"]
trusted_hash = "sha256:…"``. The hash covers the hook entry, so a changed command must be trusted
again. Codex computes it: ``codex app-server`` (JSON-RPC, one object per line on stdio) answers
``hooks/list`` with each hook's ``currentHash`` and ``trustStatus``, and ``config/batchWrite`` stores
it. Only Cupcake's own hooks are trusted here; another tool's hooks stay for the user to review.

Cold path (``cupcake sync``): ``json`` and ``subprocess`` are fine here.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import time

from cupcake.agents.codex.home import codex_home, trusted_config

TIMEOUT = 30.0
HOW = (
    "Codex runs only hooks it trusts, and a project's hooks only in a trusted project: run "
    "`cupcake sync --agent codex --trust` (asks Codex itself, through `codex app-server`, to trust Cupcake's "
    "hooks and this project), or review them in Codex with /hooks. A changed hook command needs trusting again."
)


class TrustError(Exception):
    """Codex could not be asked, or would not trust the hooks."""


def codex_executable(env) -> str:
    found = shutil.which("codex", path=(env or {}).get("PATH") or os.defpath)
    if not found:
        raise TrustError("`codex` is not on PATH")
    return found


def trust_project(project_dir: str, env) -> bool:
    """Mark ``project_dir`` trusted in ``$CODEX_HOME/config.toml`` (every other byte kept); True when changed."""
    from cupcake.agents.settings_file import replace

    path = os.path.join(codex_home(env), "config.toml")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise TrustError(f"cannot read {path}: {exc}") from None
    new = trusted_config(text, project_dir)
    if new == text:
        return False
    replace(path, new.encode("utf-8"))
    return True


class _Rpc:
    """Requests to ``codex app-server`` and their answers, within one deadline."""

    def __init__(self, process, deadline: float):
        self.process = process
        self.deadline = deadline
        self.last = 0
        self.pending = b""

    def notify(self, method: str, params=None) -> None:
        message = {"method": method} if params is None else {"method": method, "params": params}
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params):
        self.last += 1
        message = {"id": self.last, "method": method, "params": params}
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()
        while True:
            answer = self._message()
            if answer.get("id") == self.last and "method" not in answer:  # not a request of the server's
                if "error" in answer:
                    raise TrustError(f"codex app-server: {method}: {answer['error']}")
                return answer.get("result") or {}

    def _message(self) -> dict:
        while b"\n" not in self.pending:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TrustError(f"codex app-server did not answer within {TIMEOUT:.0f} s")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise TrustError("codex app-server stopped")
                self.pending += chunk
                if len(self.pending) > 64 << 20:
                    raise TrustError("codex app-server said too much")
        line, self.pending = self.pending.split(b"\n", 1)
        try:
            message = json.loads(line or b"{}")
        except ValueError:
            return {}
        return message if isinstance(message, dict) else {}


def _hooks(rpc: _Rpc, cwd: str) -> list:
    found: list[dict] = []
    for entry in rpc.request("hooks/list", {"cwds": [cwd]}).get("data", []):
        if entry.get("errors"):
            raise TrustError(f"Codex could not load the hooks: {entry['errors']}")
        found.extend(h for h in entry.get("hooks", []) if isinstance(h, dict))
    return found


def _ours(hook: dict) -> bool:
    from cupcake.agents.hook_command import is_cupcake

    return hook.get("handlerType", "command") == "command" and is_cupcake(hook.get("command"), "codex")


def trust(project_dir: str, env, project: bool = True) -> list:
    """Trust Cupcake's Codex hooks that apply in ``project_dir`` (and, with ``project``, the project
    itself); returns the hook keys newly trusted. TrustError when Codex cannot be asked or refuses."""
    if project:
        trust_project(project_dir, env)
    codex = codex_executable(env)
    environment = dict(env)
    environment.setdefault("CODEX_HOME", codex_home(env))
    try:
        process = subprocess.Popen(
            [codex, "app-server"],
            cwd=project_dir,
            env=environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as exc:
        raise TrustError(f"cannot start codex: {exc.strerror or exc}") from None
    try:
        rpc = _Rpc(process, time.monotonic() + TIMEOUT)
        client = {"name": "cupcake", "title": "Cupcake", "version": _version()}
        rpc.request("initialize", {"clientInfo": client, "capabilities": None})
        rpc.notify("initialized")
        untrusted = {
            h["key"]: h["currentHash"]
            for h in _hooks(rpc, project_dir)
            if _ours(h) and h.get("trustStatus") in ("untrusted", "modified") and h.get("key") and h.get("currentHash")
        }
        if untrusted:
            edit = {
                "keyPath": "hooks.state",
                "value": {key: {"trusted_hash": digest} for key, digest in untrusted.items()},
                "mergeStrategy": "upsert",
            }
            rpc.request("config/batchWrite", {"edits": [edit]})
            left = [h["key"] for h in _hooks(rpc, project_dir) if _ours(h) and h.get("trustStatus") != "trusted"]
            if left:
                raise TrustError(f"Codex still does not trust: {', '.join(left)}")
        return sorted(untrusted)
    finally:
        process.kill()
        process.wait()


def _version() -> str:
    from cupcake import __version__

    return __version__
