"""``python -m cupcake.programs``: rewrite ``cupcake/program_index.py`` from the families (after adding
a program)."""

import os

from cupcake.programs.catalogue import index_source

path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "program_index.py")
text = index_source()  # (made before the file is opened: a family that fails to load leaves it as it was)
with open(path, "w", encoding="utf-8") as handle:
    handle.write(text)
print(f"wrote {path}")
