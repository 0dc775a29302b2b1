"""Claude Code: its hook protocol (events, payload fields, answers) and its settings files."""
