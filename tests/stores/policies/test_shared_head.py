"""The policy cache's head holds each repeated string and tuple once (``whole_cache.shared``): the same value,
type for type (1, True and 1.0 are equal in Python and must stay apart), and a smaller head for every
run to unmarshal."""

from __future__ import annotations

import marshal

from cupcake.stores.policies import cache, whole_cache
from tests.conftest import give_cache_secret


def test_sharing_keeps_every_value_and_type():
    value = {
        "a": [(1,), (True,), (1.0,), ("1",), (1,), ((1,), (True,)), ((1,), (1,))],
        "b": ("git", "git", ("push", "-f"), ("push", "-f"), (), ()),
        "c": ({"spec": ["x"]}, {"spec": ["x"]}),  # unhashable inside: kept as they are
        "d": [b"x", None, 0, False, 0.0, -0.0, ""],
    }
    shared = whole_cache.shared(value, {}, {})
    assert whole_cache.canonical(shared) == whole_cache.canonical(value)
    assert shared["a"][0] is shared["a"][4] and shared["a"][0] is not shared["a"][1]
    assert shared["a"][1] is not shared["a"][2] and shared["a"][6][0] is shared["a"][6][1]
    assert shared["b"][2] is shared["b"][3] and shared["b"][0] is shared["b"][1]
    assert [type(x) for x in shared["a"][5][1]] == [bool] and type(shared["a"][2][0]) is float


def test_the_packs_head_is_the_same_value_and_smaller(project):
    from cupcake.compile.compiler import compile_files
    from cupcake.project import policy_files

    give_cache_secret(project.home)
    env = project.env()
    project.write_policy('imports = ["cupcake:recommended"]\n')
    compiled = compile_files(policy_files(str(project.root), env), str(project.root), env)
    compiled = {k: v for k, v in compiled.items() if k != "problems"}
    rest = {k: (None if k == "sre" else v) for k, v in compiled.items()}
    assert len(marshal.dumps(whole_cache.shared(rest, {}, {}))) < 0.92 * len(marshal.dumps(rest))
    data = whole_cache.pack(cache.secret(env), ("key",), compiled)
    unpacked = whole_cache.unpack(data, env)
    assert not isinstance(unpacked, str), unpacked
    assert whole_cache.canonical(unpacked[1]) == whole_cache.canonical(compiled)
