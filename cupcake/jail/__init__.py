"""The operating-system layer of self-protection for every agent (DESIGN.md "Self-protection", layer 1).

With the layer on, ``cupcake run`` answers each shell call it allows with the same call wrapped in a
jail: the command runs exactly as it was written, with the same cwd, environment, streams, exit
status and process group, but Cupcake's protected paths are read-only to it and every process it
starts, and Cupcake's secrets are unreadable. On Linux the jail is bubblewrap in a user namespace with
no capabilities (so it holds when the agent runs as root); on macOS a ``sandbox-exec`` profile.

- ``spec``: the hook's side (warm): what the jail protects, as a content-addressed file under
  ``.cupcake/jail/``, and the command that runs the user's command inside it.
- ``launch``: the launcher itself, a stdlib-only script the rewritten command runs with
  ``python -I -S`` (it imports nothing from Cupcake, nor anything the agent could have planted).
- ``decide``: which calls are wrapped, and what is blocked instead (an ``ask`` an agent cannot combine
  with a rewrite, a command too long to wrap, a jail the hook can see cannot start).
- ``quote``: the POSIX single-quoting that carries the command byte for byte, and its strict inverse.
- ``seatbelt``: the macOS profile.
- ``probe``: whether the jail can start here, and why not (doctor, sync)."""

from cupcake import lean_os as os

# What every part of the jail names (here, so the hook's side and the helpers it calls import nothing of each other).
JAIL_DIR = os.path.join(".cupcake", "jail")
BWRAP_PLACES = ("/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap")  # never the agent's PATH


class Unjailable(Exception):
    """The hook cannot give this command a jail: the call is blocked with this reason."""
