"""``${…}`` with an operator: defaults (``${x:-w}``, ``${x:=w}`` also assigns), alternatives,
pattern removal (``${f%.c}``), replacement, case, length, indirection (``${!x}``), subscripts and
transformations (``${x@P}`` expands a prompt: code). ``expand_param(part, ctx)`` gives (value,
tainted): a str, a ``GlobValue`` (a pattern: ``${f%.c}`` of ``for f in *.c``), or None (unknown).
A subscript, an indirection and ``@P`` evaluate text as code: ``ctx.arith``/``ctx.code`` read it."""

from __future__ import annotations

from cupcake.shell.words import ONE, STAR, GlobValue, glob_tokens, match

_NAME_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"


def expand_param(part, ctx):
    prefix, name, subscript, op, operand = part[5]
    raw = part[2]
    if subscript is not None:
        text, known, tainted = ctx.join(subscript)
        if text not in ("@", "*"):
            ctx.arith(text if known else None, tainted, raw)
        value, tainted = None, ctx.tainted(name)  # array elements are not followed
    elif prefix == "!":
        return _indirect(name, op, ctx, raw)
    else:
        value = ctx.lookup(name)
        tainted = value is None and ctx.tainted(name)
    if prefix == "#":
        return (str(len(value)) if value.__class__ is str else None), False
    if op is None:
        return value, tainted
    if op in _DEFAULTS:
        return _default(name, op, operand, value, tainted, ctx)
    if op in ("%", "%%", "#", "##"):
        return _remove(op, operand, value, tainted, ctx)
    if op in ("/", "//", "/#", "/%"):
        return _replace(op, operand, value, tainted, ctx)
    if op in ("^", "^^", ",", ",,", "~", "~~"):
        return _case(op, value), tainted
    if op == "@":
        return _transform(operand, value, tainted, name, ctx, raw)
    # ``:offset[:length]``: both are arithmetic
    text, known, op_tainted = ctx.join(operand)
    ctx.arith(text if known else None, op_tainted, raw)
    return None, tainted


_DEFAULTS = (":-", "-", ":=", "=", ":+", "+", ":?", "?")


def _default(name, op, operand, value, tainted, ctx):
    word, known, word_tainted = ctx.join(operand)
    word = word if known else None
    if value is None:  # unknown: either could come out
        if op in (":=", "="):
            ctx.assign(name, None, tainted or word_tainted)
        return None, tainted or word_tainted
    empty = value == ""
    unset = ctx.unset(name)
    if op in (":-", "-"):
        return (word, word_tainted) if (empty and op == ":-") or unset else (value, False)
    if op in (":=", "="):
        if (empty and op == ":=") or unset:
            ctx.assign(name, word, word_tainted)
            return word, word_tainted
        return value, False
    if op in (":+", "+"):
        return ("", False) if (empty and op == ":+") or unset else (word, word_tainted)
    return value, False  # :? and ?


def _remove(op, operand, value, tainted, ctx):
    pattern, known, _t = ctx.join(operand)
    if not known:
        return None, tainted
    if value.__class__ is str:
        return _strip(value, pattern, op, ctx.budget), False
    if value.__class__ is GlobValue and not any(c in pattern for c in "*?["):
        tokens = list(value.tokens)
        if op in ("%", "%%") and tokens[-len(pattern) :] == list(pattern) and pattern:
            tokens = tokens[: -len(pattern)]
        elif op in ("#", "##") and tokens[: len(pattern)] == list(pattern) and pattern:
            tokens = tokens[len(pattern) :]
        elif pattern and (tokens[-1:] in ([STAR], [ONE]) if op[0] == "%" else tokens[:1] in ([STAR], [ONE])):
            pass  # the pattern's wildcard could hold the text removed: the rest is still the pattern's
        return GlobValue(value.value, tokens or [""], value.blank), False
    return None, tainted


def _strip(value: str, pattern: str, op: str, budget):
    """``value`` without its shortest/longest prefix (``#``/``##``) or suffix (``%``/``%%``) matching
    ``pattern``; None (unknown) once the work budget is spent: each try costs the pattern's length
    times the text's (``${x%%*a*a*b}`` of a long ``x`` would take minutes)."""
    tokens = glob_tokens(pattern)
    sizes = range(len(value) + 1)
    front = op in ("#", "##")
    order = sizes if op in ("#", "%") else reversed(sizes)
    for k in order:
        if not budget.spend(10 * len(tokens) * (k + 1)):  # (a step of the matcher costs ten characters)
            return None
        if match(tokens, value[:k] if front else value[len(value) - k :]):
            return value[k:] if front else value[: len(value) - k]
    return value


def _replace(op, operand, value, tainted, ctx):
    text, known, op_tainted = ctx.join(operand)
    if value.__class__ is not str or not known:
        return None, tainted or op_tainted
    old, _slash, new = text.partition("/")
    if not old or any(c in old for c in "*?[\\"):
        return None, tainted
    if op == "//":  # the result is paid for before it is made (``${x//a/$x}`` squares a long value)
        if not ctx.budget.spend(len(value) + value.count(old) * len(new)):
            return None, tainted
        return value.replace(old, new), False
    if op == "/#":
        return (new + value[len(old) :] if value.startswith(old) else value), False
    if op == "/%":
        return (value[: -len(old)] + new if value.endswith(old) else value), False
    return value.replace(old, new, 1), False


def _case(op, value):
    if value.__class__ is not str:
        return None
    if op == "^^":
        return value.upper()
    if op == ",,":
        return value.lower()
    if op == "^":
        return value[:1].upper() + value[1:]
    if op == ",":
        return value[:1].lower() + value[1:]
    return value.swapcase() if op == "~~" else value[:1].swapcase() + value[1:]


def _transform(operand, value, tainted, name, ctx, raw):
    how, _known, _t = ctx.join(operand)
    if how == "P":  # a prompt string: its $(…) and `…` run
        if value.__class__ is str:
            ctx.code(value, raw)
        elif tainted or value is not None:
            ctx.unknown(
                f"`{raw}` expands a prompt from a value Cupcake cannot see, and a prompt can run commands",
                "write the value out, or leave the prompt expansion out",
            )
        return None, tainted
    if how == "E" and value.__class__ is str:
        from cupcake.shell.lexer import decode_ansi_c

        return decode_ansi_c(value), False
    if how in ("U", "u", "L") and value.__class__ is str:
        return {"U": value.upper(), "L": value.lower(), "u": value[:1].upper() + value[1:]}[how], False
    return None, tainted


def _indirect(name, op, ctx, raw):
    """``${!x}``: the variable named by x's value (a subscript there is evaluated: code)."""
    if op in ("*", "@"):
        return None, False  # the names of variables with that prefix
    target = ctx.lookup(name)
    if target.__class__ is str:
        base, bracket, rest = target.partition("[")
        if bracket:
            from cupcake.shell.arith import subscript

            subscript(rest.rstrip("]"), ctx, raw)
        if base and base[0] in _NAME_START and all(c.isalnum() or c == "_" for c in base):
            value = ctx.lookup(base) if not bracket else None
            return value, value is None and ctx.tainted(base)
        return None, False
    if target is None and ctx.tainted(name):
        ctx.unknown(
            f"`{raw}` reads the variable named by a value Cupcake cannot see (a subscript there runs code)",
            "name the variable directly",
        )
        return None, True
    return None, False
