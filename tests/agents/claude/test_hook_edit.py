"""Editing Claude Code settings text: what changes, what stays byte for byte, what is refused."""

from __future__ import annotations

import json

import pytest

from cupcake.agents.claude import hook_entries as entries
from cupcake.agents.claude.hook_edit import ShapeError, apply_sync, apply_uninstall
from cupcake.agents.jsonedit import Document

WANTED = {event: entries.handler("cupcake", event, False, 600) for event in entries.EVENTS}


def synced(text: str, wanted=WANTED, also=()) -> str:
    doc = Document(text)
    apply_sync(doc, wanted, also)
    return doc.render()


def uninstalled(text: str, also=()) -> str:
    doc = Document(text)
    apply_uninstall(doc, also)
    return doc.render()


def cupcake_commands(text: str) -> dict:
    settings = json.loads(text)
    return {
        event: [h["command"] for g in groups for h in g.get("hooks", []) if entries.is_cupcake(h.get("command"))]
        for event, groups in settings.get("hooks", {}).items()
    }


ORIGINALS = [
    "{}\n",
    '{"model": "opus"}',
    '{\n  "hooks": {}\n}\n',
    '{\r\n  "model": "opus",\r\n  "hooks": {\r\n    "Stop": []\r\n  }\r\n}\r\n',
    '{\n\t"hooks": {\n\t\t"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]\n\t}\n}\n',
    '  {"a": [1, 2.50, 1e3, "\\u00e9", "é", null, true]}  \n',
    '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say hi"}, {"type": "command", "command": "say bye"}]}]}}',
]


# Files without empty hook containers (an empty one that Cupcake then fills is removed by uninstall).
RESTORABLE = [text for text in ORIGINALS if '"hooks": {}' not in text and "[]" not in text]


@pytest.mark.parametrize("original", RESTORABLE)
def test_sync_then_uninstall_gives_back_the_original_byte_for_byte(original):
    after = synced(original)
    assert all(
        cmds == [entries.command("cupcake", e, False)] for e, cmds in cupcake_commands(after).items() if e in WANTED
    )
    assert set(WANTED) <= set(cupcake_commands(after))
    assert uninstalled(after) == original


def test_uninstall_removes_the_containers_that_held_only_cupcakes_entries():
    """Whether an empty list was there before sync cannot be known: empty after uninstall, it goes."""
    after = synced('{\n  "model": "opus",\n  "hooks": {\n    "Stop": []\n  }\n}\n')
    assert uninstalled(after) == '{\n  "model": "opus"\n}\n'


@pytest.mark.parametrize("original", ORIGINALS)
def test_sync_is_idempotent(original):
    once = synced(original)
    doc = Document(once)
    apply_sync(doc, WANTED)
    assert doc.render() == once


def test_crlf_files_get_crlf_lines():
    after = synced('{\r\n  "model": "opus"\r\n}\r\n')
    assert "\n" not in after.replace("\r\n", "")
    assert '\r\n  "hooks": {\r\n    "PreToolUse": [\r\n' in after


def test_an_empty_hooks_object_is_filled_at_its_own_depth():
    after = synced('{\n  "hooks": {}\n}\n', {"Stop": WANTED["Stop"]})
    assert after == (
        '{\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": [\n          {\n'
        '            "type": "command",\n            "command": "cupcake run --event Stop",\n'
        '            "timeout": 600\n          }\n        ]\n      }\n    ]\n  }\n}\n'
    )


def test_a_replaced_handler_keeps_the_style_of_the_one_it_replaces():
    original = (
        '{\n  "hooks": {\n    "Stop": [\n      {"hooks": [{"type": "command", "command": "cupcake run --event Stop",'
        ' "timeout": 60}]}\n    ]\n  }\n}\n'
    )
    after = synced(original, {"Stop": WANTED["Stop"]})
    assert after == original.replace('"timeout": 60}', '"timeout": 600}')


def test_the_users_handler_in_cupcakes_group_survives_sync_and_uninstall():
    original = (
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "cupcake run --event Stop"}, '
        '{"type": "command", "command": "say done"}]}]}}'
    )
    after = synced(original, {"Stop": WANTED["Stop"]})
    assert cupcake_commands(after) == {"Stop": ["cupcake run --event Stop"]}
    assert uninstalled(after) == '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}'


def test_duplicates_collapse_into_the_first_entry_that_sees_every_call():
    original = json.dumps(
        {
            "hooks": {
                "Stop": [
                    {"matcher": "x", "hooks": [{"type": "command", "command": "cupcake run --event Stop"}]},
                    {"hooks": [{"type": "command", "command": "/opt/cupcake run --event Stop || exit 2"}]},
                    {"hooks": [{"type": "command", "command": "cupcake run --event Stop"}]},
                ]
            }
        }
    )
    after = json.loads(synced(original, {"Stop": WANTED["Stop"]}))
    assert after == {"hooks": {"Stop": [{"hooks": [WANTED["Stop"]]}]}}


def test_a_handler_with_extra_keys_is_rewritten_whole():
    """An `async` or `if` on Cupcake's handler would stop it from blocking every call."""
    original = json.dumps(
        {
            "hooks": {
                "Stop": [
                    {
                        "hooks": [
                            {"type": "command", "command": "cupcake run --event Stop", "timeout": 600, "async": True}
                        ]
                    }
                ]
            }
        }
    )
    after = json.loads(synced(original, {"Stop": WANTED["Stop"]}))
    assert after["hooks"]["Stop"] == [{"hooks": [WANTED["Stop"]]}]


def test_a_custom_command_is_recognised_as_cupcakes_when_sync_writes_it_again():
    wanted = {"Stop": entries.handler("/opt/wrap", "Stop", False, 600)}
    once = synced("{}", wanted, also=("/opt/wrap",))
    assert synced(once, wanted, also=("/opt/wrap",)) == once
    assert uninstalled(once, also=("/opt/wrap",)) == "{}"
    assert uninstalled(once) == once  # without --command, a wrapper that is not named cupcake is not Cupcake's


def test_uninstall_leaves_other_hook_events_and_keys():
    original = '{"a": 1, "hooks": {"Setup": [{"hooks": [{"type": "command", "command": "make"}]}]}}'
    assert uninstalled(synced(original)) == original


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"hooks": {}, "hooks": {}}', '"hooks" appears 2 times (lines 1, 1)'),
        ('{"hooks": []}', '"hooks" (line 1) is not an object'),
        ('{"hooks": {"Stop": {}}}', '"hooks": "Stop" (line 1) is not a list'),
        ('{"hooks": {"Stop": [], "Stop": []}}', '"hooks": "Stop" appears 2 times'),
    ],
)
def test_shapes_cupcake_cannot_edit_safely_are_refused(text, message):
    with pytest.raises(ShapeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        synced(text)


@pytest.mark.parametrize(
    "command, ours",
    [
        ("cupcake run --event PreToolUse", True),
        ("/usr/local/bin/cupcake run --event Stop || exit 2", True),
        ("'/home/me/my tools/cupcake' run --event Stop", True),
        ("cupcake run --event Stop ||exit 2", True),
        ("cupcake run --event Stop --fail-closed || exit 2", True),
        ("cupcake run --event Stop --verbose", False),
        ("cupcake-wrapper run --event Stop", False),
        ("mycupcake run --event Stop", False),
        ("echo cupcake run --event Stop", False),
        ("cupcake run --event Stop && rm -rf ~", False),
        ("cupcake run --event", False),
        ("cupcake validate", False),
        ("cupcake run --event 'Stop", False),
        (None, False),
    ],
)
def test_which_commands_are_cupcakes(command, ours):
    assert entries.is_cupcake(command) is ours


@pytest.mark.parametrize(
    "executable, word",
    [
        ("cupcake", "cupcake"),
        ("/opt/venv/bin/cupcake", "/opt/venv/bin/cupcake"),
        ("${CLAUDE_PROJECT_DIR}/.venv/bin/cupcake", "${CLAUDE_PROJECT_DIR}/.venv/bin/cupcake"),
        ("/home/me/my tools/cupcake", "'/home/me/my tools/cupcake'"),
        ("/tmp/x;rm -rf ~", "'/tmp/x;rm -rf ~'"),
    ],
)
def test_the_executable_is_quoted_only_when_it_must_be(executable, word):
    from cupcake.agents.hook_command import command_word

    assert command_word(executable) == word
    for event in ("Stop", "PreToolUse"):  # without the guard, and with it
        assert entries.is_cupcake(entries.command(word, event, True), also=(executable,))
