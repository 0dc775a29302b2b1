"""The warm path: what a `cupcake run` evaluates against the compiled policy set (conditions, the
event as conditions see it, the run's patterns, side effects). Nothing here imports the compiler."""
