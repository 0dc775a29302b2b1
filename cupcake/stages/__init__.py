"""Custom stages: integrators' systems named in `[pipeline.systems]`: settings, discovery, the fence, the plan."""
