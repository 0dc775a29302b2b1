"""What conditions read from an event: the command, the file path (as policies see it), the
contents being written. Derived lazily, once per run; anything of the wrong shape reads as absent."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.agents import adapter
from cupcake.evaluate.patterns import Patterns
from cupcake.project import shown_path

_PATH_KEYS = ("file_path", "notebook_path", "path")


class EventView:
    __slots__ = (
        "payload",
        "root",
        "state",
        "patterns",
        "agent",
        "tool",
        "tool_input",
        "cwd",
        "_path",
        "_path_read",
        "_contents",
        "_script",
        "made_facts",
        "per_command",
        "pack_memo",
        "_line",
        "guesses",
    )

    def __init__(self, event, root: str, state=None, patterns=None):
        """``event``: the canonical event (``cupcake.agents.event.Event``); ``patterns``: the run's regexes
        (``cupcake.evaluate.patterns``)."""
        if patterns is None:
            patterns = Patterns()
        self.patterns = patterns
        self.guesses = 0  # command conditions taken to hold only because the line could not be read to the end
        self.payload = event.payload
        self.root = root
        self.state = state  # the session's state summary, when a policy needs it (see state_load)
        self.agent = event.agent
        self.tool = event.tool
        self.tool_input = event.tool_input
        self.cwd = event.cwd
        self._path: str | None = None
        self._path_read = False
        self._contents: tuple[str, ...] | None = None
        self._script = None
        self.made_facts = None  # the line's ``facts`` once made (``command_match`` reads them when they are)
        self.per_command: dict = {}  # Command -> what ``command_match`` worked out about it
        self.pack_memo: dict = {}  # what ``pack_match`` works out once per run (a path's spellings…)
        self._line: tuple | None = None

    @property
    def command(self):
        value = self.tool_input.get("command")
        return value if isinstance(value, str) else None

    def line(self):
        """The Bash command lower-cased and its ``command_match.line_kind``, for the prefilters of every
        condition (once per run), or None when there is no command."""
        if self._line is None:
            text = self.command
            if text is None:
                return None
            from cupcake.evaluate.command_match import line_kind

            lowered = text.lower()
            self._line = (lowered, line_kind(lowered))
        return self._line

    def script(self):
        """The Bash command read as the shell would (``cupcake.shell``): parsed at most once per run,
        and only when a ``command`` condition's prefilter passed."""
        if self._script is None:
            root = self.root.rstrip("/") or "/"
            cwd = self.cwd if isinstance(self.cwd, str) and self.cwd.startswith("/") else root
            home = os.environ.get("HOME") or None
            from cupcake.shell import known_env

            env = known_env(adapter(self.agent).PROJECT_DIR_ENV, root, os.environ)
            self._script = self.patterns.parsed(self.command or "", cwd, home, env)
        return self._script

    def facts(self, full: bool = False):
        """What the Bash line would do, nested code included (``command_facts``): once per run.
        ``full``: also the files read and the SQL run (each command read with the registry)."""
        if self.made_facts is None or (full and not self.made_facts.full):
            from cupcake.evaluate.command_facts import of

            self.made_facts = of(self, full)
        return self.made_facts

    @property
    def file_path(self) -> str | None:
        """The tool's file path: absolute, normalised, symlinks resolved; relative to the root when inside it."""
        if not self._path_read:
            self._path_read = True
            for key in _PATH_KEYS:
                value = self.tool_input.get(key)
                if isinstance(value, str) and value and "\0" not in value:
                    self._path = shown_path(value, self.root, self.cwd)
                    break
        return self._path

    @property
    def contents(self) -> tuple:
        """What the tool writes: Write ``content``, Edit ``new_string``, each MultiEdit ``edits[].new_string``,
        NotebookEdit ``new_source``."""
        if self._contents is None:
            found: list[str] = []
            for key in ("content", "new_string", "new_source"):
                value = self.tool_input.get(key)
                if isinstance(value, str):
                    found.append(value)
            edits = self.tool_input.get("edits")
            if isinstance(edits, list):
                for edit in edits:
                    if isinstance(edit, dict) and isinstance(edit.get("new_string"), str):
                        found.append(edit["new_string"])
            self._contents = tuple(found)
        return self._contents

    def field(self, path: tuple):
        """The value at a dotted path into the event (``tool_input.url``), or None."""
        value = self.payload
        for part in path:
            if isinstance(value, dict):
                value = value.get(part)
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            else:
                return None
        return value
