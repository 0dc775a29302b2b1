"""Policy files: finding them, compiling them (cold), caching the compiled form, evaluating conditions (warm)."""
