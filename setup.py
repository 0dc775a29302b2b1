"""The build step pyproject.toml cannot declare: the compiled-module bundle (``cupcake/bundle.py``) that
lets ``cupcake run`` import its modules from one file. Written into the built package only, never into the
source tree, and not for an editable install (a developer's edits must be what runs)."""

import os
import sys

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithBundle(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        package = os.path.join(self.build_lib, "cupcake")
        sys.path.insert(0, self.build_lib)  # the package being built (its __init__ imports nothing)
        try:
            from cupcake.bundle import BUNDLE_NAME, build
        finally:
            sys.path.remove(self.build_lib)
        out = os.path.join(package, BUNDLE_NAME)
        count = build(package, out)
        print(f"cupcake: {count} modules compiled into {os.path.relpath(out, self.build_lib)}")

    def get_outputs(self, include_bytecode=True):
        outputs = super().get_outputs(include_bytecode)
        if not getattr(self, "editable_mode", False):
            outputs.append(os.path.join(self.build_lib, "cupcake", "modules.bundle"))
        return outputs


setup(cmdclass={"build_py": BuildWithBundle})
