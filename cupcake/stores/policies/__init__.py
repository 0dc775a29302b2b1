"""The compiled policy set as a run gets it: ``.cupcake/policy.cache`` (``cache``) and the loader that
reads it, or compiles the policy files on a miss and writes it (``loader``)."""
