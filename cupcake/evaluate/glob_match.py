"""Matching a glob's compiled shape on a warm run (``cupcake.compile.glob_shapes`` says what a shape is):
a plain one by string comparisons, without compiling anything; any other by its regex, compiled only
when the text holds the literals every match needs. The answer is always ``re.match(pattern, text)``'s
(``tests/evaluate/test_glob_shapes.py`` compares them on generated patterns and texts)."""

from __future__ import annotations


def any_fits(shapes, text: str, patterns) -> bool:
    """Whether one of ``shapes`` matches ``text`` (``patterns``: the run's regexes, for those that are
    not plain); the first that matches ends the search, so later regexes are never compiled."""
    for head, tail, gap in shapes:
        if gap is None:
            if text == head:
                return True
        elif gap.__class__ is str:
            end = len(text) - len(tail)
            if (
                end >= len(head)
                and text.startswith(head)
                and text.endswith(tail)
                and (not gap or gap not in text[len(head) : end])
            ):
                return True
        elif patterns.match(head, gap, text):
            return True
    return False
