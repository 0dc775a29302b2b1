"""[pipeline.systems] as the compiler checks it, the plan a run builds from it, discovery, and the API."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cupcake.compile.compiler import compile_files
from tests.conftest import ACME, install_on_path


def compiled(project, text: str, user: str | None = None) -> dict:
    project.write_policy(text)
    paths = [str(project.root / "cupcake.toml")]
    if user is not None:
        paths.append(str(project.write_user_policy(user)))
    return compile_files(paths, str(project.root), project.env())


def problems(result, severity="error") -> list:
    return [f"{p['line']}: {p['message']}" for p in result["problems"] if p["severity"] == severity]


def test_valid_entries_are_kept_in_the_compiled_set(project):
    result = compiled(
        project, '[pipeline.systems]\nacme-secrets = 450\n"acme_cupcake.audit:Sink" = 850\naudit_write = false\n'
    )
    assert problems(result) == []
    assert result["systems"] == (
        ("acme-secrets", 450, "cupcake.toml", 2),
        ("acme_cupcake.audit:Sink", 850, "cupcake.toml", 3),
        ("audit_write", False, "cupcake.toml", 4),
    )


@pytest.mark.parametrize(
    "line, message",
    [
        ("acme = true", '"acme" = true: give the order it runs at'),
        ('acme = "450"', '"acme": the value must be an order (an integer such as 450) or false, got str'),
        ("acme = 4.5", "got float"),
        ("state_write = 950", '"state_write" = 950: built-in systems keep their place in the order table'),
        ("input_parse = false", '"input_parse" is a core system'),
        ("policy_load = false", '"policy_load" is a core system'),
        ("acme = false", 'false turns a built-in system off, and there is no built-in system "acme"'),
        ('"has space" = 450', "neither an entry-point name"),
        ('"mod:" = 450', "neither an entry-point name"),
        ("acme = 200", "custom systems run after the policies are loaded (200)"),
        ("acme = -5", "give it an order above 200"),
        (
            "acme = 700",
            "order 700 is taken by the built-in feedback_guarantee; two systems never share an order: give it a free number such as 750",
        ),
    ],
)
def test_each_wrong_entry_is_an_error_on_its_line(project, line, message):
    result = compiled(
        project, f'[[policy]]\nname = "x"\naction = {{ type = "approve" }}\n\n[pipeline.systems]\n{line}\n'
    )
    found = problems(result)
    assert len(found) == 1 and found[0].startswith("6: ") and message in found[0], found
    assert result["out_of_service"]


def test_other_pipeline_keys_and_shapes_are_errors(project):
    assert (
        'unknown key `pipeline.sytems` (did you mean "systems"?)'
        in problems(compiled(project, "[pipeline]\nsytems = {}\n"))[0]
    )
    assert "must be a table" in problems(compiled(project, "pipeline = 3\n"))[0]
    assert "must be a table of" in problems(compiled(project, "[pipeline]\nsystems = [1]\n"))[0]


def test_an_order_freed_by_turning_a_built_in_off_can_be_taken(project):
    result = compiled(project, "[pipeline.systems]\naudit_write = false\nacme-archive = 1000\n")
    assert problems(result) == []


def test_both_files_run_together(project):
    result = compiled(
        project,
        "[pipeline.systems]\nacme = 450\naudit_write = false\n",
        user="[pipeline.systems]\nacme = 460\nmine = 470\naudit_write = false\n",
    )
    assert problems(result) == ['2: [pipeline.systems] "acme" is configured twice (first at cupcake.toml:2)']
    assert [e[0] for e in result["systems"]] == ["acme", "audit_write", "mine"]


def test_a_name_close_to_a_built_in_is_a_warning(project):
    result = compiled(project, "[pipeline.systems]\naudit-write = 975\n")
    assert problems(result) == []
    assert problems(result, "warning") == [
        '2: [pipeline.systems] "audit-write" is not a built-in system (did you mean "audit_write"?); '
        "it will be looked up as an installed entry point"
    ]


def test_validate_reports_the_problems_with_file_and_line(project, monkeypatch, capsys):
    from cupcake.cli.validate import validate_files

    path = project.write_policy("[pipeline.systems]\nhard_action_scan = false\n")
    code = validate_files([str(path)], project.env(), out=print)
    assert code == 1
    assert 'cupcake.toml:2: error: [pipeline.systems] "hard_action_scan" = false' in capsys.readouterr().out


# The plan ##########################################################################################


def test_the_plan_takes_custom_systems_in_order_and_leaves_disabled_built_ins_out(project, acme_installed):
    from cupcake.pipeline.context import Context
    from cupcake.pipeline.order import Stage
    from cupcake.stages.configure import configure
    from cupcake.systems import builtin_systems

    ctx = Context()
    ctx.root = str(project.root)
    ctx.policies = {
        "systems": (
            ("acme-secrets", 450, "cupcake.toml", 2),
            ("audit_write", False, "cupcake.toml", 3),
            ("acme_cupcake.decision_log:DecisionLog", 850, "cupcake.toml", 4),
        )
    }
    rest = [s for s in builtin_systems() if s.order > Stage.POLICY_LOAD]
    plan = configure(ctx, rest)
    assert [(s.order, s.name) for s in plan] == [
        (300, "state_load"),
        (400, "feedback_collection"),
        (450, "acme-secrets"),
        (500, "hard_action_scan"),
        (600, "response_preparation"),
        (700, "feedback_guarantee"),
        (800, "response_routing"),
        (850, "acme_cupcake.decision_log:DecisionLog"),
        (900, "state_write"),
        (1100, "telemetry_spool"),
    ]
    assert ctx.failures == []
    assert plan[2].origin == "acme-cupcake 0.1.0"


def test_a_system_that_cannot_be_loaded_is_a_failure_and_the_rest_still_runs(project, monkeypatch):
    from cupcake.pipeline.context import Context
    from cupcake.stages.configure import configure

    modules = project.home / "modules"
    modules.mkdir()
    (modules / "notasystem.py").write_text(
        "class Thing:\n    pass\n\nclass Broken:\n    def __init__(self):\n        raise ValueError('no config')\n"
    )
    install_on_path(monkeypatch, project, modules)
    ctx = Context()
    ctx.root = str(project.root)
    ctx.policies = {
        "systems": (
            ("notasystem:Thing", 450, "cupcake.toml", 2),
            ("notasystem:Broken", 460, "cupcake.toml", 3),
            ("notasystem:Missing", 470, "cupcake.toml", 4),
            ("nosuchmodule.x:Y", 480, "cupcake.toml", 5),
        )
    }
    plan = configure(ctx, [])
    assert plan == []
    messages = [f.message for f in ctx.failures]
    assert all(f.decides and f.custom for f in ctx.failures)
    assert "is not a system: it needs should_process(ctx) and process(ctx)" in messages[0]
    assert "Broken() failed: ValueError: no config" in messages[1]
    assert "module 'notasystem' has no attribute 'Missing'" in messages[2]
    assert "no module named 'nosuchmodule' is installed" in messages[3]
    sys.modules.pop("notasystem", None)


# Discovery #########################################################################################


@pytest.mark.parametrize(
    "ref, expected",
    [
        ("a.b:C", True),
        ("a:C.D", True),
        ("acme-secrets", False),
        ("a:", False),
        (":C", False),
        ("a.b", False),
        ("a b:C", False),
        ("1a:C", False),
        ("a::C", False),
    ],
)
def test_import_paths(ref, expected):
    from cupcake.stages.registry import is_import_path

    assert is_import_path(ref) is expected


def test_entry_points_are_cached_until_a_path_directory_changes(project, acme_installed, acme_site, monkeypatch):
    from cupcake.stages import registry

    cache = str(project.root / ".cupcake" / "entry-points.cache")
    scans = []
    real_scan = registry.scan
    monkeypatch.setattr(registry, "scan", lambda group: scans.append(group) or real_scan(group))
    first = registry.group_entry_points("cupcake.systems", cache)
    again = registry.group_entry_points("cupcake.systems", cache)
    assert first == again and first["acme-secrets"] == ("acme_cupcake.secrets:AwsKeyScan", "acme-cupcake", "0.1.0")
    assert len(scans) == 1
    os.utime(acme_site, ns=(1, 1))  # what installing or removing a distribution there does to its directory
    registry.group_entry_points("cupcake.systems", cache)
    assert len(scans) == 2
    with open(cache, "r+b") as f:  # a corrupt cache is rescanned, never trusted
        f.seek(20)
        f.write(b"\xff\xff\xff")
    registry.group_entry_points("cupcake.systems", cache)
    assert len(scans) == 3


# The public API ####################################################################################

API = ["__version__", "System", "BaseSystem", "Context", "Stage", "Decision", "Response", "CupcakeError"]


def test_the_public_api_is_exactly_these_names_and_each_resolves():
    import cupcake

    assert cupcake.__all__ == API  # changing this list is changing the public API: a major version
    for name in API:
        assert getattr(cupcake, name) is not None
    from cupcake import BaseSystem, Context, Decision, Stage, System

    assert isinstance(type("S", (BaseSystem,), {})(), System)
    assert Stage.HARD_ACTION_SCAN == 500 and Decision.BLOCK == "block"
    assert hasattr(Context, "decide")
    with pytest.raises(AttributeError):
        cupcake.Nope  # noqa: B018


def _probe(code: str, env=None) -> list:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_import_cupcake_loads_nothing_more():
    loaded = _probe("import sys; import cupcake; print(*sorted(m for m in sys.modules if m.startswith('cupcake')))")
    assert loaded == ["cupcake"]
    typing = _probe("import sys; from cupcake import BaseSystem, Stage, Decision; print('typing' in sys.modules)")
    if typing != ["True"]:  # an editable install's finder may import typing before Cupcake starts
        assert typing == ["False"]


def test_a_warm_run_loads_no_discovery_without_custom_systems_and_no_metadata_with_them(project, acme_site):
    """Discovery costs nothing when no custom system is named; a named entry point is looked up once,
    then found in the cache without importing importlib.metadata (about 40 ms)."""
    project.python_path = [str(ACME / "src"), str(acme_site)]
    env = dict(project.env(), PYTHONPATH=os.pathsep.join(project.python_path))
    payload = json.dumps(project.tool_call("Write", {"file_path": str(project.root / "a.py"), "content": "x"}))
    probe = (
        "import sys; before = 'importlib.metadata' in sys.modules; from cupcake.cli.run import execute; import os; "
        f"ctx = execute({payload.encode()!r}, ['--event', 'PreToolUse'], dict(os.environ)); "
        "print(before, 'importlib.metadata' in sys.modules, 'cupcake.stages.configure' in sys.modules, "
        "any(f.custom for f in ctx.failures))"
    )
    project.write_policy('[[policy]]\nname = "x"\nmatcher = "Bash"\naction = { type = "approve" }\n')
    project.send_process(json.loads(payload))  # builds the policy cache
    before, metadata, custom, failed = _probe(probe, env)
    assert (custom, failed) == ("False", "False")
    if before == "False":
        assert metadata == "False"

    project.write_policy("[pipeline.systems]\nacme-secrets = 450\n")
    _probe(probe, env)  # builds both caches (for this interpreter's sys.path)
    before, metadata, custom, failed = _probe(probe, env)
    assert (custom, failed) == ("True", "False")
    if before == "False":
        assert metadata == "False"
