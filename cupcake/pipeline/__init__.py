"""The generic pipeline: an order table, the System base, the context, the plan builder and the runner.

Nothing here knows a concrete system; ``cupcake.systems`` holds the built-in ones.
"""
