"""Programs the jail tests run inside the jail (shared with the real-client tests)."""

from __future__ import annotations

# A script whose writes the hook cannot see: the protected file's name is built when it runs.
OPAQUE = """\
import os, sys
name = "".join(chr(c) for c in (99, 117, 112, 99, 97, 107, 101)) + ".toml"
try:
    with open(os.path.join(sys.argv[1] if len(sys.argv) > 1 else ".", name), "w") as f:
        f.write("# gone\\n")
    print("WROTE")
except OSError as exc:
    print("REFUSED", exc.strerror)
with open("ordinary.txt", "w") as f:
    f.write("ok\\n")
sys.exit(7)
"""
