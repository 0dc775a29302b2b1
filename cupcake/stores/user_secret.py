"""The per-user secret: 32 random bytes outside every project (``~/.cache/cupcake/cache-secret``, mode
0600) that seal the policy cache and key the approval codes. Self-protection names its path among the
secrets no tool of the agent may read, so it sits below both the cache and the protection layer."""

from __future__ import annotations

from cupcake import lean_os as os

SECRET_NAME = "cache-secret"


def secret_path(env) -> str:
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cupcake", SECRET_NAME)


def secret(env, create: bool = False):
    """The per-user secret (bytes), or None when there is none (and ``create`` is false or fails)."""
    path = secret_path(env)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        fd = -1
    if fd >= 0:
        try:
            data = os.read(fd, 64)
        finally:
            os.close(fd)
        return data if len(data) >= 32 else None
    if not create:
        return None
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        return secret(env)
    except OSError:
        return None
    data = os.urandom(32)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    return data
