"""The managed tier: how the organisation's policy file (``/etc/cupcake/cupcake.toml``) combines with the
project's and the user's, so that no project or user file can remove or weaken what it enforces (cold path).

Its policies come first in the one ordered list, so the first hard action of pass 2 is one of its own
before any project's or user's; a project policy with the same name is the one put out of service. What
else a project or user file could use against it, and what happens instead, while a managed file exists:

| mechanism | while a managed file is in force |
|---|---|
| ``[settings]`` the managed file sets | final for every key; the other files may only make them stricter |
| ``fail_mode``, ``audit_logging``, ``audit_allows``, ``self_protection`` | the strictest of the managed value (or the default) and the others' |
| ``stop_block_limit``, ``audit_max_bytes``, ``audit_keep``, ``state_ttl_days`` | the largest: a shorter limit would lift a managed Stop block sooner, drop audit lines or forget the state a managed condition reads |
| ``hook_timeout_seconds`` | the managed file's (or the default): the managed hook's own timeout, which ``sync --scope managed`` writes |
| ``[settings.eval_feedback]`` | the managed file's when it has one |
| ``approvals = "ask"`` (a block made the agent's question) | ignored; and a block by a managed rule takes no person's code unless the managed file sets ``approvals`` |
| ``[pipeline.systems] name = false`` | only the managed file may turn a built-in system off |
| ``[packs] disable`` and ``[packs.messages]`` | apply to the packs the same tier imports, never to a rule the managed file took in |
| ``[telemetry]`` | the managed file's keys win, even over the ``OTEL_*`` variables (``cupcake.telemetry.config``) |
| an approve, ask or ``agents = [...]`` in a project policy | come after every managed policy in the list |

A value a project or user file sets that does not hold is reported (``validate``, warnings), never silently
applied. Without a managed file nothing here changes anything: the project and user files combine as they
always have (``cupcake.evaluate.settings.merge``).
"""

from __future__ import annotations

from cupcake.evaluate.settings import DEFAULTS, merge
from cupcake.problems import WARNING, Problem


def _flag(value) -> bool:
    return isinstance(value, bool)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


# ``approvals``, from the strictest: no code at all, a code a person uses, the block made a question.
_APPROVALS = ("ask", "code", "off")

# key -> (is the value usable, the stricter of two values)
STRICTER: dict[str, tuple] = {
    "approvals": (lambda v: v in _APPROVALS, lambda a, b: max(a, b, key=_APPROVALS.index)),
    "fail_mode": (lambda v: v in ("open", "closed"), lambda a, b: "closed" if "closed" in (a, b) else "open"),
    "audit_logging": (_flag, lambda a, b: a or b),
    "audit_allows": (_flag, lambda a, b: a or b),
    "self_protection": (_flag, lambda a, b: a or b),
    "stop_block_limit": (_number, max),
    "audit_max_bytes": (_number, max),
    "audit_keep": (_number, max),
    "state_ttl_days": (_number, max),
}
MANAGED_ONLY = ("hook_timeout_seconds", "eval_feedback")
WHY = {
    "fail_mode": "a failure would let a call through that the organisation's file would block",
    "audit_logging": "the organisation's file keeps an audit trail",
    "audit_allows": "the organisation's file records every call",
    "audit_max_bytes": "a smaller trail would drop what the organisation's file keeps",
    "audit_keep": "fewer rotations would drop what the organisation's file keeps",
    "state_ttl_days": "a shorter time would forget the session state a managed condition reads",
    "stop_block_limit": "a lower limit would lift a managed Stop block sooner",
    "approvals": "it would let a person or the agent's own question through a block more easily",
    "self_protection": "switched off, an agent could uninstall Cupcake and with it the organisation's rules",
    "hook_timeout_seconds": "the managed hooks run with the managed file's timeout",
    "eval_feedback": "the managed file has its own [settings.eval_feedback]",
}


def _line(source, key: str):
    return source.lines.table_key("settings", key) or source.lines.top_key("settings")


def merge_settings(by_tier: dict, problems: list) -> dict:
    """The run's settings from each tier's source (``{"managed"|"project"|"user": source}``, the raw
    ``[settings]`` tables read before validation); reports what a managed file does not let stand."""
    from cupcake.evaluate.settings import raw_settings

    raw = {tier: raw_settings(source.table) if source is not None else {} for tier, source in by_tier.items()}
    managed_source = by_tier.get("managed")
    if managed_source is None:
        return merge(raw.get("project", {}), raw.get("user", {}))
    managed = raw["managed"]
    merged = merge(raw.get("project", {}), raw.get("user", {}))
    merged.update(managed)
    where = managed_source.name

    def ignored(tier: str, key: str, value, kept) -> None:
        source = by_tier[tier]
        why = WHY.get(key, "it would weaken what the organisation's file enforces")
        what, held = (
            (f"`{key}` = {value!r}", f"; {kept!r} applies") if key != "eval_feedback" else (f"[settings.{key}]", "")
        )
        problems.append(
            Problem(
                WARNING,
                source.name,
                _line(source, key),
                None,
                f"settings: {what} is ignored while the managed policy file {where} is in force ({why}){held}",
            )
        )

    for key, (usable, stricter) in STRICTER.items():
        value = managed[key] if key in managed and usable(managed[key]) else DEFAULTS[key]
        for tier in ("project", "user"):
            given = raw.get(tier, {}).get(key)
            if given is None or not usable(given):
                continue
            tighter = stricter(value, given)
            if tighter == value and given != value:
                ignored(tier, key, given, value)
            value = tighter
        merged[key] = value
    for key in MANAGED_ONLY:
        if key not in managed and key not in DEFAULTS:
            continue  # the managed file says nothing, and there is no default to hold: the others apply
        value = managed.get(key, DEFAULTS.get(key))
        for tier in ("project", "user"):
            given = raw.get(tier, {}).get(key)
            if given is not None and given != value:
                ignored(tier, key, given, value)
        merged[key] = value
    # A block by one of the managed file's own rules: a person's code (`cupcake allow`) or the agent's own
    # question opens it only when the managed file says so (approvals = "code" or "ask").
    given = managed.get("approvals")
    merged["managed_approvals"] = given if given in _APPROVALS else "off"
    return merged


def systems_allowed(entries: list, tier_of_file: dict, managed_name: str | None, problems: list) -> list:
    """``[pipeline.systems]`` entries; while a managed file is in force, a project's or user's
    ``name = false`` (a built-in turned off) is left out and reported."""
    if managed_name is None:
        return entries
    kept = []
    for entry in entries:
        name, value, file, line = entry
        if value is False and tier_of_file.get(file) != "managed":
            problems.append(
                Problem(
                    WARNING,
                    file,
                    line,
                    None,
                    f'[pipeline.systems] "{name}" = false is ignored while the managed policy file {managed_name} '
                    "is in force: only it may turn a built-in system off",
                )
            )
            continue
        kept.append(entry)
    return kept
