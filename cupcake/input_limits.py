"""What a hook event may be. Beyond these limits it is not read, and the call is blocked: the agent shapes
the tool input, so it could hide a write from every check by making the event unreadable. The CLI reads
stdin (``cli.run``) and input parse checks the rest (``systems.input_parse``); this module imports nothing,
so that reading stdin can never fail on a broken import."""

MAX_INPUT_BYTES = 32 << 20  # the CLI reads at most one byte more
MAX_DEPTH = 100  # objects and arrays inside one another (real events: under 10)
MAX_VALUES = 500_000  # values in arrays and objects: memory (a million tiny ones cost ~100 MB)
