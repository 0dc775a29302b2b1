"""Transport adapters: one module per agent turns a Response into stdout, stderr and an exit code."""
