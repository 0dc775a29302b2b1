"""``model.plain`` reads a line of plain words without the lexer and the grammar: wherever it answers, its
tree is the grammar's, node for node, and it pays the budget what the lexer and the grammar pay; on
random lines of the plain characters (reserved words, assignments, ``~`` and blanks among them) and
on every line of the corpora."""

from __future__ import annotations

import random

from cupcake.shell.grammar import Parser
from cupcake.shell.limits import Budget
from cupcake.shell.model import RawWord, plain
from tests.shell.helpers import corpus_commands

WORDS = ["rm", "-rf", "~", "~/x", "a=b", "x", "--force", "git", "push", "time", "if", "then", "do", "done"]
WORDS += ["for", "in", "case", "esac", "function", "coproc", "select", "while", "until", "-", "--", "%s", "1", "a:b"]
WORDS += ["/tmp/x", "./run.sh", "x+=1", "A_B=1", "+x", "^x", "@x", ",", "=", "==", "..", "."]


def _tree(node):
    """A node as nested tuples: its class and its slots."""
    if isinstance(node, list | tuple):
        return tuple(_tree(item) for item in node)
    if isinstance(node, RawWord):
        return ("RawWord", _tree(node.parts), node.raw)
    slots = getattr(type(node), "__slots__", None)
    if slots:
        return (type(node).__name__,) + tuple(_tree(getattr(node, s)) for s in slots)
    return node


def _both(line: str):
    """(plain's tree or None, the grammar's tree), each with the budget it left and the errors it made."""
    quick_budget, budget, errors = Budget(), Budget(), []
    found = plain(line, quick_budget)
    read = Parser(line, budget, 0, errors).parse()
    theirs = (_tree(read), budget.work, budget.reason, tuple(errors))
    return (None if found is None else (_tree(found), quick_budget.work, quick_budget.reason, ())), theirs


def test_plain_reads_as_the_grammar_on_random_plain_lines():
    rng = random.Random(29)
    read = 0
    for _ in range(20000):
        words = [rng.choice(WORDS) for _ in range(rng.randint(0, 6))]
        line = "".join(rng.choice([" ", "  ", "\t", " \t "]) + w for w in words) + rng.choice(["", " ", "\t"])
        mine, theirs = _both(line)
        if mine is not None:
            assert mine == theirs, line
            read += 1
    assert read > 8000  # most of them are plain: the comparison is not vacuous


def test_plain_reads_as_the_grammar_on_the_corpora():
    lines = corpus_commands()
    read = 0
    for line in lines:
        mine, theirs = _both(line)
        if mine is not None:
            assert mine == theirs, line
            read += 1
    assert len(lines) > 500 and read > 50


def test_what_plain_leaves_to_the_grammar():
    for line in ("a=1 ls", "time ls", "if x", "ls; rm x", "ls | wc", "rm 'x'", "rm $x", "rm *", "echo a#b", "ls\nrm"):
        assert plain(line, Budget()) is None, line
    assert _tree(plain("  rm -rf ~  ", Budget())) == _tree(Parser("  rm -rf ~  ", Budget()).parse())
