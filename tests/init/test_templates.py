"""The meta-prompt's policy language section and the starter stay true to the loader `run` uses."""

from __future__ import annotations

import re

import pytest

from cupcake.agents.claude.capabilities import EVENTS
from cupcake.compile import schema
from cupcake.compile.compiler import compile_files
from cupcake.init.prompt import fenced, fill, template

SCHEMA = template("init_schema.md")
TOML_BLOCKS = re.findall(r"```toml\n(.*?)```", SCHEMA, re.S)


def _load(tmp_path, text: str) -> dict:
    path = tmp_path / "cupcake.toml"
    path.write_text(text)
    return compile_files([str(path)], str(tmp_path), {"HOME": str(tmp_path)})


@pytest.mark.parametrize("number", range(len(TOML_BLOCKS)))
def test_every_example_of_the_policy_language_loads(tmp_path, number):
    compiled = _load(tmp_path, TOML_BLOCKS[number])
    assert compiled["problems"] == [], compiled["problems"]
    assert compiled["policies"], "an example without a policy teaches nothing"


def test_the_examples_teach_every_condition_and_action_type():
    """Every condition and action type of the language appears in some example the agent is shown."""
    shown = "\n".join(TOML_BLOCKS)
    for kind in (*schema.CONDITION_TYPES, *schema.ACTION_TYPES):
        assert f'type = "{kind}"' in shown, f"no example of {kind} in init_schema.md"


@pytest.mark.parametrize("kind", list(schema.CONDITION_TYPES) + list(schema.COMBINATORS))
def test_every_condition_the_loader_accepts_is_taught_with_an_example(kind):
    """When a condition type lands in the loader, the agent must learn about it here."""
    assert f"`{kind}`" in SCHEMA
    example = re.compile(rf"type = \"{kind}\"" if kind not in schema.COMBINATORS else rf"\{{ ?{kind} = ")
    assert any(example.search(block) for block in TOML_BLOCKS), f"no example uses {kind}"


@pytest.mark.parametrize("kind", schema.ACTION_TYPES)
def test_every_action_the_loader_accepts_is_taught_with_an_example(kind):
    assert f"`{kind}`" in SCHEMA
    assert any(f'type = "{kind}"' in block for block in TOML_BLOCKS), f"no example uses {kind}"


def test_every_example_type_is_one_the_loader_knows():
    offered = {kind for block in TOML_BLOCKS for kind in re.findall(r'type = "([a-z_]+)"', block)}
    assert offered and offered <= set(schema.CONDITION_TYPES) | set(schema.ACTION_TYPES), offered


def test_every_event_named_exists():
    named = set(re.findall(r"`([A-Z][A-Za-z]+)`", SCHEMA)) - {
        "Bash",
        "Write",
        "Edit",
        "MultiEdit",
        "NotebookEdit",
        "Read",
        "Glob",
        "Grep",
        "WebFetch",
        "WebSearch",
        "Agent",
    }
    assert named and named <= set(EVENTS), named - set(EVENTS)


def test_the_prompt_has_no_marker_left():
    values = {"targets": "T", "schema": SCHEMA, "sources": "S"}
    filled = fill(template("init_prompt.md"), values)
    assert "<!-- cupcake:" not in filled
    assert "## The policy language\n\n" + SCHEMA.rstrip("\n")[:40] in filled


def test_text_put_in_is_never_searched_for_markers():
    assert (
        fill("<!-- cupcake:a --> <!-- cupcake:b -->", {"a": "<!-- cupcake:b -->", "b": "x"}) == "<!-- cupcake:b --> x"
    )


def test_a_fence_is_longer_than_any_inside_the_text():
    text = "~~~~~\ninside\n~~~~~"
    block = fenced(text)
    assert block.startswith("~~~~~~\n") and block.endswith("\n~~~~~~")


def test_the_starter_loads_with_the_recommended_rules_and_one_example_on_and_with_every_example_on(tmp_path):
    from cupcake import packs

    text = template("starter.cupcake.toml")
    recommended = [rule["id"] for rule in packs.load("recommended").rules]
    compiled = _load(tmp_path, text)
    assert compiled["problems"] == []
    assert sorted(p[0] for p in compiled["policies"]) == sorted(recommended + ["Keep xyz"])
    on = "\n".join(line[2:] if line.startswith("# ") else line for line in text.splitlines())
    compiled = _load(tmp_path, on)
    assert compiled["problems"] == [] and len(compiled["policies"]) == 7 + len(recommended), compiled


def test_the_starters_own_policy_is_the_one_the_readme_teaches_policies_with():
    """The policy the starter turns on is, key for key, the first one the README's Policies section shows
    (wherever the README's detail lives: README.md or docs/)."""
    import tomli

    from tests.conftest import REPO

    starter = tomli.loads(template("starter.cupcake.toml"))["policy"]
    assert [p["name"] for p in starter] == ["Keep xyz"]
    shown = []
    for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        for block in re.findall(r"```toml\n(.*?)```", page.read_text(), re.S):
            if 'name = "Keep xyz"' in block:
                shown.append(tomli.loads(block)["policy"][0])
    assert shown and shown[0] == starter[0]
