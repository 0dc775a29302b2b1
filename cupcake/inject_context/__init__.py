"""Context for the model: the ``inject_context`` action (text, a project file, or a command's stdout).

Context never decides: it reaches the model as the agent's extra context and a source that fails gives
no context and a warning for the user, never a block. ``compile`` checks an action when policies are
compiled (cold); ``sources`` reads a file or runs a command at run time, only when such a policy
matches; ``files`` opens files without following a symlink out of the place they must stay in.
"""
