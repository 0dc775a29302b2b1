"""The regexes of one run: each pattern compiled at most once, from the SRE program the policy cache
holds for it (``cupcake.speedups``), so a warm run imports no ``re``. One object per run, on the
context (``ctx.patterns``): no module keeps a run's state."""

from __future__ import annotations

from cupcake.speedups import compile_pattern


class Patterns:
    __slots__ = ("forms", "compiled", "scripts")

    def __init__(self, forms: dict | None = None) -> None:
        self.forms = forms or {}  # pattern -> its SRE program, from the compiled policy set
        self.compiled: dict = {}
        self.scripts: dict = {}  # (command, cwd, home) -> its reading by cupcake.shell

    def parsed(self, command: str, cwd: str | None, home: str | None, env: dict):
        """The Bash ``command`` read by ``cupcake.shell``: once per run, whoever asks (the ``command``
        condition, self-protection, the evaluator's gate). ``env``: the variables known to the agent's
        shell (its project-directory variables), the same for the whole run."""
        key = (command, cwd, home)
        script = self.scripts.get(key)
        if script is None:
            from cupcake.shell import parse

            script = self.scripts[key] = parse(command, cwd, home, env)
        return script

    def regex(self, pattern: str):
        """The compiled pattern."""
        rx = self.compiled.get(pattern)
        if rx is None:
            rx = self.compiled[pattern] = compile_pattern(pattern, self.forms)
        return rx

    def search(self, pattern: str, literals: tuple, text) -> bool:
        """``re.search``, after checking the literals every match needs, and the tuples of literals one
        of which it needs (``compile.literals.required_pieces``): a pattern that cannot match is never
        compiled."""
        if not isinstance(text, str) or not _holds(literals, text):
            return False
        return self.regex(pattern).search(text) is not None

    def match(self, pattern: str, literals: tuple, text: str) -> bool:
        """``re.match``, after the same check of the literals as ``search``."""
        return _holds(literals, text) and self.regex(pattern).match(text) is not None


def _holds(literals: tuple, text: str) -> bool:
    """Whether ``text`` holds every literal, and one of each tuple of literals; after a leading None
    (a pattern that ignores case), in the text folded as ``(?i)`` sees it."""
    if literals and literals[0] is None:
        text = folded(text)
    for literal in literals:
        if literal is None:
            continue
        if literal.__class__ is tuple:
            for one in literal:
                if one in text:
                    break
            else:
                return False
        elif literal not in text:
            return False
    return True


# The characters other than ASCII letters that (?i) matches to an ASCII letter (Python's re: the
# dotted and dotless I, the long s, the Kelvin sign; tests/evaluate/test_secret_scan.py asks re about
# every character). Lower-casing alone misses the last three, and turns İ into two characters.
_FOLDS = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"), ("\u212a", "k"))
_folded: dict = {}  # id(text) -> (text, folded): the conditions of a run fold the same few texts


def folded(text: str) -> str:
    """``text`` lower-cased as ``(?i)`` sees its ASCII letters, one character for one: a literal of
    lower-case ASCII a case-insensitive pattern matches there occurs here at the same place."""
    seen = _folded.get(id(text))
    if seen is not None and seen[0] is text:
        return seen[1]
    out = text
    if not text.isascii():
        for odd, letter in _FOLDS:
            if odd in out:
                out = out.replace(odd, letter)
    out = out.lower()
    if len(_folded) > 4:
        _folded.clear()
    _folded[id(text)] = (text, out)
    return out


def of(ctx) -> Patterns:
    """The run's patterns (made on first use from the loaded policy set's SRE programs)."""
    patterns = ctx.patterns
    if patterns is None:
        policies = ctx.policies if isinstance(ctx.policies, dict) else {}
        patterns = ctx.patterns = Patterns(policies.get("sre"))
    return patterns
