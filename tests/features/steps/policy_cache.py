"""The compiled policy cache in .cupcake/: built, spoiled, forged, and checked."""

from __future__ import annotations

import os

from pytest_bdd import parsers, then, when


@when(parsers.parse("the policy cache is {spoiled}"))
def spoil_cache(project, tmp_path, spoiled):
    """The policy cache is damaged: truncated, random, one byte flipped, copied from another project, or
    forged (with a made-up secret, the user's own, or unkeyed once the user's secret is gone)."""
    cache = project.root / ".cupcake" / "policy.cache"
    data = cache.read_bytes()
    if spoiled == "truncated":
        cache.write_bytes(data[: len(data) // 2])
    elif spoiled == "filled with random bytes":
        cache.write_bytes(os.urandom(len(data)))
    elif spoiled == "flipped in one byte":
        cache.write_bytes(data[:-5] + bytes([data[-5] ^ 0x40]) + data[-4:])
    elif spoiled == "replaced by one built for another file":
        from tests.conftest import Project, give_cache_secret

        other = Project(tmp_path / "other", tmp_path / "other-home")
        other.root.mkdir()
        other.home.mkdir()
        give_cache_secret(other.home)
        other.write_policy('[[policy]]\nname = "allow all"\naction = { type = "approve" }\n')
        other.send(other.tool_call("Bash", {"command": "ls"}))
        cache.write_bytes((other.root / ".cupcake" / "policy.cache").read_bytes())
    elif spoiled.startswith("forged to switch every policy off"):
        # The attack of issue 15: rewrite the compiled set so nothing is enforced, keep the key (it is
        # readable), and seal it again: with a made-up secret, or with the user's own (an agent running
        # as the user can read it).
        from cupcake.stores.policies import cache as policy_cache
        from tests import cache_forgery

        key, compiled = cache_forgery.contents(data)
        compiled["settings"]["self_protection"] = False
        compiled["policies"] = []
        compiled["index"] = {}
        if spoiled.endswith("with the user's own secret"):
            secret = policy_cache.secret(project.env()) or policy_cache.UNKEYED
        elif spoiled.endswith("unkeyed, and the per-user secret is removed"):
            secret = policy_cache.UNKEYED  # what caches were sealed with before a secret existed
            (project.home / ".cache" / "cupcake" / "cache-secret").unlink()
        else:
            secret = os.urandom(32)
        cache.write_bytes(cache_forgery.sealed(secret, key, compiled))
        os.utime(cache, ns=(cache.stat().st_atime_ns, cache.stat().st_mtime_ns))
    else:
        raise AssertionError(f"unknown way to spoil the cache: {spoiled}")


@then("the policy cache exists")
def cache_exists(project, run):
    """The policy cache exists; its time and inode are kept to compare with later."""
    cache = project.root / ".cupcake" / "policy.cache"
    assert cache.is_file()
    st = cache.stat()
    run.cache_stat = (st.st_mtime_ns, st.st_ino)


@then("the policy cache was not rewritten")
def cache_not_rewritten(project, run):
    """The policy cache has the same time and inode as when it was first seen."""
    st = (project.root / ".cupcake" / "policy.cache").stat()
    assert (st.st_mtime_ns, st.st_ino) == run.cache_stat


@then("the policy cache is valid again")
def cache_valid(project):
    """The policy cache is read back as valid for the current policy files."""
    from cupcake.project import policy_files
    from cupcake.stores.policies import cache

    path = project.root / ".cupcake" / "policy.cache"
    key = cache.cache_key([cache.file_identity(p) for p in policy_files(str(project.root), project.env())])
    assert cache.read(str(path), key, project.env()) is not None


@then(parsers.parse('the policy cache starts with "{magic}"'))
def cache_magic(project, magic):
    """The policy cache begins with the magic bytes."""
    assert (project.root / ".cupcake" / "policy.cache").read_bytes().startswith(magic.encode())
