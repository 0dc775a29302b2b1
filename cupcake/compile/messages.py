"""pydantic's validation errors, said in plain English and in TOML's words (cold path only).

``Input should be a valid dictionary`` becomes ``must be a table, not a string ("x")``; the one
error per member that a union of types produces (``int``, ``float``) becomes one message."""

from __future__ import annotations

from cupcake.problems import suggestion

_EXPECTED = {
    "string_type": "a string",
    "int_type": "a number",
    "float_type": "a number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "list_type": "an array",
    "dict_type": "a table",
    "model_type": "a table",
    "model_attributes_type": "a table",
    "none_required": "absent",
}
_BOUNDS = {  # error type: (words, the context key holding the limit)
    "greater_than_equal": ("at least", "ge"),
    "greater_than": ("more than", "gt"),
    "less_than_equal": ("at most", "le"),
    "less_than": ("less than", "lt"),
}
# The last part of a location that names a member of a union, not a key.
_UNION_MEMBERS = frozenset(
    {"str", "int", "float", "bool", "none", "list", "dict", "constrained-int", "constrained-float"}
)


def toml_type(value) -> str:
    """What a value is, in TOML's words, with the value itself when it is short."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f'a string ("{shown}")'
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return "a date or time" if hasattr(value, "isoformat") else type(value).__name__


def _join(words) -> str:
    words = list(dict.fromkeys(words))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def explain(errors, known=()):
    """(location, message) for each distinct problem in pydantic's ``errors()`` list, in order.

    ``location`` is the tuple of keys (union member tags removed); ``known`` are the keys the
    table accepts, used to suggest one for an unknown key."""
    merged: dict = {}
    for err in errors:
        loc = tuple(err["loc"])
        if len(loc) > 1 and loc[-1] in _UNION_MEMBERS:
            loc = loc[:-1]
        merged.setdefault(loc, []).append(err)
    out = []
    for loc, errs in merged.items():
        out.append((loc, _say(loc, errs, known)))
    return out


def _say(loc, errs, known) -> str:
    name = ".".join(str(part) for part in loc)
    # A union (an integer or a float): when one member took the value but found it out of range,
    # that is the problem, not the other member's type.
    first = next((e for e in errs if e["type"] in _BOUNDS), errs[0])
    kind = first["type"]
    if kind == "missing":
        return f"missing required key `{name}`"
    if kind == "extra_forbidden":
        return f"unknown key `{name}`{suggestion(str(loc[-1]), known)}"
    got = toml_type(first.get("input"))
    if kind == "literal_error":
        expected = first.get("ctx", {}).get("expected", "")
        return f"`{name}` must be {expected.replace(chr(39), chr(34))}, not {got}"
    bound = _BOUNDS.get(kind)
    if bound:
        limit = first.get("ctx", {}).get(bound[1])
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)
        return f"`{name}` must be {bound[0]} {limit}, not {first.get('input')!r}"
    wanted = [_EXPECTED.get(e["type"]) for e in errs]
    if all(wanted):
        return f"`{name}` must be {_join(wanted)}, not {got}"
    return f"`{name}`: {first['msg'][0].lower()}{first['msg'][1:]}"
