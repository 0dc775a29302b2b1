"""Session state: an append-only log of what happened in a session, per ``session_id``.

``.cupcake/state/<name>.json`` holds one JSON object per line (the readable source of truth);
``<name>.idx`` beside it is a summary the state conditions read, rebuildable from the log.
Everything here runs on the hot path: no ``json``, ``re``, ``pathlib`` or ``datetime``.
"""
