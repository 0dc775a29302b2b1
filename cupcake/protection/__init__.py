"""Self-protection: the agent may not change what governs it (the hook layer and the settings sync writes)."""
