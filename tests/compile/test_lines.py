"""Where a problem is: the line of a condition, a nested condition, or a key of a multi-line table."""

from __future__ import annotations

from cupcake.compile.lines import FileLines

TEXT = '''imports = [
  "a/*.toml",   # a comment with ] and "
  'b.toml',
]

[[policy]]
name = "first"
action = { type = "approve" }

[[policy]]
name = "x"
conditions = [
  { type = "command_regex", value = "a]\\\\\\"}" },  # ] in a comment
  { any = [
      { type = "x", value = """multi
line""" },
      { type = "y" } ] },
]
action = {
  type = "block_with_feedback",
  "feedback_message" = "m"
}

[policy.extra]
key = 1
'''


def test_elements_and_keys_inside_a_policy():
    lines = FileLines(TEXT)
    assert lines.policy(1) == 10
    assert lines.at(1, ("conditions", 0)) == 13
    assert lines.at(1, ("conditions", 1)) == 14
    assert lines.at(1, ("conditions", 1, "any", 1)) == 17
    assert lines.at(1, ("conditions", 1, "any", 0, "value")) == 15
    assert lines.at(1, ("action", "type")) == 20
    assert lines.at(1, ("action", "feedback_message")) == 21
    assert lines.at(1, "extra") == 24


def test_what_cannot_be_found_falls_back_to_the_nearest_line():
    lines = FileLines(TEXT)
    assert lines.at(1, ("action", "missing")) == 19
    assert lines.at(1, ("conditions", 9)) == 12
    assert lines.at(1, ("nothing", 0)) == 10
    assert lines.at(5, ("conditions", 0)) is None


def test_top_level_array_elements():
    lines = FileLines(TEXT)
    assert lines.top(("imports", 0)) == 2
    assert lines.top(("imports", 1)) == 3
