"""Where Codex keeps its own files (``$CODEX_HOME``, else ``~/.codex``), and the line of its
``config.toml`` that trusts a project: what the installer and the trust step both need (cheap to import)."""

from __future__ import annotations

import os

from cupcake.agents import hookfile


def codex_home(env) -> str:
    return (env or {}).get("CODEX_HOME") or os.path.join(hookfile.home_of(env), ".codex")


def trusted_config(config_text: str, project_dir: str) -> str:
    """``config.toml`` with ``[projects."<dir>"] trust_level = "trusted"`` (unchanged when present)."""
    quoted = '"' + project_dir.replace("\\", "\\\\").replace('"', '\\"') + '"'
    header = f"[projects.{quoted}]"
    if header in config_text:
        return config_text
    sep = "" if not config_text or config_text.endswith("\n\n") else ("\n" if config_text.endswith("\n") else "\n\n")
    return f'{config_text}{sep}{header}\ntrust_level = "trusted"\n'
