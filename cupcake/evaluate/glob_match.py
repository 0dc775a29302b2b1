"""Matching a glob's compiled shape on a warm run (``cupcake.compile.glob_shapes`` says what a shape is):
a plain one by string comparisons, without compiling anything; any other by its regex, compiled only
when the text holds the literals every match needs. The answer is always ``re.match(pattern, text)``'s
(``tests/evaluate/test_glob_shapes.py`` compares them on generated patterns and texts)."""

from __future__ import annotations


def any_fits(shapes, text: str, patterns) -> bool:
    """Whether one of ``shapes`` matches ``text`` (``patterns``: the run's regexes, for those that are
    not plain); the first that matches ends the search, so later regexes are never compiled."""
    for shape in shapes:
        if shape.__class__ is str:
            if text == shape:
                return True
        elif len(shape) == 3:
            head, tail, gap = shape
            end = len(text) - len(tail)
            if (
                end >= len(head)
                and text.startswith(head)
                and text.endswith(tail)
                and (not gap or gap not in text[len(head) : end])
            ):
                return True
        elif patterns.match(shape[0], shape[1], text):
            return True
    return False
