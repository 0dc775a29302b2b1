"""Shims that keep `cupcake run`'s start-up small (each module says what it saves)."""
