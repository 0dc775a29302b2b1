"""End-to-end scenarios inside the real Claude Code client (features/real_client.feature)."""
