"""Settings: defaults, and how the project and user files combine."""

from __future__ import annotations

DEFAULTS = {
    "fail_mode": "open",
    "hook_timeout_seconds": 600,
    "audit_logging": False,
    "audit_allows": False,
    "audit_max_bytes": 10 * 1024 * 1024,
    "audit_keep": 5,
    "self_protection": True,
    "state_ttl_days": 7,
    "stop_block_limit": 5,
    "approvals": "code",  # a blocked call gets a code a person can use to let it through (cupcake.approvals)
}

# Seconds kept in hand below the hook timeout, so one run never outlives it.
DEADLINE_MARGIN = 5


def merge(project: dict, user: dict) -> dict:
    """Per key the project file wins, except that ``fail_mode`` is "closed" if either file says so
    and ``audit_logging`` is on if either file says so."""
    merged = dict(DEFAULTS)
    merged.update(user)
    merged.update(project)
    if "closed" in (project.get("fail_mode"), user.get("fail_mode")):
        merged["fail_mode"] = "closed"
    if project.get("audit_logging") is True or user.get("audit_logging") is True:
        merged["audit_logging"] = True
    return merged


def raw_settings(table) -> dict:
    """The ``[settings]`` table of a parsed file, taken as is (before validation), so that
    ``fail_mode`` is known even when a policy in the same file is broken."""
    settings = table.get("settings") if isinstance(table, dict) else None
    return settings if isinstance(settings, dict) else {}


def fail_mode_of(settings: dict) -> str:
    return "closed" if settings.get("fail_mode") == "closed" else "open"


def run_seconds(settings: dict) -> float:
    timeout = settings.get("hook_timeout_seconds", DEFAULTS["hook_timeout_seconds"])
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
        timeout = DEFAULTS["hook_timeout_seconds"]
    return max(1.0, float(timeout) - DEADLINE_MARGIN)
