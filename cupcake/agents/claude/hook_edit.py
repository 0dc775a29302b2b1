"""Putting Cupcake's hook entries into a settings document, and taking them out again.

Only Cupcake's own handlers are touched: every other key, hook and matcher group keeps its text.
An entry already as wanted is left alone (syncing twice changes nothing); an older Cupcake's entry
is replaced where it stands; extra copies are removed, with the groups and lists that held nothing else.
"""

from __future__ import annotations

from cupcake.agents.claude import hook_entries as entries
from cupcake.agents.jsonedit import Document, New, Node


class ShapeError(ValueError):
    """The settings hold something where Cupcake must edit that it cannot edit safely."""


class Found:
    """One Cupcake handler: the event it is listed under, its matcher group, and the handler itself."""

    __slots__ = ("event", "event_member", "group", "hooks", "handler", "value", "matcher")

    def __init__(self, event, event_member, group, hooks, handler, value, matcher):
        self.event = event
        self.event_member = event_member
        self.group = group
        self.hooks = hooks
        self.handler = handler
        self.value = value
        self.matcher = matcher

    @property
    def matches_all(self) -> bool:
        return self.matcher is None or self.matcher in entries.MATCH_ALL


def _only(node: Node, key: str, doc: Document, where: str):
    found = node.find(key)
    if len(found) > 1:
        lines = ", ".join(str(doc.line_of(m.key_start)) for m in found)
        raise ShapeError(f'{where}"{key}" appears {len(found)} times (lines {lines}); keep one, then run this again')
    return found[0] if found else None


def hooks_object(doc: Document):
    """The ``hooks`` object's member, or None; ShapeError when it is not an object."""
    member = _only(doc.root, "hooks", doc, "")
    if member is not None and member.value.kind != "object":
        raise ShapeError(
            f'"hooks" (line {doc.line_of(member.key_start)}) is not an object; Cupcake leaves the file as it is'
        )
    return member


def find_cupcake(doc: Document, also=(), events=None) -> list[Found]:
    """Every Cupcake handler in the document, in file order (only under ``events`` when given)."""
    member = hooks_object(doc)
    if member is None:
        return []
    found = []
    for event_member in member.value.members:
        if events is not None and event_member.key not in events:
            continue
        if event_member.value.kind != "array":
            continue
        for group in event_member.value.items:
            if group.kind != "object":
                continue
            hooks = group.find("hooks")
            if len(hooks) != 1 or hooks[0].value.kind != "array":
                continue
            matchers = group.find("matcher")
            matcher = doc.value(matchers[-1].value) if matchers else None
            for handler in hooks[0].value.items:
                if handler.kind != "object":
                    continue
                value = doc.value(handler)
                if entries.is_cupcake(value.get("command"), also):
                    found.append(Found(event_member.key, event_member, group, hooks[0].value, handler, value, matcher))
    return found


def apply_sync(doc: Document, wanted: dict, also=()) -> None:
    """Plan the edits that leave exactly one Cupcake handler per event in ``wanted`` (event -> handler)."""
    if doc.root.kind != "object":
        raise ShapeError("the top level is not a JSON object")
    member = hooks_object(doc)
    if member is None:
        doc.rewrite(doc.root, doc.root.members + [New("hooks", {e: [entries.group(e, h)] for e, h in wanted.items()})])
        return
    hooks = member.value
    found = find_cupcake(doc, also, wanted)
    added = []
    for event, handler in wanted.items():
        event_member = _only(hooks, event, doc, '"hooks": ')
        if event_member is None:
            added.append(New(event, [entries.group(event, handler)]))
            continue
        if event_member.value.kind != "array":
            line = doc.line_of(event_member.key_start)
            raise ShapeError(f'"hooks": "{event}" (line {line}) is not a list; Cupcake leaves the file as it is')
        mine = [f for f in found if f.event_member is event_member]
        keep = next((f for f in mine if f.matches_all), None)
        if keep is not None and not _same(keep.value, handler):
            doc.replace(keep.handler, handler)
        _remove(doc, event_member.value, [f for f in mine if f is not keep], add=None if keep else handler, event=event)
    if added:
        doc.rewrite(hooks, hooks.members + added)


def apply_uninstall(doc: Document, also=()) -> None:
    """Plan the edits that remove every Cupcake handler, and the containers left empty by that."""
    if doc.root.kind != "object":
        raise ShapeError("the top level is not a JSON object")
    found = find_cupcake(doc, also)
    if not found:
        return
    hooks = hooks_object(doc).value
    emptied = []
    for event_member in _unique(f.event_member for f in found):
        mine = [f for f in found if f.event_member is event_member]
        if not _remove(doc, event_member.value, mine, add=None, event=event_member.key):
            emptied.append(event_member)
    if emptied:
        left = [m for m in hooks.members if m not in emptied]
        if left:
            doc.rewrite(hooks, left)
        else:
            doc.rewrite(doc.root, [m for m in doc.root.members if m.value is not hooks])


def _remove(doc: Document, groups: Node, gone: list[Found], add, event: str) -> bool:
    """Drop the ``gone`` handlers from an event's list of groups (and groups left with no handler),
    then append a new group for ``add``. Returns whether the list still holds anything."""
    if not gone and add is None:
        return True
    dropped = []
    for hooks in _unique(f.hooks for f in gone):
        left = [h for h in hooks.items if all(h is not f.handler for f in gone)]
        if left:
            doc.rewrite(hooks, left)
        else:
            dropped.append(next(f.group for f in gone if f.hooks is hooks))
    kept = [g for g in groups.items if all(g is not d for d in dropped)]
    new = [New(None, entries.group(event, add))] if add is not None else []
    if dropped or new:
        if not kept and not new:
            return False
        doc.rewrite(groups, kept + new)
    return True


def _unique(items):
    seen, out = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


def _same(a, b) -> bool:
    """JSON equality that tells 1 from 1.0 and from true."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b
