"""``python -m cupcake.programs``: rewrite ``index.py`` from the families (after adding a program)."""

import os

from cupcake.programs import index_source

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "index.py")
with open(path, "w", encoding="utf-8") as handle:
    handle.write(index_source())
print(f"wrote {path}")
