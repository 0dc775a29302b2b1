"""Other agents' real CLIs (Gemini CLI, Codex, Copilot CLI, Factory droid) run headless and offline against
scripted model stand-ins, with a hook command of our choosing."""
