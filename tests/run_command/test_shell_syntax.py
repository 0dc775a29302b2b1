"""Shell operators in a command that runs without a shell are found; quoted ones are arguments."""

from __future__ import annotations

import pytest

from cupcake.run_command.shell_syntax import shell_operators


@pytest.mark.parametrize(
    "command, found",
    [
        ("npm run lint && npm test", ["&&"]),
        ("make || true", ["||"]),
        ("echo hi | grep nope", ["|"]),
        ("make lint; make test", [";"]),
        ("pytest > out.txt 2>&1", [">", "&"]),
        ("sort < data", ["<"]),
        ("echo $(whoami)", ["$("]),
        ('echo "$(whoami)"', ["$("]),
        ("echo `whoami`", ["`"]),
        ("grep -E 'a|b;c&&d' x", []),
        ('grep -E "a|b;c" x', []),
        ("echo '$(whoami)'", []),
        ("echo a\\;b", []),
        ("pytest -k 'not slow' {{tool_input.file_path}}", []),
    ],
)
def test_operators_outside_quotes_are_found(command, found):
    assert shell_operators(command) == found
