"""Arithmetic is code: in ``$((…))``, ``((…))``, ``$[…]``, ``let``, ``[[ x -eq y ]]``, array
subscripts, ``${x:off}``, ``declare -i`` assignments and the names ``printf -v``/``read``/``test -v``
take, bash evaluates every variable a name refers to as an expression in turn, and expands each
subscript (``a[$(cmd)]``) — running its command substitutions. ``check(text, ctx, tainted)`` walks
the command substitutions such text would run and records as unknown a value that comes from data
the reader cannot see (a file, a program's output) when it is evaluated: that is where code hides.
"""

from __future__ import annotations

_NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_NAME = _NAME_START + "0123456789"
_DEPTH = 8


def check(text, ctx, tainted: bool, raw: str, depth: int = 0) -> None:
    """``text``: the expression as bash evaluates it (None when it is not known); ``tainted``: it
    holds output or input the reader cannot see; ``raw``: how it was written (for the message)."""
    if text is None:
        if tainted:
            _refuse(ctx, raw)
        return
    if depth > _DEPTH:
        _refuse(ctx, raw)
        return
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isdigit():  # 10, 0x1f, 2#101, 64#_@
            while i < n and (text[i] in _NAME or text[i] == "#" or text[i] == "@"):
                i += 1
            continue
        if ch == "$" or ch == "`":  # text of a value: only a subscript expands it
            i += 1
            continue
        if ch in _NAME_START:
            j = i
            while j < n and text[j] in _NAME:
                j += 1
            name = text[i:j]
            if j < n and text[j] == "[":
                end = _close(text, j)
                _subscript(text[j + 1 : end], ctx, raw, depth)
                j = end + 1
            else:
                _name(name, ctx, raw, depth)
            i = j
            continue
        i += 1


def _close(text: str, j: int) -> int:
    depth = 0
    for k in range(j, len(text)):
        if text[k] == "[":
            depth += 1
        elif text[k] == "]":
            depth -= 1
            if depth == 0:
                return k
    return len(text)


def subscript(inner: str, ctx, raw: str) -> None:
    """The subscript of a name a builtin takes (``read 'a[…]'``): expanded, then evaluated."""
    _subscript(inner, ctx, raw, 0)


def _subscript(inner: str, ctx, raw: str, depth: int) -> None:
    """A subscript is expanded like a double-quoted word (its ``$(…)`` run), then evaluated."""
    if "$" in inner or "`" in inner:
        inner = ctx.code(inner, raw)
        if inner is None:
            return
    check(inner, ctx, False, raw, depth + 1)


def _name(name: str, ctx, raw: str, depth: int) -> None:
    value = ctx.lookup(name)
    if value.__class__ is str:
        if any(c in value for c in "[$`") or any(c in _NAME_START for c in value):
            check(value, ctx, False, raw, depth + 1)
    elif value is not None:  # a pattern (a file name from a glob): any text a name may hold
        _refuse(ctx, raw)
    elif ctx.tainted(name):
        _refuse(ctx, raw)


def _refuse(ctx, raw: str) -> None:
    ctx.unknown(
        f"`{raw}` evaluates as arithmetic a value Cupcake cannot see, and a subscript there can run commands",
        "compute with values written in the command, or compare them as strings",
    )
