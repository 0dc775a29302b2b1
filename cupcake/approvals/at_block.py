"""What a run does when a policy blocks a tool call (imported only then).

- ``use_grant``: a person's grant for this exact call and this rule lets it through; ``approve_used``,
  after the scan, uses a "once" grant up (only when the call goes ahead) and notes every use for the
  audit trail, which records it even with audit logging off.
- ``offer``: otherwise, a fresh code for the person, sent only in the agent's user-only channel
  (``Response.private``); the store keeps its keyed hash. An agent without such a channel gets no
  code (``[settings] approvals = "ask"`` turns such a block into the agent's own question instead).

Nothing here can loosen a decision by failing: a store that cannot be read means no grant, and a code
that cannot be stored is not shown."""

from __future__ import annotations

import time

from cupcake import lean_os as os
from cupcake.approvals import NOTES, STORE_NAME
from cupcake.project import WORK_DIR

# The store and the codes are imported only once a grant may exist or a code is offered: a block in a
# project where no person ever approved anything pays one stat.

CODE_SECONDS = 15 * 60
BY = "cupcake allow"  # how the decision is named where a policy name would be
SCOPES = ("once", "until", "always")


def mode_of(ctx, rule=None) -> str:
    """``[settings] approvals`` for a block by ``rule``; for a rule of the organisation's managed file,
    what that file says (off unless it says code or ask: see ``cupcake.compile.tiers``)."""
    policies = ctx.policies if isinstance(ctx.policies, dict) else {}
    if rule is not None and rule in (policies.get("managed_rules") or ()):
        mode = ctx.settings.get("managed_approvals", "off")
    else:
        mode = ctx.settings.get("approvals")
    return mode if mode in ("code", "ask", "off") else "code"


def has_channel(ctx) -> bool:
    return bool(getattr(ctx.agent, "USER_CHANNEL", None))


def as_ask(ctx, rule=None) -> bool:
    """``approvals = "ask"`` on an agent with no user-only channel that can ask: the block becomes the
    agent's own question to the person."""
    return (
        mode_of(ctx, rule) == "ask"
        and ctx.event == "PreToolUse"
        and not has_channel(ctx)
        and ctx.agent.action_supported("ask", ctx.event)
    )


def key_of(env):
    from cupcake.stores.user_secret import secret

    found = secret(env)
    if not found:
        return None
    from cupcake.approvals.codes import approval_key

    return approval_key(found)


def _call(ctx) -> str:
    from cupcake.approvals.codes import fingerprint

    event = ctx.incoming
    return fingerprint(ctx.root, event.name, event.tool, event.cwd, event.tool_input)


def _notes(ctx) -> list:
    return ctx.ext.setdefault(NOTES, {"notes": []})["notes"]


def use_grant(ctx, rule: str, text: str) -> bool:
    """Whether a person's grant lets this exact call through ``rule`` (whose block says ``text``). A
    "once" grant is used up only when the call goes ahead (``approve_used``)."""
    if ctx.event != "PreToolUse" or ctx.incoming is None or ctx.root is None:
        return False
    if mode_of(ctx, rule) == "off" and rule in ((ctx.policies or {}).get("managed_rules") or ()):
        return False  # the organisation's rule, which its file does not let a person open
    if not os.path.isfile(os.path.join(ctx.root, WORK_DIR, STORE_NAME)):
        return False
    key = key_of(ctx.env)
    if key is None:
        return False
    from cupcake import speedups
    from cupcake.approvals import files  # not the store: a read needs no lock (see files)
    from cupcake.approvals.codes import live, trusted

    try:
        files.folder(ctx.root, create=False)  # never through a link
        data = files.read_store(ctx.root)
    except (OSError, files.StoreError) as exc:
        ctx.warn(f"Cupcake: the approvals could not be read, so the block stands: {exc}")
        return False
    try:
        value = speedups.json_loads(data) if data.strip() else {}
    except ValueError:
        return False  # not the store Cupcake writes: no grant
    grants = value.get("grants") if isinstance(value, dict) else None
    if not isinstance(grants, list):
        return False
    call, now = _call(ctx), time.time()
    for grant in grants:
        if (
            isinstance(grant, dict)
            and grant.get("call") == call
            and grant.get("rule") == rule
            and grant.get("scope") in SCOPES
            and live(grant, now)
            and trusted(key, grant, "grants")  # last: a MAC, for the one grant that would be used
        ):
            ctx.ext.setdefault(NOTES, {"notes": []}).setdefault("skipped", []).append((rule, text, grant))
            return True
    return False


def approve_used(ctx) -> None:
    """After the scan. When another policy blocked anyway, no grant is used. Otherwise each "once" grant
    is used up (under the store's lock: of two identical calls at once, one gets it and the other is
    blocked as before), the call is approved (the person answered for it), and every use is noted."""
    found = ctx.ext.get(NOTES, {})
    skipped = found.get("skipped") or ()
    if not skipped or (ctx.hard is not None and ctx.hard.kind == "block"):
        return
    once = [grant for _rule, _text, grant in skipped if grant.get("scope") == "once"]
    gone = set()
    if once:
        from cupcake.approvals import store

        try:
            with store.Locked(ctx.root, key_of(ctx.env), create=False) as held:
                present = {g.get("id") for g in held.data["grants"]}
                gone = {g.get("id") for g in once if g.get("id") not in present}
                ids = {g.get("id") for g in once}
                held.data["grants"] = [g for g in held.data["grants"] if g.get("id") not in ids]
                held.save()
        except (OSError, store.StoreError) as exc:
            gone = {g.get("id") for g in once}
            ctx.warn(f"Cupcake: a person's approval could not be used, so the block stands: {exc}")
    for rule, text, grant in skipped:
        if grant.get("id") in gone:
            ctx.decide("block", text, rule)
            return
    for rule, _text, grant in skipped:
        what = {"once": "once", "until": "until " + _stamp(grant.get("until")), "always": "always"}
        found["notes"].append(
            f"used a person's approval ({what.get(grant.get('scope'), '?')}) of {rule} for this call: "
            f"granted by {grant.get('by')} at {_stamp(grant.get('at'))} (id {grant.get('id')})"
            + (f", reason: {grant['reason']}" if grant.get("reason") else "")
        )
    found["used"] = True
    if ctx.hard is None:
        ctx.decide("approve", "Allowed by a person's approval (cupcake allow).", BY)


def tell_used(ctx) -> None:
    """The person is told (and only the person) that their approval let this call through."""
    notes = ctx.ext.get(NOTES, {})
    if notes.get("used") and ctx.response is not None and has_channel(ctx):
        ctx.response.private = "Cupcake: " + notes["notes"][-1].replace(
            "used a person's approval", "let through by your approval", 1
        )


def offer(ctx) -> None:
    """A code for the person, for the block ``ctx.hard`` (by a policy, on a tool call)."""
    if mode_of(ctx, ctx.hard.by) == "off" or not has_channel(ctx) or ctx.response is None or ctx.incoming is None:
        return
    rule = ctx.hard.by
    key = key_of(ctx.env)
    if key is None:
        return  # no per-user secret yet (`cupcake sync` makes it): no code can be kept safely; doctor says so
    from cupcake.approvals import files  # not the store: an offer is one line appended
    from cupcake.approvals.codes import code_hash, new_code, shown
    from cupcake.stores.audit import mask  # not the audit record: the call's summary is all an offer needs

    mask.use_forms(ctx.policies.get("sre") if isinstance(ctx.policies, dict) else None)
    event = ctx.incoming
    now = time.time()
    code = new_code()
    entry = {
        "id": os.urandom(3).hex(),
        "code": code_hash(key, code),
        "call": _call(ctx),
        "rule": rule,
        "event": event.name,
        "tool": event.tool,
        "input": mask.summarize_input(event),
        "agent": event.agent,
        "session": event.session_id[: mask.SESSION_CHARS] if isinstance(event.session_id, str) else None,
        "created": now,
        "expires": now + CODE_SECONDS,
    }
    try:
        if not files.add_offer(ctx.root, key, entry):  # what it carries is checked on use
            from cupcake.approvals import store

            store.fold_offer(ctx.root, key, entry)  # the offers file is full (the cold path)
    except (OSError, files.StoreError) as exc:
        from cupcake.stores.workdir import standing

        if not (isinstance(exc, OSError) and standing(ctx)):  # an unwritable .cupcake/ is told once, not here
            ctx.warn(f"Cupcake: no approval code could be offered: {exc}")
        return
    _notes(ctx).append(f"offered an approval code for {rule} (id {entry['id']}, valid {CODE_SECONDS // 60} min)")
    ctx.response.private = (
        f"Cupcake: {rule} blocked this call. If it should go ahead, run this in your own terminal "
        f"(not through the agent):\n  cupcake allow {shown(code)}\n"
        'It lets this exact call through once; add --for 1h for a while, or --always --reason "…". '
        f"The code expires in {CODE_SECONDS // 60} minutes."
    )


def _stamp(seconds) -> str:
    if not isinstance(seconds, (int, float)):
        return "?"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))
