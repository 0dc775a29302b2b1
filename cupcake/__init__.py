"""Cupcake: deterministic policies for AI coding agents, enforced through their hooks."""

__version__ = "0.1.0"
